// oneDNN (Debian's libdnnl) as a peer: dnnl_sgemm and dnnl_gemm_u8s8s32,
// its JIT GEMMs for the host's best ISA (oneDNN has no f64 GEMM). It runs on OpenMP (libgomp),
// sized per call with omp_set_num_threads.
#pragma once

#include <cstdint>
#include <string>

namespace tessera::bench::onednn_peer {

bool available();
// "oneDNN 2.6.3 (cpu isa avx512_core_bf16, OpenMP)", or why absent.
std::string describe();
// Row-major C (m x n) = A (m x k) * B (k x n), contiguous. False on a
// oneDNN error (the bench then stops: a peer that failed is no figure).
bool sgemm(const float* a, const float* b, float* c, int m, int n, int k, int threads);
// Row-major C (int32, m x n) = (A (u8, m x k) - a_zero) * B (s8, k x n), the
// integer GEMM (its zero points are per tensor only). False on an error.
bool gemm_u8s8s32(const std::uint8_t* a, std::uint8_t a_zero, const std::int8_t* b,
                  std::int32_t* c, int m, int n, int k, int threads);

}  // namespace tessera::bench::onednn_peer
