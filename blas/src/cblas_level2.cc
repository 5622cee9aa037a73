// The CBLAS level-2 functions beyond cblas_sgemv/dgemv (cblas.cc), in every
// type, row- and column-major, over the level-2 bodies (level2.hpp).
//
// A row-major matrix is its transpose in column-major. The reference CBLAS
// therefore calls the Fortran routine with the triangle flipped, m/n and
// kl/ku swapped and the transpose flipped, and for a conjugate transpose
// or a Hermitian matrix it conjugates copies of the vectors. tessera runs
// the same column-major problem with the bodies' `conj` flag instead of
// copies: for a Hermitian A stored row-major, the column-major matrix read
// is conj(A).
//
// Errors as the reference: the layout is parameter 1, the enums next, then
// the Fortran routine's checks on the arguments the reference passes it,
// numbered one higher, with RowMajorStrg raised during a row-major call.
#include <complex>
#include <initializer_list>
#include <utility>

#include "blas/src/cblas_args.hpp"
#include "blas/src/level2.hpp"
#include "blas/src/level2_args.hpp"
#include "blas/src/level2_blocked.hpp"

// The helpers live in a named namespace: the unity builds put every
// libtessera_blas source in one translation unit, where anonymous
// namespaces merge.
namespace tessera::blas::cblas2 {

// Whether the call may go on: the layout and the enums (in parameter
// order, from number 2) are valid. Reports the first bad one.
struct Enum {
  char value;  // the option character, 0 when the enum is invalid
  int raw;
  const char* what;
};
bool valid_call(int order, const char* routine, std::initializer_list<Enum> enums) {
  if (!valid_layout(order, routine)) return false;
  int info = 2;
  for (const Enum& e : enums) {
    if (e.value == 0) {
      bad_enum(info, routine, e.what, e.raw);
      return false;
    }
    ++info;
  }
  return true;
}

template <class T>
void gbmv(const char* routine, int order, int trans_e, int m, int n, int kl, int ku, T alpha,
          const T* a, int lda, const T* x, int incx, T beta, T* y, int incy) {
  RowMajorFlag flag(order == CblasRowMajor);
  const char t = trans_char(trans_e);
  if (!valid_call(order, routine, {{t, trans_e, "TransA"}})) return;
  if (order == CblasRowMajor) {
    // A^T is n x m with ku sub- and kl super-diagonals; op flips.
    if (fortran_check_failed(gbmv_argument_error(flip_trans(t), n, m, ku, kl, lda, incx, incy),
                             routine)) {
      return;
    }
    band_mv(t == 'N', t == 'C', n, m, ku, kl, alpha, a, BandStorage{lda, kl}, x, incx, beta, y,
            incy);
  } else {
    if (fortran_check_failed(gbmv_argument_error(t, m, n, kl, ku, lda, incx, incy), routine)) {
      return;
    }
    band_mv(t != 'N', t == 'C', m, n, kl, ku, alpha, a, BandStorage{lda, ku}, x, incx, beta, y,
            incy);
  }
}

// cgemv/zgemv: gbmv with every diagonal in the band.
template <class T>
void gemv(const char* routine, int order, int trans_e, int m, int n, T alpha, const T* a, int lda,
          const T* x, int incx, T beta, T* y, int incy) {
  RowMajorFlag flag(order == CblasRowMajor);
  const char t = trans_char(trans_e);
  if (!valid_call(order, routine, {{t, trans_e, "TransA"}})) return;
  const bool row = order == CblasRowMajor;
  const int info = row ? gemv_argument_error(flip_trans(t), n, m, lda, incx, incy)
                       : gemv_argument_error(t, m, n, lda, incx, incy);
  if (fortran_check_failed(info, routine)) return;
  if (row) {
    band_mv(t == 'N', t == 'C', n, m, n - 1, m - 1, alpha, a, FullStorage{lda}, x, incx, beta, y,
            incy);
  } else {
    band_mv(t != 'N', t == 'C', m, n, m - 1, n - 1, alpha, a, FullStorage{lda}, x, incx, beta, y,
            incy);
  }
}

// The triangle the column-major routine reads, and whether it reads the
// conjugate (a row-major Hermitian matrix).
struct Triangle {
  char uplo;
  bool conj;
};
Triangle column_major_triangle(int order, char uplo, bool hermitian) {
  if (order == CblasRowMajor) return {flip_uplo(uplo), hermitian};
  return {uplo, false};
}

template <class T>
void symv(const char* routine, bool hermitian, int order, int uplo_e, int n, T alpha, const T* a,
          int lda, const T* x, int incx, T beta, T* y, int incy) {
  RowMajorFlag flag(order == CblasRowMajor);
  const char u = uplo_char(uplo_e);
  if (!valid_call(order, routine, {{u, uplo_e, "Uplo"}})) return;
  const Triangle tri = column_major_triangle(order, u, hermitian);
  if (fortran_check_failed(symv_argument_error(tri.uplo, n, lda, incx, incy), routine)) return;
  sym_mv_full(routine, tri.uplo == 'U', hermitian, tri.conj, n, alpha, a, lda, x, incx, beta, y,
              incy);
}

template <class T>
void sbmv(const char* routine, bool hermitian, int order, int uplo_e, int n, int k, T alpha,
          const T* a, int lda, const T* x, int incx, T beta, T* y, int incy) {
  RowMajorFlag flag(order == CblasRowMajor);
  const char u = uplo_char(uplo_e);
  if (!valid_call(order, routine, {{u, uplo_e, "Uplo"}})) return;
  const Triangle tri = column_major_triangle(order, u, hermitian);
  if (fortran_check_failed(sbmv_argument_error(tri.uplo, n, k, lda, incx, incy), routine)) return;
  const bool upper = tri.uplo == 'U';
  sym_mv(upper, hermitian, tri.conj, n, k, alpha, a, BandStorage{lda, upper ? k : 0}, x, incx,
         beta, y, incy);
}

template <class T>
void spmv(const char* routine, bool hermitian, int order, int uplo_e, int n, T alpha,
          const T* ap, const T* x, int incx, T beta, T* y, int incy) {
  RowMajorFlag flag(order == CblasRowMajor);
  const char u = uplo_char(uplo_e);
  if (!valid_call(order, routine, {{u, uplo_e, "Uplo"}})) return;
  const Triangle tri = column_major_triangle(order, u, hermitian);
  if (fortran_check_failed(spmv_argument_error(tri.uplo, n, incx, incy), routine)) return;
  const bool upper = tri.uplo == 'U';
  with_packed_storage(upper, n, [&](auto storage) {
    sym_mv(upper, hermitian, tri.conj, n, n - 1, alpha, ap, storage, x, incx, beta, y, incy);
  });
}

// A triangular call's column-major form: row-major flips the triangle and
// the transpose, and a conjugate transpose becomes a conjugated A.
struct TriangularOp {
  char uplo, trans;  // as the Fortran routine is called
  bool upper, transpose, conj;
};
TriangularOp column_major_op(int order, char uplo, char trans) {
  if (order == CblasRowMajor) {
    const char u = flip_uplo(uplo);
    return {u, flip_trans(trans), u == 'U', trans == 'N', trans == 'C'};
  }
  return {uplo, trans, uplo == 'U', trans != 'N', trans == 'C'};
}

template <class T, class Storage>
void run_triangular(const char* routine, bool solve, const TriangularOp& op, char diag, int n,
                    int k, const T* a, Storage storage, T* x, int incx) {
  triangular_body(routine, solve, op.upper, op.transpose, op.conj, diag == 'U', n, k, a, storage,
                  x, incx);
}

template <class T>
void trmv(const char* routine, bool solve, int order, int uplo_e, int trans_e, int diag_e, int n,
          const T* a, int lda, T* x, int incx) {
  RowMajorFlag flag(order == CblasRowMajor);
  const char u = uplo_char(uplo_e), t = trans_char(trans_e), d = diag_char(diag_e);
  if (!valid_call(order, routine,
                  {{u, uplo_e, "Uplo"}, {t, trans_e, "TransA"}, {d, diag_e, "Diag"}})) {
    return;
  }
  const TriangularOp op = column_major_op(order, u, t);
  if (fortran_check_failed(trmv_argument_error(op.uplo, op.trans, d, n, lda, incx), routine)) {
    return;
  }
  run_triangular(routine, solve, op, d, n, n - 1, a, FullStorage{lda}, x, incx);
}

template <class T>
void tbmv(const char* routine, bool solve, int order, int uplo_e, int trans_e, int diag_e, int n,
          int k, const T* a, int lda, T* x, int incx) {
  RowMajorFlag flag(order == CblasRowMajor);
  const char u = uplo_char(uplo_e), t = trans_char(trans_e), d = diag_char(diag_e);
  if (!valid_call(order, routine,
                  {{u, uplo_e, "Uplo"}, {t, trans_e, "TransA"}, {d, diag_e, "Diag"}})) {
    return;
  }
  const TriangularOp op = column_major_op(order, u, t);
  if (fortran_check_failed(tbmv_argument_error(op.uplo, op.trans, d, n, k, lda, incx),
                           routine)) {
    return;
  }
  run_triangular(routine, solve, op, d, n, k, a, BandStorage{lda, op.upper ? k : 0}, x, incx);
}

template <class T>
void tpmv(const char* routine, bool solve, int order, int uplo_e, int trans_e, int diag_e, int n,
          const T* ap, T* x, int incx) {
  RowMajorFlag flag(order == CblasRowMajor);
  const char u = uplo_char(uplo_e), t = trans_char(trans_e), d = diag_char(diag_e);
  if (!valid_call(order, routine,
                  {{u, uplo_e, "Uplo"}, {t, trans_e, "TransA"}, {d, diag_e, "Diag"}})) {
    return;
  }
  const TriangularOp op = column_major_op(order, u, t);
  if (fortran_check_failed(tpmv_argument_error(op.uplo, op.trans, d, n, incx), routine)) return;
  with_packed_storage(op.upper, n, [&](auto storage) {
    run_triangular(routine, solve, op, d, n, n - 1, ap, storage, x, incx);
  });
}

// ger, geru (conj false), gerc (conj true): row-major is A^T += alpha y x^T
// (y conjugated for gerc), m and n swapped.
template <class T>
void ger(const char* routine, bool conj, int order, int m, int n, T alpha, const T* x, int incx,
         const T* y, int incy, T* a, int lda) {
  RowMajorFlag flag(order == CblasRowMajor);
  if (!valid_call(order, routine, {})) return;
  if (order == CblasRowMajor) {
    if (fortran_check_failed(ger_argument_error(n, m, incy, incx, lda), routine)) return;
    ger_body(routine, n, m, alpha, y, incy, conj, x, incx, false, a, lda);
  } else {
    if (fortran_check_failed(ger_argument_error(m, n, incx, incy, lda), routine)) return;
    ger_body(routine, m, n, alpha, x, incx, false, y, incy, conj, a, lda);
  }
}

template <class T>
void syr(const char* routine, bool hermitian, int order, int uplo_e, int n, T alpha, const T* x,
         int incx, T* a, int lda) {
  RowMajorFlag flag(order == CblasRowMajor);
  const char u = uplo_char(uplo_e);
  if (!valid_call(order, routine, {{u, uplo_e, "Uplo"}})) return;
  const Triangle tri = column_major_triangle(order, u, hermitian);
  if (fortran_check_failed(syr_argument_error(tri.uplo, n, incx, lda), routine)) return;
  sym_r(tri.uplo == 'U', hermitian, tri.conj, n, alpha, x, incx, a, FullStorage{lda});
}

template <class T>
void spr(const char* routine, bool hermitian, int order, int uplo_e, int n, T alpha, const T* x,
         int incx, T* ap) {
  RowMajorFlag flag(order == CblasRowMajor);
  const char u = uplo_char(uplo_e);
  if (!valid_call(order, routine, {{u, uplo_e, "Uplo"}})) return;
  const Triangle tri = column_major_triangle(order, u, hermitian);
  if (fortran_check_failed(spr_argument_error(tri.uplo, n, incx), routine)) return;
  const bool upper = tri.uplo == 'U';
  with_packed_storage(upper, n, [&](auto storage) {
    sym_r(upper, hermitian, tri.conj, n, alpha, x, incx, ap, storage);
  });
}

// syr2/her2 and spr2/hpr2: row-major reads conj(A), which is updated by
// alpha conj(y) conj(x)^H + conj(alpha) conj(x) conj(y)^H: the same update
// with x and y swapped and conjugated.
struct Pair {
  bool swap, conj;
};
Pair column_major_pair(int order, bool hermitian) {
  return order == CblasRowMajor ? Pair{hermitian, hermitian} : Pair{false, false};
}

template <class T>
void syr2(const char* routine, bool hermitian, int order, int uplo_e, int n, T alpha, const T* x,
          int incx, const T* y, int incy, T* a, int lda) {
  RowMajorFlag flag(order == CblasRowMajor);
  const char u = uplo_char(uplo_e);
  if (!valid_call(order, routine, {{u, uplo_e, "Uplo"}})) return;
  const Triangle tri = column_major_triangle(order, u, hermitian);
  const Pair pair = column_major_pair(order, hermitian);
  if (pair.swap) {
    std::swap(x, y);
    std::swap(incx, incy);
  }
  if (fortran_check_failed(syr2_argument_error(tri.uplo, n, incx, incy, lda), routine)) return;
  sym_r2_full(routine, tri.uplo == 'U', hermitian, pair.conj, n, alpha, x, incx, y, incy, a, lda);
}

template <class T>
void spr2(const char* routine, bool hermitian, int order, int uplo_e, int n, T alpha, const T* x,
          int incx, const T* y, int incy, T* ap) {
  RowMajorFlag flag(order == CblasRowMajor);
  const char u = uplo_char(uplo_e);
  if (!valid_call(order, routine, {{u, uplo_e, "Uplo"}})) return;
  const Triangle tri = column_major_triangle(order, u, hermitian);
  const Pair pair = column_major_pair(order, hermitian);
  if (pair.swap) {
    std::swap(x, y);
    std::swap(incx, incy);
  }
  if (fortran_check_failed(spr2_argument_error(tri.uplo, n, incx, incy), routine)) return;
  const bool upper = tri.uplo == 'U';
  with_packed_storage(upper, n, [&](auto storage) {
    sym_r2(upper, hermitian, pair.conj, n, alpha, x, incx, y, incy, ap, storage);
  });
}

}  // namespace tessera::blas::cblas2

using tessera::blas::c32;
using tessera::blas::c64;
using tessera::blas::cblas_array;
using tessera::blas::cblas_scalar;

extern "C" {
TESSERA_BLAS_API void cblas_cgemv(int order, int trans, int m, int n, const void* alpha,
                                  const void* a, int lda, const void* x, int incx, const void* beta,
                                  void* y, int incy) {
  tessera::blas::cblas2::gemv("cblas_cgemv", order, trans, m, n, cblas_scalar<c32>(alpha),
                              cblas_array<c32>(a), lda, cblas_array<c32>(x), incx,
                              cblas_scalar<c32>(beta), cblas_array<c32>(y), incy);
}

TESSERA_BLAS_API void cblas_zgemv(int order, int trans, int m, int n, const void* alpha,
                                  const void* a, int lda, const void* x, int incx, const void* beta,
                                  void* y, int incy) {
  tessera::blas::cblas2::gemv("cblas_zgemv", order, trans, m, n, cblas_scalar<c64>(alpha),
                              cblas_array<c64>(a), lda, cblas_array<c64>(x), incx,
                              cblas_scalar<c64>(beta), cblas_array<c64>(y), incy);
}

TESSERA_BLAS_API void cblas_sgbmv(int order, int trans, int m, int n, int kl, int ku, float alpha,
                                  const float* a, int lda, const float* x, int incx, float beta,
                                  float* y, int incy) {
  tessera::blas::cblas2::gbmv("cblas_sgbmv", order, trans, m, n, kl, ku, alpha, a, lda, x, incx,
                              beta, y, incy);
}

TESSERA_BLAS_API void cblas_dgbmv(int order, int trans, int m, int n, int kl, int ku, double alpha,
                                  const double* a, int lda, const double* x, int incx, double beta,
                                  double* y, int incy) {
  tessera::blas::cblas2::gbmv("cblas_dgbmv", order, trans, m, n, kl, ku, alpha, a, lda, x, incx,
                              beta, y, incy);
}

TESSERA_BLAS_API void cblas_cgbmv(int order, int trans, int m, int n, int kl, int ku,
                                  const void* alpha, const void* a, int lda, const void* x,
                                  int incx, const void* beta, void* y, int incy) {
  tessera::blas::cblas2::gbmv("cblas_cgbmv", order, trans, m, n, kl, ku, cblas_scalar<c32>(alpha),
                              cblas_array<c32>(a), lda, cblas_array<c32>(x), incx,
                              cblas_scalar<c32>(beta), cblas_array<c32>(y), incy);
}

TESSERA_BLAS_API void cblas_zgbmv(int order, int trans, int m, int n, int kl, int ku,
                                  const void* alpha, const void* a, int lda, const void* x,
                                  int incx, const void* beta, void* y, int incy) {
  tessera::blas::cblas2::gbmv("cblas_zgbmv", order, trans, m, n, kl, ku, cblas_scalar<c64>(alpha),
                              cblas_array<c64>(a), lda, cblas_array<c64>(x), incx,
                              cblas_scalar<c64>(beta), cblas_array<c64>(y), incy);
}

TESSERA_BLAS_API void cblas_ssymv(int order, int uplo, int n, float alpha, const float* a, int lda,
                                  const float* x, int incx, float beta, float* y, int incy) {
  tessera::blas::cblas2::symv("cblas_ssymv", false, order, uplo, n, alpha, a, lda, x, incx, beta, y,
                              incy);
}

TESSERA_BLAS_API void cblas_ssbmv(int order, int uplo, int n, int k, float alpha, const float* a,
                                  int lda, const float* x, int incx, float beta, float* y,
                                  int incy) {
  tessera::blas::cblas2::sbmv("cblas_ssbmv", false, order, uplo, n, k, alpha, a, lda, x, incx, beta,
                              y, incy);
}

TESSERA_BLAS_API void cblas_sspmv(int order, int uplo, int n, float alpha, const float* ap,
                                  const float* x, int incx, float beta, float* y, int incy) {
  tessera::blas::cblas2::spmv("cblas_sspmv", false, order, uplo, n, alpha, ap, x, incx, beta, y,
                              incy);
}

TESSERA_BLAS_API void cblas_dsymv(int order, int uplo, int n, double alpha, const double* a,
                                  int lda, const double* x, int incx, double beta, double* y,
                                  int incy) {
  tessera::blas::cblas2::symv("cblas_dsymv", false, order, uplo, n, alpha, a, lda, x, incx, beta, y,
                              incy);
}

TESSERA_BLAS_API void cblas_dsbmv(int order, int uplo, int n, int k, double alpha, const double* a,
                                  int lda, const double* x, int incx, double beta, double* y,
                                  int incy) {
  tessera::blas::cblas2::sbmv("cblas_dsbmv", false, order, uplo, n, k, alpha, a, lda, x, incx, beta,
                              y, incy);
}

TESSERA_BLAS_API void cblas_dspmv(int order, int uplo, int n, double alpha, const double* ap,
                                  const double* x, int incx, double beta, double* y, int incy) {
  tessera::blas::cblas2::spmv("cblas_dspmv", false, order, uplo, n, alpha, ap, x, incx, beta, y,
                              incy);
}

TESSERA_BLAS_API void cblas_chemv(int order, int uplo, int n, const void* alpha, const void* a,
                                  int lda, const void* x, int incx, const void* beta, void* y,
                                  int incy) {
  tessera::blas::cblas2::symv("cblas_chemv", true, order, uplo, n, cblas_scalar<c32>(alpha),
                              cblas_array<c32>(a), lda, cblas_array<c32>(x), incx,
                              cblas_scalar<c32>(beta), cblas_array<c32>(y), incy);
}

TESSERA_BLAS_API void cblas_chbmv(int order, int uplo, int n, int k, const void* alpha,
                                  const void* a, int lda, const void* x, int incx, const void* beta,
                                  void* y, int incy) {
  tessera::blas::cblas2::sbmv("cblas_chbmv", true, order, uplo, n, k, cblas_scalar<c32>(alpha),
                              cblas_array<c32>(a), lda, cblas_array<c32>(x), incx,
                              cblas_scalar<c32>(beta), cblas_array<c32>(y), incy);
}

TESSERA_BLAS_API void cblas_chpmv(int order, int uplo, int n, const void* alpha, const void* ap,
                                  const void* x, int incx, const void* beta, void* y, int incy) {
  tessera::blas::cblas2::spmv("cblas_chpmv", true, order, uplo, n, cblas_scalar<c32>(alpha),
                              cblas_array<c32>(ap), cblas_array<c32>(x), incx,
                              cblas_scalar<c32>(beta), cblas_array<c32>(y), incy);
}

TESSERA_BLAS_API void cblas_zhemv(int order, int uplo, int n, const void* alpha, const void* a,
                                  int lda, const void* x, int incx, const void* beta, void* y,
                                  int incy) {
  tessera::blas::cblas2::symv("cblas_zhemv", true, order, uplo, n, cblas_scalar<c64>(alpha),
                              cblas_array<c64>(a), lda, cblas_array<c64>(x), incx,
                              cblas_scalar<c64>(beta), cblas_array<c64>(y), incy);
}

TESSERA_BLAS_API void cblas_zhbmv(int order, int uplo, int n, int k, const void* alpha,
                                  const void* a, int lda, const void* x, int incx, const void* beta,
                                  void* y, int incy) {
  tessera::blas::cblas2::sbmv("cblas_zhbmv", true, order, uplo, n, k, cblas_scalar<c64>(alpha),
                              cblas_array<c64>(a), lda, cblas_array<c64>(x), incx,
                              cblas_scalar<c64>(beta), cblas_array<c64>(y), incy);
}

TESSERA_BLAS_API void cblas_zhpmv(int order, int uplo, int n, const void* alpha, const void* ap,
                                  const void* x, int incx, const void* beta, void* y, int incy) {
  tessera::blas::cblas2::spmv("cblas_zhpmv", true, order, uplo, n, cblas_scalar<c64>(alpha),
                              cblas_array<c64>(ap), cblas_array<c64>(x), incx,
                              cblas_scalar<c64>(beta), cblas_array<c64>(y), incy);
}

TESSERA_BLAS_API void cblas_strmv(int order, int uplo, int trans, int diag, int n, const float* a,
                                  int lda, float* x, int incx) {
  tessera::blas::cblas2::trmv("cblas_strmv", false, order, uplo, trans, diag, n, a, lda, x, incx);
}

TESSERA_BLAS_API void cblas_stbmv(int order, int uplo, int trans, int diag, int n, int k,
                                  const float* a, int lda, float* x, int incx) {
  tessera::blas::cblas2::tbmv("cblas_stbmv", false, order, uplo, trans, diag, n, k, a, lda, x,
                              incx);
}

TESSERA_BLAS_API void cblas_stpmv(int order, int uplo, int trans, int diag, int n, const float* ap,
                                  float* x, int incx) {
  tessera::blas::cblas2::tpmv("cblas_stpmv", false, order, uplo, trans, diag, n, ap, x, incx);
}

TESSERA_BLAS_API void cblas_dtrmv(int order, int uplo, int trans, int diag, int n, const double* a,
                                  int lda, double* x, int incx) {
  tessera::blas::cblas2::trmv("cblas_dtrmv", false, order, uplo, trans, diag, n, a, lda, x, incx);
}

TESSERA_BLAS_API void cblas_dtbmv(int order, int uplo, int trans, int diag, int n, int k,
                                  const double* a, int lda, double* x, int incx) {
  tessera::blas::cblas2::tbmv("cblas_dtbmv", false, order, uplo, trans, diag, n, k, a, lda, x,
                              incx);
}

TESSERA_BLAS_API void cblas_dtpmv(int order, int uplo, int trans, int diag, int n, const double* ap,
                                  double* x, int incx) {
  tessera::blas::cblas2::tpmv("cblas_dtpmv", false, order, uplo, trans, diag, n, ap, x, incx);
}

TESSERA_BLAS_API void cblas_ctrmv(int order, int uplo, int trans, int diag, int n, const void* a,
                                  int lda, void* x, int incx) {
  tessera::blas::cblas2::trmv("cblas_ctrmv", false, order, uplo, trans, diag, n,
                              cblas_array<c32>(a), lda, cblas_array<c32>(x), incx);
}

TESSERA_BLAS_API void cblas_ctbmv(int order, int uplo, int trans, int diag, int n, int k,
                                  const void* a, int lda, void* x, int incx) {
  tessera::blas::cblas2::tbmv("cblas_ctbmv", false, order, uplo, trans, diag, n, k,
                              cblas_array<c32>(a), lda, cblas_array<c32>(x), incx);
}

TESSERA_BLAS_API void cblas_ctpmv(int order, int uplo, int trans, int diag, int n, const void* ap,
                                  void* x, int incx) {
  tessera::blas::cblas2::tpmv("cblas_ctpmv", false, order, uplo, trans, diag, n,
                              cblas_array<c32>(ap), cblas_array<c32>(x), incx);
}

TESSERA_BLAS_API void cblas_ztrmv(int order, int uplo, int trans, int diag, int n, const void* a,
                                  int lda, void* x, int incx) {
  tessera::blas::cblas2::trmv("cblas_ztrmv", false, order, uplo, trans, diag, n,
                              cblas_array<c64>(a), lda, cblas_array<c64>(x), incx);
}

TESSERA_BLAS_API void cblas_ztbmv(int order, int uplo, int trans, int diag, int n, int k,
                                  const void* a, int lda, void* x, int incx) {
  tessera::blas::cblas2::tbmv("cblas_ztbmv", false, order, uplo, trans, diag, n, k,
                              cblas_array<c64>(a), lda, cblas_array<c64>(x), incx);
}

TESSERA_BLAS_API void cblas_ztpmv(int order, int uplo, int trans, int diag, int n, const void* ap,
                                  void* x, int incx) {
  tessera::blas::cblas2::tpmv("cblas_ztpmv", false, order, uplo, trans, diag, n,
                              cblas_array<c64>(ap), cblas_array<c64>(x), incx);
}

TESSERA_BLAS_API void cblas_strsv(int order, int uplo, int trans, int diag, int n, const float* a,
                                  int lda, float* x, int incx) {
  tessera::blas::cblas2::trmv("cblas_strsv", true, order, uplo, trans, diag, n, a, lda, x, incx);
}

TESSERA_BLAS_API void cblas_stbsv(int order, int uplo, int trans, int diag, int n, int k,
                                  const float* a, int lda, float* x, int incx) {
  tessera::blas::cblas2::tbmv("cblas_stbsv", true, order, uplo, trans, diag, n, k, a, lda, x, incx);
}

TESSERA_BLAS_API void cblas_stpsv(int order, int uplo, int trans, int diag, int n, const float* ap,
                                  float* x, int incx) {
  tessera::blas::cblas2::tpmv("cblas_stpsv", true, order, uplo, trans, diag, n, ap, x, incx);
}

TESSERA_BLAS_API void cblas_dtrsv(int order, int uplo, int trans, int diag, int n, const double* a,
                                  int lda, double* x, int incx) {
  tessera::blas::cblas2::trmv("cblas_dtrsv", true, order, uplo, trans, diag, n, a, lda, x, incx);
}

TESSERA_BLAS_API void cblas_dtbsv(int order, int uplo, int trans, int diag, int n, int k,
                                  const double* a, int lda, double* x, int incx) {
  tessera::blas::cblas2::tbmv("cblas_dtbsv", true, order, uplo, trans, diag, n, k, a, lda, x, incx);
}

TESSERA_BLAS_API void cblas_dtpsv(int order, int uplo, int trans, int diag, int n, const double* ap,
                                  double* x, int incx) {
  tessera::blas::cblas2::tpmv("cblas_dtpsv", true, order, uplo, trans, diag, n, ap, x, incx);
}

TESSERA_BLAS_API void cblas_ctrsv(int order, int uplo, int trans, int diag, int n, const void* a,
                                  int lda, void* x, int incx) {
  tessera::blas::cblas2::trmv("cblas_ctrsv", true, order, uplo, trans, diag, n, cblas_array<c32>(a),
                              lda, cblas_array<c32>(x), incx);
}

TESSERA_BLAS_API void cblas_ctbsv(int order, int uplo, int trans, int diag, int n, int k,
                                  const void* a, int lda, void* x, int incx) {
  tessera::blas::cblas2::tbmv("cblas_ctbsv", true, order, uplo, trans, diag, n, k,
                              cblas_array<c32>(a), lda, cblas_array<c32>(x), incx);
}

TESSERA_BLAS_API void cblas_ctpsv(int order, int uplo, int trans, int diag, int n, const void* ap,
                                  void* x, int incx) {
  tessera::blas::cblas2::tpmv("cblas_ctpsv", true, order, uplo, trans, diag, n,
                              cblas_array<c32>(ap), cblas_array<c32>(x), incx);
}

TESSERA_BLAS_API void cblas_ztrsv(int order, int uplo, int trans, int diag, int n, const void* a,
                                  int lda, void* x, int incx) {
  tessera::blas::cblas2::trmv("cblas_ztrsv", true, order, uplo, trans, diag, n, cblas_array<c64>(a),
                              lda, cblas_array<c64>(x), incx);
}

TESSERA_BLAS_API void cblas_ztbsv(int order, int uplo, int trans, int diag, int n, int k,
                                  const void* a, int lda, void* x, int incx) {
  tessera::blas::cblas2::tbmv("cblas_ztbsv", true, order, uplo, trans, diag, n, k,
                              cblas_array<c64>(a), lda, cblas_array<c64>(x), incx);
}

TESSERA_BLAS_API void cblas_ztpsv(int order, int uplo, int trans, int diag, int n, const void* ap,
                                  void* x, int incx) {
  tessera::blas::cblas2::tpmv("cblas_ztpsv", true, order, uplo, trans, diag, n,
                              cblas_array<c64>(ap), cblas_array<c64>(x), incx);
}

TESSERA_BLAS_API void cblas_sger(int order, int m, int n, float alpha, const float* x, int incx,
                                 const float* y, int incy, float* a, int lda) {
  tessera::blas::cblas2::ger("cblas_sger", false, order, m, n, alpha, x, incx, y, incy, a, lda);
}

TESSERA_BLAS_API void cblas_dger(int order, int m, int n, double alpha, const double* x, int incx,
                                 const double* y, int incy, double* a, int lda) {
  tessera::blas::cblas2::ger("cblas_dger", false, order, m, n, alpha, x, incx, y, incy, a, lda);
}

TESSERA_BLAS_API void cblas_cgeru(int order, int m, int n, const void* alpha, const void* x,
                                  int incx, const void* y, int incy, void* a, int lda) {
  tessera::blas::cblas2::ger("cblas_cgeru", false, order, m, n, cblas_scalar<c32>(alpha),
                             cblas_array<c32>(x), incx, cblas_array<c32>(y), incy,
                             cblas_array<c32>(a), lda);
}

TESSERA_BLAS_API void cblas_cgerc(int order, int m, int n, const void* alpha, const void* x,
                                  int incx, const void* y, int incy, void* a, int lda) {
  tessera::blas::cblas2::ger("cblas_cgerc", true, order, m, n, cblas_scalar<c32>(alpha),
                             cblas_array<c32>(x), incx, cblas_array<c32>(y), incy,
                             cblas_array<c32>(a), lda);
}

TESSERA_BLAS_API void cblas_zgeru(int order, int m, int n, const void* alpha, const void* x,
                                  int incx, const void* y, int incy, void* a, int lda) {
  tessera::blas::cblas2::ger("cblas_zgeru", false, order, m, n, cblas_scalar<c64>(alpha),
                             cblas_array<c64>(x), incx, cblas_array<c64>(y), incy,
                             cblas_array<c64>(a), lda);
}

TESSERA_BLAS_API void cblas_zgerc(int order, int m, int n, const void* alpha, const void* x,
                                  int incx, const void* y, int incy, void* a, int lda) {
  tessera::blas::cblas2::ger("cblas_zgerc", true, order, m, n, cblas_scalar<c64>(alpha),
                             cblas_array<c64>(x), incx, cblas_array<c64>(y), incy,
                             cblas_array<c64>(a), lda);
}

TESSERA_BLAS_API void cblas_ssyr(int order, int uplo, int n, float alpha, const float* x, int incx,
                                 float* a, int lda) {
  tessera::blas::cblas2::syr("cblas_ssyr", false, order, uplo, n, alpha, x, incx, a, lda);
}

TESSERA_BLAS_API void cblas_sspr(int order, int uplo, int n, float alpha, const float* x, int incx,
                                 float* ap) {
  tessera::blas::cblas2::spr("cblas_sspr", false, order, uplo, n, alpha, x, incx, ap);
}

TESSERA_BLAS_API void cblas_ssyr2(int order, int uplo, int n, float alpha, const float* x, int incx,
                                  const float* y, int incy, float* a, int lda) {
  tessera::blas::cblas2::syr2("cblas_ssyr2", false, order, uplo, n, alpha, x, incx, y, incy, a,
                              lda);
}

TESSERA_BLAS_API void cblas_sspr2(int order, int uplo, int n, float alpha, const float* x, int incx,
                                  const float* y, int incy, float* ap) {
  tessera::blas::cblas2::spr2("cblas_sspr2", false, order, uplo, n, alpha, x, incx, y, incy, ap);
}

TESSERA_BLAS_API void cblas_dsyr(int order, int uplo, int n, double alpha, const double* x,
                                 int incx, double* a, int lda) {
  tessera::blas::cblas2::syr("cblas_dsyr", false, order, uplo, n, alpha, x, incx, a, lda);
}

TESSERA_BLAS_API void cblas_dspr(int order, int uplo, int n, double alpha, const double* x,
                                 int incx, double* ap) {
  tessera::blas::cblas2::spr("cblas_dspr", false, order, uplo, n, alpha, x, incx, ap);
}

TESSERA_BLAS_API void cblas_dsyr2(int order, int uplo, int n, double alpha, const double* x,
                                  int incx, const double* y, int incy, double* a, int lda) {
  tessera::blas::cblas2::syr2("cblas_dsyr2", false, order, uplo, n, alpha, x, incx, y, incy, a,
                              lda);
}

TESSERA_BLAS_API void cblas_dspr2(int order, int uplo, int n, double alpha, const double* x,
                                  int incx, const double* y, int incy, double* ap) {
  tessera::blas::cblas2::spr2("cblas_dspr2", false, order, uplo, n, alpha, x, incx, y, incy, ap);
}

TESSERA_BLAS_API void cblas_cher(int order, int uplo, int n, float alpha, const void* x, int incx,
                                 void* a, int lda) {
  tessera::blas::cblas2::syr("cblas_cher", true, order, uplo, n, c32(alpha), cblas_array<c32>(x),
                             incx, cblas_array<c32>(a), lda);
}

TESSERA_BLAS_API void cblas_chpr(int order, int uplo, int n, float alpha, const void* x, int incx,
                                 void* ap) {
  tessera::blas::cblas2::spr("cblas_chpr", true, order, uplo, n, c32(alpha), cblas_array<c32>(x),
                             incx, cblas_array<c32>(ap));
}

TESSERA_BLAS_API void cblas_cher2(int order, int uplo, int n, const void* alpha, const void* x,
                                  int incx, const void* y, int incy, void* a, int lda) {
  tessera::blas::cblas2::syr2("cblas_cher2", true, order, uplo, n, cblas_scalar<c32>(alpha),
                              cblas_array<c32>(x), incx, cblas_array<c32>(y), incy,
                              cblas_array<c32>(a), lda);
}

TESSERA_BLAS_API void cblas_chpr2(int order, int uplo, int n, const void* alpha, const void* x,
                                  int incx, const void* y, int incy, void* ap) {
  tessera::blas::cblas2::spr2("cblas_chpr2", true, order, uplo, n, cblas_scalar<c32>(alpha),
                              cblas_array<c32>(x), incx, cblas_array<c32>(y), incy,
                              cblas_array<c32>(ap));
}

TESSERA_BLAS_API void cblas_zher(int order, int uplo, int n, double alpha, const void* x, int incx,
                                 void* a, int lda) {
  tessera::blas::cblas2::syr("cblas_zher", true, order, uplo, n, c64(alpha), cblas_array<c64>(x),
                             incx, cblas_array<c64>(a), lda);
}

TESSERA_BLAS_API void cblas_zhpr(int order, int uplo, int n, double alpha, const void* x, int incx,
                                 void* ap) {
  tessera::blas::cblas2::spr("cblas_zhpr", true, order, uplo, n, c64(alpha), cblas_array<c64>(x),
                             incx, cblas_array<c64>(ap));
}

TESSERA_BLAS_API void cblas_zher2(int order, int uplo, int n, const void* alpha, const void* x,
                                  int incx, const void* y, int incy, void* a, int lda) {
  tessera::blas::cblas2::syr2("cblas_zher2", true, order, uplo, n, cblas_scalar<c64>(alpha),
                              cblas_array<c64>(x), incx, cblas_array<c64>(y), incy,
                              cblas_array<c64>(a), lda);
}

TESSERA_BLAS_API void cblas_zhpr2(int order, int uplo, int n, const void* alpha, const void* x,
                                  int incx, const void* y, int incy, void* ap) {
  tessera::blas::cblas2::spr2("cblas_zhpr2", true, order, uplo, n, cblas_scalar<c64>(alpha),
                              cblas_array<c64>(x), incx, cblas_array<c64>(y), incy,
                              cblas_array<c64>(ap));
}

}  // extern "C"
