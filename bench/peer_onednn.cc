#include "peer_onednn.hpp"

#if defined(TESSERA_BENCH_HAVE_ONEDNN)
#include <oneapi/dnnl/dnnl.h>
#include <oneapi/dnnl/dnnl.hpp>
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

struct Bf16Matmul::State {
  dnnl::engine engine{dnnl::engine::kind::cpu, 0};
  dnnl::stream stream{engine};
  dnnl::matmul::primitive_desc pd;
  dnnl::matmul primitive;
  dnnl::memory::desc a_md, b_md, c_md;
};

Bf16Matmul::Bf16Matmul(int m, int n, int k) {
  using dt = dnnl::memory::data_type;
  using tag = dnnl::memory::format_tag;
  try {
    auto* s = new State;
    s->a_md = dnnl::memory::desc({m, k}, dt::bf16, tag::ab);
    s->b_md = dnnl::memory::desc({k, n}, dt::bf16, tag::ab);
    s->c_md = dnnl::memory::desc({m, n}, dt::f32, tag::ab);
    s->pd = dnnl::matmul::primitive_desc(dnnl::matmul::desc(s->a_md, s->b_md, s->c_md), s->engine);
    s->primitive = dnnl::matmul(s->pd);
    state_ = s;
  } catch (const dnnl::error&) {
    state_ = nullptr;
  }
}

Bf16Matmul::~Bf16Matmul() { delete state_; }
bool Bf16Matmul::ok() const { return state_ != nullptr; }
std::string Bf16Matmul::implementation() const {
  return state_ != nullptr ? state_->pd.impl_info_str() : "none";
}

bool Bf16Matmul::run(const std::uint16_t* a, const std::uint16_t* b, float* c, int threads) {
  if (state_ == nullptr) return false;
#if defined(_OPENMP)
  omp_set_num_threads(threads);
#else
  (void)threads;
#endif
  try {
    dnnl::memory am(state_->a_md, state_->engine, const_cast<std::uint16_t*>(a));
    dnnl::memory bm(state_->b_md, state_->engine, const_cast<std::uint16_t*>(b));
    dnnl::memory cm(state_->c_md, state_->engine, c);
    state_->primitive.execute(state_->stream,
                              {{DNNL_ARG_SRC, am}, {DNNL_ARG_WEIGHTS, bm}, {DNNL_ARG_DST, cm}});
    state_->stream.wait();
  } catch (const dnnl::error&) {
    return false;
  }
  return true;
}

#else

struct Bf16Matmul::State {};
Bf16Matmul::Bf16Matmul(int, int, int) {}
Bf16Matmul::~Bf16Matmul() = default;
bool Bf16Matmul::ok() const { return false; }
std::string Bf16Matmul::implementation() const { return "none"; }
bool Bf16Matmul::run(const std::uint16_t*, const std::uint16_t*, float*, int) { return false; }

bool available() { return false; }
std::string describe() { return "oneDNN: not found at configure time (libdnnl-dev; not measured)"; }
bool sgemm(const float*, const float*, float*, int, int, int, int) { return false; }
bool gemm_u8s8s32(const std::uint8_t*, std::uint8_t, const std::int8_t*, std::int32_t*, int, int,
                  int, int) {
  return false;
}

#endif

}  // namespace tessera::bench::onednn_peer
