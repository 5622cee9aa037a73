// oneDNN (Debian's libdnnl) as a peer: dnnl_sgemm, its JIT GEMM for the
// host's best ISA (oneDNN has no f64 GEMM). It runs on OpenMP (libgomp),
// sized per call with omp_set_num_threads.
#pragma once

#include <string>

namespace tessera::bench::onednn_peer {

bool available();
// "oneDNN 2.6.3 (cpu isa avx512_core_bf16, OpenMP)", or why absent.
std::string describe();
// Row-major C (m x n) = A (m x k) * B (k x n), contiguous. False on a
// oneDNN error (the bench then stops: a peer that failed is no figure).
bool sgemm(const float* a, const float* b, float* c, int m, int n, int k, int threads);

}  // namespace tessera::bench::onednn_peer
