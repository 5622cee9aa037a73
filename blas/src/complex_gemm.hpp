// Complex GEMM (cgemm, zgemm) on tessera's real GEMM, by the 4m method in
// its stacked form:
//
//   [Ar]               [ArBr  ArBi]
//   [Ai] [Br  Bi]   =  [AiBr  AiBi],   P = A B:  Pr = ArBr - AiBi,
//                                                Pi = ArBi + AiBr,
//
// where Ar and Ai are the real and imaginary parts of op(A) (m x k, a
// conjugate transpose negating Ai), and Br, Bi those of op(B) (k x n).
// The four real products come from ONE real GEMM of a 2m x k by a k x 2n
// matrix, so they run on the real kernels, blocking and thread pool at
// their large-problem speed with one plan, and the same flops as a complex
// kernel (8mnk). Then C := alpha P + beta C elementwise.
//
// Bits: the real GEMM's result does not depend on the worker count, and
// every other step is elementwise in a fixed order, so neither does this.
// Cost beyond the GEMM: the parts of A and B are copied once (2mk + 2kn
// reals) and P takes 4mn reals of scratch; the passes are O(mk + kn + mn)
// against the GEMM's O(mnk).
//
// BLAS special cases kept: alpha == 0 or k == 0 reads neither A nor B;
// beta == 0 does not read C.
#pragma once

#include <complex>
#include <cstdint>

#include "tessera/platform/status.hpp"

namespace tessera::blas {

// Column-major, arguments already checked; transa/transb 'N', 'T', 'C'
// (conjugate transpose) or 'R' (conjugate, no transpose: what a row-major
// view of a conjugate transpose needs inside the level-3 routines). A
// failure (no memory for the scratch) is returned, nothing written.
template <class R>
Status complex_gemm_colmajor(char transa, char transb, std::int64_t m, std::int64_t n,
                             std::int64_t k, std::complex<R> alpha, const std::complex<R>* a,
                             std::int64_t lda, const std::complex<R>* b, std::int64_t ldb,
                             std::complex<R> beta, std::complex<R>* c, std::int64_t ldc);

// `batch` products at element strides (0 shares an operand, split once),
// none of whose C may meet another's: one real GEMM over all entries.
template <class R>
Status complex_gemm_colmajor_strided(char transa, char transb, std::int64_t m, std::int64_t n,
                                     std::int64_t k, std::complex<R> alpha,
                                     const std::complex<R>* a, std::int64_t lda,
                                     std::int64_t stride_a, const std::complex<R>* b,
                                     std::int64_t ldb, std::int64_t stride_b,
                                     std::complex<R> beta, std::complex<R>* c, std::int64_t ldc,
                                     std::int64_t stride_c, std::int64_t batch);

}  // namespace tessera::blas
