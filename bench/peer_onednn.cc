#include "peer_onednn.hpp"

#if defined(TESSERA_BENCH_HAVE_ONEDNN)
#include <oneapi/dnnl/dnnl.h>
#endif
#if defined(_OPENMP)
#include <omp.h>
#endif

namespace tessera::bench::onednn_peer {

#if defined(TESSERA_BENCH_HAVE_ONEDNN)
namespace {

const char* isa_name(dnnl_cpu_isa_t isa) {
  switch (isa) {
    case dnnl_cpu_isa_sse41:
      return "sse41";
    case dnnl_cpu_isa_avx:
      return "avx";
    case dnnl_cpu_isa_avx2:
      return "avx2";
    case dnnl_cpu_isa_avx2_vnni:
      return "avx2_vnni";
    case dnnl_cpu_isa_avx512_core:
      return "avx512_core";
    case dnnl_cpu_isa_avx512_core_vnni:
      return "avx512_core_vnni";
    case dnnl_cpu_isa_avx512_core_bf16:
      return "avx512_core_bf16";
    case dnnl_cpu_isa_avx512_core_amx:
      return "avx512_core_amx";
    default:
      return "other";
  }
}

}  // namespace

bool available() { return true; }

std::string describe() {
  const dnnl_version_t* v = dnnl_version();
  std::string text = "oneDNN " + std::to_string(v->major) + "." + std::to_string(v->minor) + "." +
                     std::to_string(v->patch) + " (cpu isa " +
                     isa_name(dnnl_get_effective_cpu_isa()) + ", runtime ";
  text += v->cpu_runtime == DNNL_RUNTIME_OMP ? "OpenMP" : "not OpenMP: thread count not set";
  return text + ")";
}

bool sgemm(const float* a, const float* b, float* c, int m, int n, int k, int threads) {
#if defined(_OPENMP)
  omp_set_num_threads(threads);
#else
  (void)threads;
#endif
  return dnnl_sgemm('N', 'N', m, n, k, 1.0f, a, k, b, n, 0.0f, c, n) == dnnl_success;
}

bool gemm_u8s8s32(const std::uint8_t* a, std::uint8_t a_zero, const std::int8_t* b,
                  std::int32_t* c, int m, int n, int k, int threads) {
#if defined(_OPENMP)
  omp_set_num_threads(threads);
#else
  (void)threads;
#endif
  // 'F': one fixed offset added to C, here zero.
  const std::int32_t c_offset = 0;
  return dnnl_gemm_u8s8s32('N', 'N', 'F', m, n, k, 1.0f, a, k, a_zero, b, n, 0, 0.0f, c, n,
                           &c_offset) == dnnl_success;
}

#else

bool available() { return false; }
std::string describe() { return "oneDNN: not found at configure time (libdnnl-dev; not measured)"; }
bool sgemm(const float*, const float*, float*, int, int, int, int) { return false; }
bool gemm_u8s8s32(const std::uint8_t*, std::uint8_t, const std::int8_t*, std::int32_t*, int, int,
                  int, int) {
  return false;
}

#endif

}  // namespace tessera::bench::onednn_peer
