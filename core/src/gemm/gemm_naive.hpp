// The naive GEMM: the reference the optimized family is checked against.
#pragma once

#include "core/src/kernels/gemm_kernel.hpp"

namespace tessera::core::naive {

// C = alpha*A*B + beta*C on the canonical problem, one element at a time:
//   for i < m: for j < n: s = sum_{p<k} double(A(i,p)) * double(B(p,j));
//     C(i,j) = T(alpha*s + beta*C(i,j))    (C not read when beta == 0)
// in double (plain triple loop, independent of the packed drivers).
void gemm_f32(const GemmProblem<float>& problem);
void gemm_f64(const GemmProblem<double>& problem);

}  // namespace tessera::core::naive
