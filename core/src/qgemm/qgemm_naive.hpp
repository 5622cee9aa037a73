// The naive integer GEMM: the reference the optimized family is checked
// against (selftest, tessera-cli --check). Independent of the packed path:
// no packing, no shifts, no correction terms.
#pragma once

#include "core/src/kernels/qgemm_kernel.hpp"

namespace tessera::core::naive {

// For i < m, j < n: s = sum_{p<k} (A(i,p) - za) * (B(p,j) - zb[j]) in 64
// bits, wrapped to int32; then the output stage from its definition (float
// activations through the C library in long double).
void qgemm(const QGemmProblem& problem);

}  // namespace tessera::core::naive
