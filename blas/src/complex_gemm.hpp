// Complex GEMM (cgemm, zgemm) on tessera's real GEMM, by the 1m method
// (Van Zee and Smith, "Implementing high-performance complex matrix
// multiplication via the 1m method"): the complex m x k by k x n product is
// ONE real product of a 2m x 2k by a 2k x n matrix,
//
//   C as reals (2m x n)  =  A1m (2m x 2k)  x  B as reals (2k x n),
//
// where a column-major complex matrix read as reals is its real and
// imaginary parts interleaved down each column (C and B: no copy, the
// real GEMM reads and writes the caller's arrays), and A1m holds each
// element u of op(A) (times alpha where alpha is complex; a real alpha is
// the real GEMM's) as the 2 x 2 block [ur -ui; ui ur]: row 2p of
// the product is sum_q ur br - ui bi, row 2p + 1 sum_q ui br + ur bi. So
// it runs on the real kernels, blocking and thread pool at their
// large-problem speed with one plan and the flops of a complex kernel
// (8mnk), and C needs no pass after it.
//
// Bits: the real GEMM's result does not depend on the worker count, and
// the expansion is elementwise, so neither does this.
// Cost beyond the GEMM: A1m, 4mk reals written from A's 2mk; op(B) copied
// (2kn reals) only when it is transposed or shares C's bytes (a
// conjugated B is read in place, its sign moved into A1m); a real alpha
// and beta are the real GEMM's, a complex alpha is folded into A1m and a
// complex beta scales C first.
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
// view of a conjugate transpose needs inside the level-3 routines). No
// memory for the scratch is returned before C is written.
template <class R>
Status complex_gemm_colmajor(char transa, char transb, std::int64_t m, std::int64_t n,
                             std::int64_t k, std::complex<R> alpha, const std::complex<R>* a,
                             std::int64_t lda, const std::complex<R>* b, std::int64_t ldb,
                             std::complex<R> beta, std::complex<R>* c, std::int64_t ldc);

// `batch` products at element strides (0 shares an operand, expanded once),
// none of whose C may meet another's: one batched real GEMM over all
// entries, in runs of kRunBytes (complex_gemm.cc).
template <class R>
Status complex_gemm_colmajor_strided(char transa, char transb, std::int64_t m, std::int64_t n,
                                     std::int64_t k, std::complex<R> alpha,
                                     const std::complex<R>* a, std::int64_t lda,
                                     std::int64_t stride_a, const std::complex<R>* b,
                                     std::int64_t ldb, std::int64_t stride_b,
                                     std::complex<R> beta, std::complex<R>* c, std::int64_t ldc,
                                     std::int64_t stride_c, std::int64_t batch);

}  // namespace tessera::blas
