// SYMM/HEMM, SYRK/HERK and SYR2K/HER2K, column-major as the Fortran BLAS
// defines them, over the level-3 GEMM (level3_gemm.hpp: tessera's real
// GEMM, the 1m complex GEMM). Arguments are already checked (blas_args.hpp)
// and the option characters upper case; the CBLAS row-major forms call
// these on the transposed view. `hermitian` selects the he form (A or C
// Hermitian: the mirror image of an element is its conjugate, a diagonal
// is real; alpha and beta of herk and beta of her2k are real).
//
//   symm: C = alpha A B + beta C (side 'L', A m x m symmetric) or
//         C = alpha B A + beta C (side 'R', A n x n); only A's `uplo`
//         triangle is read.
//   syrk: C = alpha op(A) op(A)^T + beta C (^H for herk), op(A) = A (trans
//         'N', n x k) or A^T / A^H (k x n); only C's `uplo` triangle is
//         read and written.
//   syr2k: C = alpha op(A) op(B)^T + alpha op(B) op(A)^T + beta C, or
//         alpha op(A) op(B)^H + conj(alpha) op(B) op(A)^H + beta C (her2k).
//
// BLAS special cases kept: alpha == 0 reads neither A nor B; beta == 0
// does not read C (a NaN there is overwritten); m, n == 0, or alpha == 0
// with beta == 1, returns at once.
#pragma once

#include <cstdint>

namespace tessera::blas {

template <class T>
void symm_colmajor(const char* routine, bool hermitian, char side, char uplo, std::int64_t m,
                   std::int64_t n, T alpha, const T* a, std::int64_t lda, const T* b,
                   std::int64_t ldb, T beta, T* c, std::int64_t ldc);

template <class T>
void syrk_colmajor(const char* routine, bool hermitian, char uplo, char trans, std::int64_t n,
                   std::int64_t k, T alpha, const T* a, std::int64_t lda, T beta, T* c,
                   std::int64_t ldc);

template <class T>
void syr2k_colmajor(const char* routine, bool hermitian, char uplo, char trans, std::int64_t n,
                    std::int64_t k, T alpha, const T* a, std::int64_t lda, const T* b,
                    std::int64_t ldb, T beta, T* c, std::int64_t ldc);

}  // namespace tessera::blas
