// cblas_?symm/hemm, cblas_?syrk/herk, cblas_?syr2k/her2k, cblas_?trsm and
// cblas_?trmm. Column-major calls run the Fortran routine's code directly;
// row-major ones run it on the transposed view, as the reference CBLAS
// does (side, triangle and transpose flipped, m and n swapped), with
// RowMajorStrg raised so that a cblas_xerbla maps the parameter numbers
// back (symm: m 4 <-> n 5; trsm, trmm: m 6 <-> n 7).
//
// The transposed view of a Hermitian matrix is its conjugate, itself
// Hermitian, so hemm needs only the flips; herk/her2k's op flips between
// N and C, and her2k's alpha is conjugated (C^T = conj(alpha) B^T...).
#include <complex>
#include <cstddef>

#include "blas/src/cblas_args.hpp"
#include "blas/src/level3.hpp"
#include "blas/src/scalar.hpp"
#include "blas/src/trsm.hpp"

// Named, not anonymous: the unity builds merge every libtessera_blas
// source into one translation unit.
namespace tessera::blas::cblas3 {

// A rank-k routine's transpose on the row-major (transposed) view: N and
// the routine's other transpose swap; the one it does not take stays, to
// be rejected by the Fortran checks as in column-major.
template <class T>
char row_major_rank_k_trans(char t, bool hermitian) {
  if constexpr (!kIsComplex<T>) {
    (void)hermitian;
    return flip_trans(t);
  } else {
    const char other = hermitian ? 'C' : 'T';
    return t == 'N' ? other : (t == other ? 'N' : t);
  }
}

template <class T>
void symm(const char* routine, bool hermitian, int order, int side_e, int uplo_e, int m, int n,
          T alpha, const T* a, int lda, const T* b, int ldb, T beta, T* c, int ldc) {
  RowMajorFlag flag(order == CblasRowMajor);
  if (!valid_layout(order, routine)) return;
  const char side = side_char(side_e), uplo = uplo_char(uplo_e);
  if (side == 0) return bad_enum(2, routine, "Side", side_e);
  if (uplo == 0) return bad_enum(3, routine, "Uplo", uplo_e);
  const SidedShape s = column_major_shape(order, side, uplo, m, n);
  const int info = symm_argument_error(s.side, s.uplo, s.m, s.n, lda, ldb, ldc);
  if (fortran_check_failed(info, routine)) return;
  symm_colmajor(routine, hermitian, s.side, s.uplo, s.m, s.n, alpha, a, lda, b, ldb, beta, c,
                ldc);
}

// syrk/herk (b == nullptr) and syr2k/her2k.
template <class T>
void rank_k(const char* routine, bool hermitian, int order, int uplo_e, int trans_e, int n, int k,
            T alpha, const T* a, int lda, const T* b, int ldb, T beta, T* c, int ldc) {
  RowMajorFlag flag(order == CblasRowMajor);
  if (!valid_layout(order, routine)) return;
  char uplo = uplo_char(uplo_e), trans = trans_char(trans_e);
  if (uplo == 0) return bad_enum(2, routine, "Uplo", uplo_e);
  if (trans == 0) return bad_enum(3, routine, "Trans", trans_e);
  if (order == CblasRowMajor) {
    uplo = flip_uplo(uplo);
    trans = row_major_rank_k_trans<T>(trans, hermitian);
    if (b != nullptr) alpha = conj_if(alpha, hermitian);
  }
  const char* transes = rank_k_transes<T>(hermitian);
  const int info = b == nullptr ? syrk_argument_error(uplo, trans, n, k, lda, ldc, transes)
                                : syr2k_argument_error(uplo, trans, n, k, lda, ldb, ldc, transes);
  if (fortran_check_failed(info, routine)) return;
  if (b == nullptr) {
    syrk_colmajor(routine, hermitian, uplo, trans, n, k, alpha, a, lda, beta, c, ldc);
  } else {
    syr2k_colmajor(routine, hermitian, uplo, trans, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
  }
}

// trsm (multiply false) and trmm.
template <class T>
void trsm(const char* routine, bool multiply, int order, int side_e, int uplo_e, int trans_e,
          int diag_e, int m, int n, T alpha, const T* a, int lda, T* b, int ldb) {
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
  const auto run = multiply ? trmm_colmajor<T> : trsm_colmajor<T>;
  run(routine, s.side, s.uplo, trans, diag, s.m, s.n, alpha, a, lda, b, ldb);
}

}  // namespace tessera::blas::cblas3

using tessera::blas::c32;
using tessera::blas::c64;
using tessera::blas::cblas_array;
using tessera::blas::cblas_scalar;

extern "C" {
TESSERA_BLAS_API void cblas_ssymm(int order, int side, int uplo, int m, int n, float alpha,
                                  const float* a, int lda, const float* b, int ldb, float beta,
                                  float* c, int ldc) {
  tessera::blas::cblas3::symm("cblas_ssymm", false, order, side, uplo, m, n, alpha, a, lda, b, ldb,
                              beta, c, ldc);
}

TESSERA_BLAS_API void cblas_dsymm(int order, int side, int uplo, int m, int n, double alpha,
                                  const double* a, int lda, const double* b, int ldb, double beta,
                                  double* c, int ldc) {
  tessera::blas::cblas3::symm("cblas_dsymm", false, order, side, uplo, m, n, alpha, a, lda, b, ldb,
                              beta, c, ldc);
}

TESSERA_BLAS_API void cblas_csymm(int order, int side, int uplo, int m, int n, const void* alpha,
                                  const void* a, int lda, const void* b, int ldb, const void* beta,
                                  void* c, int ldc) {
  tessera::blas::cblas3::symm("cblas_csymm", false, order, side, uplo, m, n,
                              cblas_scalar<c32>(alpha), cblas_array<c32>(a), lda,
                              cblas_array<c32>(b), ldb, cblas_scalar<c32>(beta),
                              cblas_array<c32>(c), ldc);
}

TESSERA_BLAS_API void cblas_chemm(int order, int side, int uplo, int m, int n, const void* alpha,
                                  const void* a, int lda, const void* b, int ldb, const void* beta,
                                  void* c, int ldc) {
  tessera::blas::cblas3::symm("cblas_chemm", true, order, side, uplo, m, n,
                              cblas_scalar<c32>(alpha), cblas_array<c32>(a), lda,
                              cblas_array<c32>(b), ldb, cblas_scalar<c32>(beta),
                              cblas_array<c32>(c), ldc);
}

TESSERA_BLAS_API void cblas_zsymm(int order, int side, int uplo, int m, int n, const void* alpha,
                                  const void* a, int lda, const void* b, int ldb, const void* beta,
                                  void* c, int ldc) {
  tessera::blas::cblas3::symm("cblas_zsymm", false, order, side, uplo, m, n,
                              cblas_scalar<c64>(alpha), cblas_array<c64>(a), lda,
                              cblas_array<c64>(b), ldb, cblas_scalar<c64>(beta),
                              cblas_array<c64>(c), ldc);
}

TESSERA_BLAS_API void cblas_zhemm(int order, int side, int uplo, int m, int n, const void* alpha,
                                  const void* a, int lda, const void* b, int ldb, const void* beta,
                                  void* c, int ldc) {
  tessera::blas::cblas3::symm("cblas_zhemm", true, order, side, uplo, m, n,
                              cblas_scalar<c64>(alpha), cblas_array<c64>(a), lda,
                              cblas_array<c64>(b), ldb, cblas_scalar<c64>(beta),
                              cblas_array<c64>(c), ldc);
}

TESSERA_BLAS_API void cblas_ssyrk(int order, int uplo, int trans, int n, int k, float alpha,
                                  const float* a, int lda, float beta, float* c, int ldc) {
  tessera::blas::cblas3::rank_k("cblas_ssyrk", false, order, uplo, trans, n, k, alpha, a, lda,
                                static_cast<const float*>(nullptr), 0, beta, c, ldc);
}

TESSERA_BLAS_API void cblas_dsyrk(int order, int uplo, int trans, int n, int k, double alpha,
                                  const double* a, int lda, double beta, double* c, int ldc) {
  tessera::blas::cblas3::rank_k("cblas_dsyrk", false, order, uplo, trans, n, k, alpha, a, lda,
                                static_cast<const double*>(nullptr), 0, beta, c, ldc);
}

TESSERA_BLAS_API void cblas_csyrk(int order, int uplo, int trans, int n, int k, const void* alpha,
                                  const void* a, int lda, const void* beta, void* c, int ldc) {
  tessera::blas::cblas3::rank_k("cblas_csyrk", false, order, uplo, trans, n, k,
                                cblas_scalar<c32>(alpha), cblas_array<c32>(a), lda,
                                static_cast<const c32*>(nullptr), 0, cblas_scalar<c32>(beta),
                                cblas_array<c32>(c), ldc);
}

TESSERA_BLAS_API void cblas_cherk(int order, int uplo, int trans, int n, int k, float alpha,
                                  const void* a, int lda, float beta, void* c, int ldc) {
  tessera::blas::cblas3::rank_k("cblas_cherk", true, order, uplo, trans, n, k, c32(alpha),
                                cblas_array<c32>(a), lda, static_cast<const c32*>(nullptr), 0,
                                c32(beta), cblas_array<c32>(c), ldc);
}

TESSERA_BLAS_API void cblas_zsyrk(int order, int uplo, int trans, int n, int k, const void* alpha,
                                  const void* a, int lda, const void* beta, void* c, int ldc) {
  tessera::blas::cblas3::rank_k("cblas_zsyrk", false, order, uplo, trans, n, k,
                                cblas_scalar<c64>(alpha), cblas_array<c64>(a), lda,
                                static_cast<const c64*>(nullptr), 0, cblas_scalar<c64>(beta),
                                cblas_array<c64>(c), ldc);
}

TESSERA_BLAS_API void cblas_zherk(int order, int uplo, int trans, int n, int k, double alpha,
                                  const void* a, int lda, double beta, void* c, int ldc) {
  tessera::blas::cblas3::rank_k("cblas_zherk", true, order, uplo, trans, n, k, c64(alpha),
                                cblas_array<c64>(a), lda, static_cast<const c64*>(nullptr), 0,
                                c64(beta), cblas_array<c64>(c), ldc);
}

TESSERA_BLAS_API void cblas_ssyr2k(int order, int uplo, int trans, int n, int k, float alpha,
                                   const float* a, int lda, const float* b, int ldb, float beta,
                                   float* c, int ldc) {
  tessera::blas::cblas3::rank_k("cblas_ssyr2k", false, order, uplo, trans, n, k, alpha, a, lda, b,
                                ldb, beta, c, ldc);
}

TESSERA_BLAS_API void cblas_dsyr2k(int order, int uplo, int trans, int n, int k, double alpha,
                                   const double* a, int lda, const double* b, int ldb, double beta,
                                   double* c, int ldc) {
  tessera::blas::cblas3::rank_k("cblas_dsyr2k", false, order, uplo, trans, n, k, alpha, a, lda, b,
                                ldb, beta, c, ldc);
}

TESSERA_BLAS_API void cblas_csyr2k(int order, int uplo, int trans, int n, int k, const void* alpha,
                                   const void* a, int lda, const void* b, int ldb, const void* beta,
                                   void* c, int ldc) {
  tessera::blas::cblas3::rank_k("cblas_csyr2k", false, order, uplo, trans, n, k,
                                cblas_scalar<c32>(alpha), cblas_array<c32>(a), lda,
                                cblas_array<c32>(b), ldb, cblas_scalar<c32>(beta),
                                cblas_array<c32>(c), ldc);
}

TESSERA_BLAS_API void cblas_cher2k(int order, int uplo, int trans, int n, int k, const void* alpha,
                                   const void* a, int lda, const void* b, int ldb, float beta,
                                   void* c, int ldc) {
  tessera::blas::cblas3::rank_k("cblas_cher2k", true, order, uplo, trans, n, k,
                                cblas_scalar<c32>(alpha), cblas_array<c32>(a), lda,
                                cblas_array<c32>(b), ldb, c32(beta), cblas_array<c32>(c), ldc);
}

TESSERA_BLAS_API void cblas_zsyr2k(int order, int uplo, int trans, int n, int k, const void* alpha,
                                   const void* a, int lda, const void* b, int ldb, const void* beta,
                                   void* c, int ldc) {
  tessera::blas::cblas3::rank_k("cblas_zsyr2k", false, order, uplo, trans, n, k,
                                cblas_scalar<c64>(alpha), cblas_array<c64>(a), lda,
                                cblas_array<c64>(b), ldb, cblas_scalar<c64>(beta),
                                cblas_array<c64>(c), ldc);
}

TESSERA_BLAS_API void cblas_zher2k(int order, int uplo, int trans, int n, int k, const void* alpha,
                                   const void* a, int lda, const void* b, int ldb, double beta,
                                   void* c, int ldc) {
  tessera::blas::cblas3::rank_k("cblas_zher2k", true, order, uplo, trans, n, k,
                                cblas_scalar<c64>(alpha), cblas_array<c64>(a), lda,
                                cblas_array<c64>(b), ldb, c64(beta), cblas_array<c64>(c), ldc);
}

TESSERA_BLAS_API void cblas_strsm(int order, int side, int uplo, int trans, int diag, int m, int n,
                                  float alpha, const float* a, int lda, float* b, int ldb) {
  tessera::blas::cblas3::trsm("cblas_strsm", false, order, side, uplo, trans, diag, m, n, alpha, a,
                              lda, b, ldb);
}

TESSERA_BLAS_API void cblas_dtrsm(int order, int side, int uplo, int trans, int diag, int m, int n,
                                  double alpha, const double* a, int lda, double* b, int ldb) {
  tessera::blas::cblas3::trsm("cblas_dtrsm", false, order, side, uplo, trans, diag, m, n, alpha, a,
                              lda, b, ldb);
}

TESSERA_BLAS_API void cblas_ctrsm(int order, int side, int uplo, int trans, int diag, int m, int n,
                                  const void* alpha, const void* a, int lda, void* b, int ldb) {
  tessera::blas::cblas3::trsm("cblas_ctrsm", false, order, side, uplo, trans, diag, m, n,
                              cblas_scalar<c32>(alpha), cblas_array<c32>(a), lda,
                              cblas_array<c32>(b), ldb);
}

TESSERA_BLAS_API void cblas_ztrsm(int order, int side, int uplo, int trans, int diag, int m, int n,
                                  const void* alpha, const void* a, int lda, void* b, int ldb) {
  tessera::blas::cblas3::trsm("cblas_ztrsm", false, order, side, uplo, trans, diag, m, n,
                              cblas_scalar<c64>(alpha), cblas_array<c64>(a), lda,
                              cblas_array<c64>(b), ldb);
}

TESSERA_BLAS_API void cblas_strmm(int order, int side, int uplo, int trans, int diag, int m, int n,
                                  float alpha, const float* a, int lda, float* b, int ldb) {
  tessera::blas::cblas3::trsm("cblas_strmm", true, order, side, uplo, trans, diag, m, n, alpha, a,
                              lda, b, ldb);
}

TESSERA_BLAS_API void cblas_dtrmm(int order, int side, int uplo, int trans, int diag, int m, int n,
                                  double alpha, const double* a, int lda, double* b, int ldb) {
  tessera::blas::cblas3::trsm("cblas_dtrmm", true, order, side, uplo, trans, diag, m, n, alpha, a,
                              lda, b, ldb);
}

TESSERA_BLAS_API void cblas_ctrmm(int order, int side, int uplo, int trans, int diag, int m, int n,
                                  const void* alpha, const void* a, int lda, void* b, int ldb) {
  tessera::blas::cblas3::trsm("cblas_ctrmm", true, order, side, uplo, trans, diag, m, n,
                              cblas_scalar<c32>(alpha), cblas_array<c32>(a), lda,
                              cblas_array<c32>(b), ldb);
}

TESSERA_BLAS_API void cblas_ztrmm(int order, int side, int uplo, int trans, int diag, int m, int n,
                                  const void* alpha, const void* a, int lda, void* b, int ldb) {
  tessera::blas::cblas3::trsm("cblas_ztrmm", true, order, side, uplo, trans, diag, m, n,
                              cblas_scalar<c64>(alpha), cblas_array<c64>(a), lda,
                              cblas_array<c64>(b), ldb);
}

}  // extern "C"
