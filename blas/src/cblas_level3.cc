// cblas_?symm, cblas_?syrk and cblas_?trsm. Column-major calls run the
// Fortran routine's code directly; row-major ones run it on the transposed
// view, as the reference CBLAS does (side, triangle and transpose flipped,
// m and n swapped), with RowMajorStrg raised so that a cblas_xerbla maps
// the parameter numbers back (symm: m 4 <-> n 5; trsm: m 6 <-> n 7).
#include <cstddef>

#include "blas/src/cblas_args.hpp"
#include "blas/src/level3.hpp"
#include "blas/src/trsm.hpp"

namespace tessera::blas {
namespace {


template <class T>
void symm(const char* routine, int order, int side_e, int uplo_e, int m, int n, T alpha, const T* a,
          int lda, const T* b, int ldb, T beta, T* c, int ldc) {
  RowMajorFlag flag(order == CblasRowMajor);
  if (!valid_layout(order, routine)) return;
  const char side = side_char(side_e), uplo = uplo_char(uplo_e);
  if (side == 0) return bad_enum(2, routine, "Side", side_e);
  if (uplo == 0) return bad_enum(3, routine, "Uplo", uplo_e);
  const SidedShape s = column_major_shape(order, side, uplo, m, n);
  const int info = symm_argument_error(s.side, s.uplo, s.m, s.n, lda, ldb, ldc);
  if (fortran_check_failed(info, routine)) return;
  symm_colmajor(routine, s.side, s.uplo, s.m, s.n, alpha, a, lda, b, ldb, beta, c, ldc);
}

template <class T>
void syrk(const char* routine, int order, int uplo_e, int trans_e, int n, int k, T alpha,
          const T* a, int lda, T beta, T* c, int ldc) {
  RowMajorFlag flag(order == CblasRowMajor);
  if (!valid_layout(order, routine)) return;
  char uplo = uplo_char(uplo_e), trans = trans_char(trans_e);
  if (uplo == 0) return bad_enum(2, routine, "Uplo", uplo_e);
  if (trans == 0) return bad_enum(3, routine, "Trans", trans_e);
  if (order == CblasRowMajor) {
    uplo = flip_uplo(uplo);
    trans = flip_trans(trans);
  }
  const int info = syrk_argument_error(uplo, trans, n, k, lda, ldc);
  if (fortran_check_failed(info, routine)) return;
  syrk_colmajor(routine, uplo, trans, n, k, alpha, a, lda, beta, c, ldc);
}

template <class T>
void trsm(const char* routine, int order, int side_e, int uplo_e, int trans_e, int diag_e, int m,
          int n, T alpha, const T* a, int lda, T* b, int ldb) {
  RowMajorFlag flag(order == CblasRowMajor);
  if (!valid_layout(order, routine)) return;
  const char side = side_char(side_e), uplo = uplo_char(uplo_e);
  const char trans = trans_char(trans_e), diag = diag_char(diag_e);
  if (side == 0) return bad_enum(2, routine, "Side", side_e);
  if (uplo == 0) return bad_enum(3, routine, "Uplo", uplo_e);
  if (trans == 0) return bad_enum(4, routine, "Trans", trans_e);
  if (diag == 0) return bad_enum(5, routine, "Diag", diag_e);
  // Row-major: op(A) X = B is X^T op(A)^T = B^T on the transposed view.
  const SidedShape s = column_major_shape(order, side, uplo, m, n);
  const int info = trsm_argument_error(s.side, s.uplo, trans, diag, s.m, s.n, lda, ldb);
  if (fortran_check_failed(info, routine)) return;
  trsm_colmajor(routine, s.side, s.uplo, trans, diag, s.m, s.n, alpha, a, lda, b, ldb);
}


}  // namespace
}  // namespace tessera::blas

extern "C" {

TESSERA_BLAS_API void cblas_ssymm(int order, int side, int uplo, int m, int n, float alpha,
                                  const float* a, int lda, const float* b, int ldb, float beta,
                                  float* c, int ldc) {
  tessera::blas::symm("cblas_ssymm", order, side, uplo, m, n, alpha, a, lda, b, ldb, beta, c, ldc);
}
TESSERA_BLAS_API void cblas_dsymm(int order, int side, int uplo, int m, int n, double alpha,
                                  const double* a, int lda, const double* b, int ldb, double beta,
                                  double* c, int ldc) {
  tessera::blas::symm("cblas_dsymm", order, side, uplo, m, n, alpha, a, lda, b, ldb, beta, c, ldc);
}

TESSERA_BLAS_API void cblas_ssyrk(int order, int uplo, int trans, int n, int k, float alpha,
                                  const float* a, int lda, float beta, float* c, int ldc) {
  tessera::blas::syrk("cblas_ssyrk", order, uplo, trans, n, k, alpha, a, lda, beta, c, ldc);
}
TESSERA_BLAS_API void cblas_dsyrk(int order, int uplo, int trans, int n, int k, double alpha,
                                  const double* a, int lda, double beta, double* c, int ldc) {
  tessera::blas::syrk("cblas_dsyrk", order, uplo, trans, n, k, alpha, a, lda, beta, c, ldc);
}

TESSERA_BLAS_API void cblas_strsm(int order, int side, int uplo, int trans, int diag, int m, int n,
                                  float alpha, const float* a, int lda, float* b, int ldb) {
  tessera::blas::trsm("cblas_strsm", order, side, uplo, trans, diag, m, n, alpha, a, lda, b, ldb);
}
TESSERA_BLAS_API void cblas_dtrsm(int order, int side, int uplo, int trans, int diag, int m, int n,
                                  double alpha, const double* a, int lda, double* b, int ldb) {
  tessera::blas::trsm("cblas_dtrsm", order, side, uplo, trans, diag, m, n, alpha, a, lda, b, ldb);
}
}  // extern "C"
