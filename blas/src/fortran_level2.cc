// The Fortran level-2 routines beyond SGEMV/DGEMV (fortran_gemv.cc), in
// every type the reference BLAS has them: ?gbmv, ?symv/?hemv, ?sbmv/?hbmv,
// ?spmv/?hpmv, ?trmv, ?tbmv, ?tpmv, ?trsv, ?tbsv, ?tpsv, ?ger/?geru/?gerc,
// ?syr/?her, ?spr/?hpr, ?syr2/?her2, ?spr2/?hpr2, and CGEMV/ZGEMV. Each
// checks its arguments in the reference's order (level2_args.hpp) and runs
// the level-2 body for its storage (level2.hpp). The option characters'
// hidden lengths (gfortran passes them last) are not needed.
#include <complex>
#include <cstddef>

#include "blas/src/blas_args.hpp"
#include "blas/src/level2.hpp"
#include "blas/src/level2_args.hpp"
#include "blas/src/level2_blocked.hpp"

// The helpers live in a named namespace: the unity builds put every
// libtessera_blas source in one translation unit, where anonymous
// namespaces merge.
namespace tessera::blas::fortran2 {

// Reports `info` to XERBLA when it names a bad argument.
bool failed(const char* routine, int info) {
  if (info == 0) return false;
  report_bad_argument(routine, info);
  return true;
}

bool is_upper(const char* uplo) { return option(*uplo, "UL") == 'U'; }

template <class T>
void gemv(const char* routine, const char* trans, const int* m, const int* n, const T* alpha,
          const T* a, const int* lda, const T* x, const int* incx, const T* beta, T* y,
          const int* incy) {
  if (failed(routine, gemv_argument_error(*trans, *m, *n, *lda, *incx, *incy))) return;
  const char t = option(*trans, "NTC");
  band_mv(t != 'N', t == 'C', *m, *n, *m - 1, *n - 1, *alpha, a, FullStorage{*lda}, x, *incx,
          *beta, y, *incy);
}

template <class T>
void gbmv(const char* routine, const char* trans, const int* m, const int* n, const int* kl,
          const int* ku, const T* alpha, const T* a, const int* lda, const T* x, const int* incx,
          const T* beta, T* y, const int* incy) {
  if (failed(routine, gbmv_argument_error(*trans, *m, *n, *kl, *ku, *lda, *incx, *incy))) return;
  const char t = option(*trans, "NTC");
  band_mv(t != 'N', t == 'C', *m, *n, *kl, *ku, *alpha, a, BandStorage{*lda, *ku}, x, *incx,
          *beta, y, *incy);
}

template <class T>
void symv(const char* routine, bool hermitian, const char* uplo, const int* n, const T* alpha,
          const T* a, const int* lda, const T* x, const int* incx, const T* beta, T* y,
          const int* incy) {
  if (failed(routine, symv_argument_error(*uplo, *n, *lda, *incx, *incy))) return;
  sym_mv_full(routine, is_upper(uplo), hermitian, false, *n, *alpha, a, *lda, x, *incx, *beta, y,
              *incy);
}

template <class T>
void sbmv(const char* routine, bool hermitian, const char* uplo, const int* n, const int* k,
          const T* alpha, const T* a, const int* lda, const T* x, const int* incx, const T* beta,
          T* y, const int* incy) {
  if (failed(routine, sbmv_argument_error(*uplo, *n, *k, *lda, *incx, *incy))) return;
  const bool upper = is_upper(uplo);
  sym_mv(upper, hermitian, false, *n, *k, *alpha, a, BandStorage{*lda, upper ? *k : 0}, x, *incx,
         *beta, y, *incy);
}

template <class T>
void spmv(const char* routine, bool hermitian, const char* uplo, const int* n, const T* alpha,
          const T* ap, const T* x, const int* incx, const T* beta, T* y, const int* incy) {
  if (failed(routine, spmv_argument_error(*uplo, *n, *incx, *incy))) return;
  const bool upper = is_upper(uplo);
  with_packed_storage(upper, *n, [&](auto storage) {
    sym_mv(upper, hermitian, false, *n, *n - 1, *alpha, ap, storage, x, *incx, *beta, y, *incy);
  });
}

// x := op(A) x (solve false) or op(A)^-1 x (solve true).
template <class T, class Storage>
void triangular(const char* routine, bool solve, char uplo, char trans, char diag,
                std::int64_t n, std::int64_t k, const T* a, Storage storage, T* x,
                std::int64_t incx) {
  triangular_body(routine, solve, uplo == 'U', trans != 'N', trans == 'C', diag == 'U', n, k, a,
                  storage, x, incx);
}

template <class T>
void trmv(const char* routine, bool solve, const char* uplo, const char* trans, const char* diag,
          const int* n, const T* a, const int* lda, T* x, const int* incx) {
  if (failed(routine, trmv_argument_error(*uplo, *trans, *diag, *n, *lda, *incx))) return;
  triangular(routine, solve, option(*uplo, "UL"), option(*trans, "NTC"), option(*diag, "NU"), *n,
             *n - 1, a, FullStorage{*lda}, x, *incx);
}

template <class T>
void tbmv(const char* routine, bool solve, const char* uplo, const char* trans, const char* diag,
          const int* n, const int* k, const T* a, const int* lda, T* x, const int* incx) {
  if (failed(routine, tbmv_argument_error(*uplo, *trans, *diag, *n, *k, *lda, *incx))) return;
  const char u = option(*uplo, "UL");
  triangular(routine, solve, u, option(*trans, "NTC"), option(*diag, "NU"), *n, *k, a,
             BandStorage{*lda, u == 'U' ? *k : 0}, x, *incx);
}

template <class T>
void tpmv(const char* routine, bool solve, const char* uplo, const char* trans, const char* diag,
          const int* n, const T* ap, T* x, const int* incx) {
  if (failed(routine, tpmv_argument_error(*uplo, *trans, *diag, *n, *incx))) return;
  const char u = option(*uplo, "UL");
  with_packed_storage(u == 'U', *n, [&](auto storage) {
    triangular(routine, solve, u, option(*trans, "NTC"), option(*diag, "NU"), *n, *n - 1, ap,
               storage, x, *incx);
  });
}

template <class T>
void ger(const char* routine, bool conj_y, const int* m, const int* n, const T* alpha, const T* x,
         const int* incx, const T* y, const int* incy, T* a, const int* lda) {
  if (failed(routine, ger_argument_error(*m, *n, *incx, *incy, *lda))) return;
  ger_body(routine, *m, *n, *alpha, x, *incx, false, y, *incy, conj_y, a, *lda);
}

template <class T>
void syr(const char* routine, bool hermitian, const char* uplo, const int* n, T alpha, const T* x,
         const int* incx, T* a, const int* lda) {
  if (failed(routine, syr_argument_error(*uplo, *n, *incx, *lda))) return;
  sym_r(is_upper(uplo), hermitian, false, *n, alpha, x, *incx, a, FullStorage{*lda});
}

template <class T>
void spr(const char* routine, bool hermitian, const char* uplo, const int* n, T alpha, const T* x,
         const int* incx, T* ap) {
  if (failed(routine, spr_argument_error(*uplo, *n, *incx))) return;
  const bool upper = is_upper(uplo);
  with_packed_storage(upper, *n, [&](auto storage) {
    sym_r(upper, hermitian, false, *n, alpha, x, *incx, ap, storage);
  });
}

template <class T>
void syr2(const char* routine, bool hermitian, const char* uplo, const int* n, const T* alpha,
          const T* x, const int* incx, const T* y, const int* incy, T* a, const int* lda) {
  if (failed(routine, syr2_argument_error(*uplo, *n, *incx, *incy, *lda))) return;
  sym_r2_full(routine, is_upper(uplo), hermitian, false, *n, *alpha, x, *incx, y, *incy, a, *lda);
}

template <class T>
void spr2(const char* routine, bool hermitian, const char* uplo, const int* n, const T* alpha,
          const T* x, const int* incx, const T* y, const int* incy, T* ap) {
  if (failed(routine, spr2_argument_error(*uplo, *n, *incx, *incy))) return;
  const bool upper = is_upper(uplo);
  with_packed_storage(upper, *n, [&](auto storage) {
    sym_r2(upper, hermitian, false, *n, *alpha, x, *incx, y, *incy, ap, storage);
  });
}

}  // namespace tessera::blas::fortran2

using tessera::blas::c32;
using tessera::blas::c64;

extern "C" {
TESSERA_BLAS_API void cgemv_(const char* trans, const int* m, const int* n, const c32* alpha,
                             const c32* a, const int* lda, const c32* x, const int* incx,
                             const c32* beta, c32* y, const int* incy) {
  tessera::blas::fortran2::gemv("CGEMV ", trans, m, n, alpha, a, lda, x, incx, beta, y, incy);
}

TESSERA_BLAS_API void zgemv_(const char* trans, const int* m, const int* n, const c64* alpha,
                             const c64* a, const int* lda, const c64* x, const int* incx,
                             const c64* beta, c64* y, const int* incy) {
  tessera::blas::fortran2::gemv("ZGEMV ", trans, m, n, alpha, a, lda, x, incx, beta, y, incy);
}

TESSERA_BLAS_API void sgbmv_(const char* trans, const int* m, const int* n, const int* kl,
                             const int* ku, const float* alpha, const float* a, const int* lda,
                             const float* x, const int* incx, const float* beta, float* y,
                             const int* incy) {
  tessera::blas::fortran2::gbmv("SGBMV ", trans, m, n, kl, ku, alpha, a, lda, x, incx, beta, y,
                                incy);
}

TESSERA_BLAS_API void dgbmv_(const char* trans, const int* m, const int* n, const int* kl,
                             const int* ku, const double* alpha, const double* a, const int* lda,
                             const double* x, const int* incx, const double* beta, double* y,
                             const int* incy) {
  tessera::blas::fortran2::gbmv("DGBMV ", trans, m, n, kl, ku, alpha, a, lda, x, incx, beta, y,
                                incy);
}

TESSERA_BLAS_API void cgbmv_(const char* trans, const int* m, const int* n, const int* kl,
                             const int* ku, const c32* alpha, const c32* a, const int* lda,
                             const c32* x, const int* incx, const c32* beta, c32* y,
                             const int* incy) {
  tessera::blas::fortran2::gbmv("CGBMV ", trans, m, n, kl, ku, alpha, a, lda, x, incx, beta, y,
                                incy);
}

TESSERA_BLAS_API void zgbmv_(const char* trans, const int* m, const int* n, const int* kl,
                             const int* ku, const c64* alpha, const c64* a, const int* lda,
                             const c64* x, const int* incx, const c64* beta, c64* y,
                             const int* incy) {
  tessera::blas::fortran2::gbmv("ZGBMV ", trans, m, n, kl, ku, alpha, a, lda, x, incx, beta, y,
                                incy);
}

TESSERA_BLAS_API void ssymv_(const char* uplo, const int* n, const float* alpha, const float* a,
                             const int* lda, const float* x, const int* incx, const float* beta,
                             float* y, const int* incy) {
  tessera::blas::fortran2::symv("SSYMV ", false, uplo, n, alpha, a, lda, x, incx, beta, y, incy);
}

TESSERA_BLAS_API void ssbmv_(const char* uplo, const int* n, const int* k, const float* alpha,
                             const float* a, const int* lda, const float* x, const int* incx,
                             const float* beta, float* y, const int* incy) {
  tessera::blas::fortran2::sbmv("SSBMV ", false, uplo, n, k, alpha, a, lda, x, incx, beta, y, incy);
}

TESSERA_BLAS_API void sspmv_(const char* uplo, const int* n, const float* alpha, const float* ap,
                             const float* x, const int* incx, const float* beta, float* y,
                             const int* incy) {
  tessera::blas::fortran2::spmv("SSPMV ", false, uplo, n, alpha, ap, x, incx, beta, y, incy);
}

TESSERA_BLAS_API void dsymv_(const char* uplo, const int* n, const double* alpha, const double* a,
                             const int* lda, const double* x, const int* incx, const double* beta,
                             double* y, const int* incy) {
  tessera::blas::fortran2::symv("DSYMV ", false, uplo, n, alpha, a, lda, x, incx, beta, y, incy);
}

TESSERA_BLAS_API void dsbmv_(const char* uplo, const int* n, const int* k, const double* alpha,
                             const double* a, const int* lda, const double* x, const int* incx,
                             const double* beta, double* y, const int* incy) {
  tessera::blas::fortran2::sbmv("DSBMV ", false, uplo, n, k, alpha, a, lda, x, incx, beta, y, incy);
}

TESSERA_BLAS_API void dspmv_(const char* uplo, const int* n, const double* alpha, const double* ap,
                             const double* x, const int* incx, const double* beta, double* y,
                             const int* incy) {
  tessera::blas::fortran2::spmv("DSPMV ", false, uplo, n, alpha, ap, x, incx, beta, y, incy);
}

TESSERA_BLAS_API void chemv_(const char* uplo, const int* n, const c32* alpha, const c32* a,
                             const int* lda, const c32* x, const int* incx, const c32* beta, c32* y,
                             const int* incy) {
  tessera::blas::fortran2::symv("CHEMV ", true, uplo, n, alpha, a, lda, x, incx, beta, y, incy);
}

TESSERA_BLAS_API void chbmv_(const char* uplo, const int* n, const int* k, const c32* alpha,
                             const c32* a, const int* lda, const c32* x, const int* incx,
                             const c32* beta, c32* y, const int* incy) {
  tessera::blas::fortran2::sbmv("CHBMV ", true, uplo, n, k, alpha, a, lda, x, incx, beta, y, incy);
}

TESSERA_BLAS_API void chpmv_(const char* uplo, const int* n, const c32* alpha, const c32* ap,
                             const c32* x, const int* incx, const c32* beta, c32* y,
                             const int* incy) {
  tessera::blas::fortran2::spmv("CHPMV ", true, uplo, n, alpha, ap, x, incx, beta, y, incy);
}

TESSERA_BLAS_API void zhemv_(const char* uplo, const int* n, const c64* alpha, const c64* a,
                             const int* lda, const c64* x, const int* incx, const c64* beta, c64* y,
                             const int* incy) {
  tessera::blas::fortran2::symv("ZHEMV ", true, uplo, n, alpha, a, lda, x, incx, beta, y, incy);
}

TESSERA_BLAS_API void zhbmv_(const char* uplo, const int* n, const int* k, const c64* alpha,
                             const c64* a, const int* lda, const c64* x, const int* incx,
                             const c64* beta, c64* y, const int* incy) {
  tessera::blas::fortran2::sbmv("ZHBMV ", true, uplo, n, k, alpha, a, lda, x, incx, beta, y, incy);
}

TESSERA_BLAS_API void zhpmv_(const char* uplo, const int* n, const c64* alpha, const c64* ap,
                             const c64* x, const int* incx, const c64* beta, c64* y,
                             const int* incy) {
  tessera::blas::fortran2::spmv("ZHPMV ", true, uplo, n, alpha, ap, x, incx, beta, y, incy);
}

TESSERA_BLAS_API void strmv_(const char* uplo, const char* trans, const char* diag, const int* n,
                             const float* a, const int* lda, float* x, const int* incx) {
  tessera::blas::fortran2::trmv("STRMV ", false, uplo, trans, diag, n, a, lda, x, incx);
}

TESSERA_BLAS_API void stbmv_(const char* uplo, const char* trans, const char* diag, const int* n,
                             const int* k, const float* a, const int* lda, float* x,
                             const int* incx) {
  tessera::blas::fortran2::tbmv("STBMV ", false, uplo, trans, diag, n, k, a, lda, x, incx);
}

TESSERA_BLAS_API void stpmv_(const char* uplo, const char* trans, const char* diag, const int* n,
                             const float* ap, float* x, const int* incx) {
  tessera::blas::fortran2::tpmv("STPMV ", false, uplo, trans, diag, n, ap, x, incx);
}

TESSERA_BLAS_API void dtrmv_(const char* uplo, const char* trans, const char* diag, const int* n,
                             const double* a, const int* lda, double* x, const int* incx) {
  tessera::blas::fortran2::trmv("DTRMV ", false, uplo, trans, diag, n, a, lda, x, incx);
}

TESSERA_BLAS_API void dtbmv_(const char* uplo, const char* trans, const char* diag, const int* n,
                             const int* k, const double* a, const int* lda, double* x,
                             const int* incx) {
  tessera::blas::fortran2::tbmv("DTBMV ", false, uplo, trans, diag, n, k, a, lda, x, incx);
}

TESSERA_BLAS_API void dtpmv_(const char* uplo, const char* trans, const char* diag, const int* n,
                             const double* ap, double* x, const int* incx) {
  tessera::blas::fortran2::tpmv("DTPMV ", false, uplo, trans, diag, n, ap, x, incx);
}

TESSERA_BLAS_API void ctrmv_(const char* uplo, const char* trans, const char* diag, const int* n,
                             const c32* a, const int* lda, c32* x, const int* incx) {
  tessera::blas::fortran2::trmv("CTRMV ", false, uplo, trans, diag, n, a, lda, x, incx);
}

TESSERA_BLAS_API void ctbmv_(const char* uplo, const char* trans, const char* diag, const int* n,
                             const int* k, const c32* a, const int* lda, c32* x, const int* incx) {
  tessera::blas::fortran2::tbmv("CTBMV ", false, uplo, trans, diag, n, k, a, lda, x, incx);
}

TESSERA_BLAS_API void ctpmv_(const char* uplo, const char* trans, const char* diag, const int* n,
                             const c32* ap, c32* x, const int* incx) {
  tessera::blas::fortran2::tpmv("CTPMV ", false, uplo, trans, diag, n, ap, x, incx);
}

TESSERA_BLAS_API void ztrmv_(const char* uplo, const char* trans, const char* diag, const int* n,
                             const c64* a, const int* lda, c64* x, const int* incx) {
  tessera::blas::fortran2::trmv("ZTRMV ", false, uplo, trans, diag, n, a, lda, x, incx);
}

TESSERA_BLAS_API void ztbmv_(const char* uplo, const char* trans, const char* diag, const int* n,
                             const int* k, const c64* a, const int* lda, c64* x, const int* incx) {
  tessera::blas::fortran2::tbmv("ZTBMV ", false, uplo, trans, diag, n, k, a, lda, x, incx);
}

TESSERA_BLAS_API void ztpmv_(const char* uplo, const char* trans, const char* diag, const int* n,
                             const c64* ap, c64* x, const int* incx) {
  tessera::blas::fortran2::tpmv("ZTPMV ", false, uplo, trans, diag, n, ap, x, incx);
}

TESSERA_BLAS_API void strsv_(const char* uplo, const char* trans, const char* diag, const int* n,
                             const float* a, const int* lda, float* x, const int* incx) {
  tessera::blas::fortran2::trmv("STRSV ", true, uplo, trans, diag, n, a, lda, x, incx);
}

TESSERA_BLAS_API void stbsv_(const char* uplo, const char* trans, const char* diag, const int* n,
                             const int* k, const float* a, const int* lda, float* x,
                             const int* incx) {
  tessera::blas::fortran2::tbmv("STBSV ", true, uplo, trans, diag, n, k, a, lda, x, incx);
}

TESSERA_BLAS_API void stpsv_(const char* uplo, const char* trans, const char* diag, const int* n,
                             const float* ap, float* x, const int* incx) {
  tessera::blas::fortran2::tpmv("STPSV ", true, uplo, trans, diag, n, ap, x, incx);
}

TESSERA_BLAS_API void dtrsv_(const char* uplo, const char* trans, const char* diag, const int* n,
                             const double* a, const int* lda, double* x, const int* incx) {
  tessera::blas::fortran2::trmv("DTRSV ", true, uplo, trans, diag, n, a, lda, x, incx);
}

TESSERA_BLAS_API void dtbsv_(const char* uplo, const char* trans, const char* diag, const int* n,
                             const int* k, const double* a, const int* lda, double* x,
                             const int* incx) {
  tessera::blas::fortran2::tbmv("DTBSV ", true, uplo, trans, diag, n, k, a, lda, x, incx);
}

TESSERA_BLAS_API void dtpsv_(const char* uplo, const char* trans, const char* diag, const int* n,
                             const double* ap, double* x, const int* incx) {
  tessera::blas::fortran2::tpmv("DTPSV ", true, uplo, trans, diag, n, ap, x, incx);
}

TESSERA_BLAS_API void ctrsv_(const char* uplo, const char* trans, const char* diag, const int* n,
                             const c32* a, const int* lda, c32* x, const int* incx) {
  tessera::blas::fortran2::trmv("CTRSV ", true, uplo, trans, diag, n, a, lda, x, incx);
}

TESSERA_BLAS_API void ctbsv_(const char* uplo, const char* trans, const char* diag, const int* n,
                             const int* k, const c32* a, const int* lda, c32* x, const int* incx) {
  tessera::blas::fortran2::tbmv("CTBSV ", true, uplo, trans, diag, n, k, a, lda, x, incx);
}

TESSERA_BLAS_API void ctpsv_(const char* uplo, const char* trans, const char* diag, const int* n,
                             const c32* ap, c32* x, const int* incx) {
  tessera::blas::fortran2::tpmv("CTPSV ", true, uplo, trans, diag, n, ap, x, incx);
}

TESSERA_BLAS_API void ztrsv_(const char* uplo, const char* trans, const char* diag, const int* n,
                             const c64* a, const int* lda, c64* x, const int* incx) {
  tessera::blas::fortran2::trmv("ZTRSV ", true, uplo, trans, diag, n, a, lda, x, incx);
}

TESSERA_BLAS_API void ztbsv_(const char* uplo, const char* trans, const char* diag, const int* n,
                             const int* k, const c64* a, const int* lda, c64* x, const int* incx) {
  tessera::blas::fortran2::tbmv("ZTBSV ", true, uplo, trans, diag, n, k, a, lda, x, incx);
}

TESSERA_BLAS_API void ztpsv_(const char* uplo, const char* trans, const char* diag, const int* n,
                             const c64* ap, c64* x, const int* incx) {
  tessera::blas::fortran2::tpmv("ZTPSV ", true, uplo, trans, diag, n, ap, x, incx);
}

TESSERA_BLAS_API void sger_(const int* m, const int* n, const float* alpha, const float* x,
                            const int* incx, const float* y, const int* incy, float* a,
                            const int* lda) {
  tessera::blas::fortran2::ger("SGER  ", false, m, n, alpha, x, incx, y, incy, a, lda);
}

TESSERA_BLAS_API void dger_(const int* m, const int* n, const double* alpha, const double* x,
                            const int* incx, const double* y, const int* incy, double* a,
                            const int* lda) {
  tessera::blas::fortran2::ger("DGER  ", false, m, n, alpha, x, incx, y, incy, a, lda);
}

TESSERA_BLAS_API void cgeru_(const int* m, const int* n, const c32* alpha, const c32* x,
                             const int* incx, const c32* y, const int* incy, c32* a,
                             const int* lda) {
  tessera::blas::fortran2::ger("CGERU ", false, m, n, alpha, x, incx, y, incy, a, lda);
}

TESSERA_BLAS_API void cgerc_(const int* m, const int* n, const c32* alpha, const c32* x,
                             const int* incx, const c32* y, const int* incy, c32* a,
                             const int* lda) {
  tessera::blas::fortran2::ger("CGERC ", true, m, n, alpha, x, incx, y, incy, a, lda);
}

TESSERA_BLAS_API void zgeru_(const int* m, const int* n, const c64* alpha, const c64* x,
                             const int* incx, const c64* y, const int* incy, c64* a,
                             const int* lda) {
  tessera::blas::fortran2::ger("ZGERU ", false, m, n, alpha, x, incx, y, incy, a, lda);
}

TESSERA_BLAS_API void zgerc_(const int* m, const int* n, const c64* alpha, const c64* x,
                             const int* incx, const c64* y, const int* incy, c64* a,
                             const int* lda) {
  tessera::blas::fortran2::ger("ZGERC ", true, m, n, alpha, x, incx, y, incy, a, lda);
}

TESSERA_BLAS_API void ssyr_(const char* uplo, const int* n, const float* alpha, const float* x,
                            const int* incx, float* a, const int* lda) {
  tessera::blas::fortran2::syr("SSYR  ", false, uplo, n, float(*alpha), x, incx, a, lda);
}

TESSERA_BLAS_API void sspr_(const char* uplo, const int* n, const float* alpha, const float* x,
                            const int* incx, float* ap) {
  tessera::blas::fortran2::spr("SSPR  ", false, uplo, n, float(*alpha), x, incx, ap);
}

TESSERA_BLAS_API void ssyr2_(const char* uplo, const int* n, const float* alpha, const float* x,
                             const int* incx, const float* y, const int* incy, float* a,
                             const int* lda) {
  tessera::blas::fortran2::syr2("SSYR2 ", false, uplo, n, alpha, x, incx, y, incy, a, lda);
}

TESSERA_BLAS_API void sspr2_(const char* uplo, const int* n, const float* alpha, const float* x,
                             const int* incx, const float* y, const int* incy, float* ap) {
  tessera::blas::fortran2::spr2("SSPR2 ", false, uplo, n, alpha, x, incx, y, incy, ap);
}

TESSERA_BLAS_API void dsyr_(const char* uplo, const int* n, const double* alpha, const double* x,
                            const int* incx, double* a, const int* lda) {
  tessera::blas::fortran2::syr("DSYR  ", false, uplo, n, double(*alpha), x, incx, a, lda);
}

TESSERA_BLAS_API void dspr_(const char* uplo, const int* n, const double* alpha, const double* x,
                            const int* incx, double* ap) {
  tessera::blas::fortran2::spr("DSPR  ", false, uplo, n, double(*alpha), x, incx, ap);
}

TESSERA_BLAS_API void dsyr2_(const char* uplo, const int* n, const double* alpha, const double* x,
                             const int* incx, const double* y, const int* incy, double* a,
                             const int* lda) {
  tessera::blas::fortran2::syr2("DSYR2 ", false, uplo, n, alpha, x, incx, y, incy, a, lda);
}

TESSERA_BLAS_API void dspr2_(const char* uplo, const int* n, const double* alpha, const double* x,
                             const int* incx, const double* y, const int* incy, double* ap) {
  tessera::blas::fortran2::spr2("DSPR2 ", false, uplo, n, alpha, x, incx, y, incy, ap);
}

TESSERA_BLAS_API void cher_(const char* uplo, const int* n, const float* alpha, const c32* x,
                            const int* incx, c32* a, const int* lda) {
  tessera::blas::fortran2::syr("CHER  ", true, uplo, n, c32(*alpha), x, incx, a, lda);
}

TESSERA_BLAS_API void chpr_(const char* uplo, const int* n, const float* alpha, const c32* x,
                            const int* incx, c32* ap) {
  tessera::blas::fortran2::spr("CHPR  ", true, uplo, n, c32(*alpha), x, incx, ap);
}

TESSERA_BLAS_API void cher2_(const char* uplo, const int* n, const c32* alpha, const c32* x,
                             const int* incx, const c32* y, const int* incy, c32* a,
                             const int* lda) {
  tessera::blas::fortran2::syr2("CHER2 ", true, uplo, n, alpha, x, incx, y, incy, a, lda);
}

TESSERA_BLAS_API void chpr2_(const char* uplo, const int* n, const c32* alpha, const c32* x,
                             const int* incx, const c32* y, const int* incy, c32* ap) {
  tessera::blas::fortran2::spr2("CHPR2 ", true, uplo, n, alpha, x, incx, y, incy, ap);
}

TESSERA_BLAS_API void zher_(const char* uplo, const int* n, const double* alpha, const c64* x,
                            const int* incx, c64* a, const int* lda) {
  tessera::blas::fortran2::syr("ZHER  ", true, uplo, n, c64(*alpha), x, incx, a, lda);
}

TESSERA_BLAS_API void zhpr_(const char* uplo, const int* n, const double* alpha, const c64* x,
                            const int* incx, c64* ap) {
  tessera::blas::fortran2::spr("ZHPR  ", true, uplo, n, c64(*alpha), x, incx, ap);
}

TESSERA_BLAS_API void zher2_(const char* uplo, const int* n, const c64* alpha, const c64* x,
                             const int* incx, const c64* y, const int* incy, c64* a,
                             const int* lda) {
  tessera::blas::fortran2::syr2("ZHER2 ", true, uplo, n, alpha, x, incx, y, incy, a, lda);
}

TESSERA_BLAS_API void zhpr2_(const char* uplo, const int* n, const c64* alpha, const c64* x,
                             const int* incx, const c64* y, const int* incy, c64* ap) {
  tessera::blas::fortran2::spr2("ZHPR2 ", true, uplo, n, alpha, x, incx, y, incy, ap);
}

}  // extern "C"
