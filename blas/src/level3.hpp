// SYMM and SYRK, column-major as the Fortran BLAS defines them, over
// tessera's GEMM (its kernels and threads). Arguments are already checked
// (blas_args.hpp) and the option characters upper case; the CBLAS
// row-major forms call these on the transposed view.
//
//   symm: C = alpha A B + beta C (side 'L', A m x m symmetric) or
//         C = alpha B A + beta C (side 'R', A n x n); only A's `uplo`
//         triangle is read.
//   syrk: C = alpha A A^T + beta C (trans 'N', A n x k) or
//         C = alpha A^T A + beta C (trans 'T'/'C', A k x n); only C's `uplo`
//         triangle is read and written.
//
// BLAS special cases kept: alpha == 0 reads neither A nor B; beta == 0
// does not read C (a NaN there is overwritten); m, n == 0, or alpha == 0
// with beta == 1, returns at once.
#pragma once

#include <cstdint>

namespace tessera::blas {

template <class T>
void symm_colmajor(const char* routine, char side, char uplo, std::int64_t m, std::int64_t n,
                   T alpha, const T* a, std::int64_t lda, const T* b, std::int64_t ldb, T beta,
                   T* c, std::int64_t ldc);

template <class T>
void syrk_colmajor(const char* routine, char uplo, char trans, std::int64_t n, std::int64_t k,
                   T alpha, const T* a, std::int64_t lda, T beta, T* c, std::int64_t ldc);

}  // namespace tessera::blas
