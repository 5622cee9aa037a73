// TRSM and TRMM, column-major as the Fortran BLAS defines them, over the
// level-3 GEMM, for every type:
//   TRSM side 'L': B := alpha op(A)^-1 B   (A m x m triangular)
//        side 'R': B := alpha B op(A)^-1   (A n x n)
//   TRMM side 'L': B := alpha op(A) B,  side 'R': B := alpha B op(A)
// op(A) is A, A^T or A^H (trans 'N', 'T', 'C').
// Arguments already checked (blas_args.hpp), options upper case. Only A's
// `uplo` triangle is read, and not its diagonal when diag is 'U'. alpha ==
// 0 sets B to zero without reading A or B. A zero on A's diagonal gives
// Inf/NaN as the reference does (no singularity check in the BLAS).
#pragma once

#include <cstdint>

namespace tessera::blas {

template <class T>
void trsm_colmajor(const char* routine, char side, char uplo, char trans, char diag,
                   std::int64_t m, std::int64_t n, T alpha, const T* a, std::int64_t lda, T* b,
                   std::int64_t ldb);

template <class T>
void trmm_colmajor(const char* routine, char side, char uplo, char trans, char diag,
                   std::int64_t m, std::int64_t n, T alpha, const T* a, std::int64_t lda, T* b,
                   std::int64_t ldb);

}  // namespace tessera::blas
