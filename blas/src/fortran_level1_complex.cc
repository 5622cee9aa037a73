// The Fortran level-1 routines on complex vectors: CAXPY/ZAXPY,
// CSCAL/ZSCAL, CSSCAL/ZDSCAL, CCOPY/ZCOPY, CSWAP/ZSWAP, CDOTU/CDOTC/ZDOTU/
// ZDOTC, SCASUM/DZASUM, SCNRM2/DZNRM2, ICAMAX/IZAMAX. A COMPLEX function's
// value is returned as gfortran returns it, as C's `float _Complex`
// (scalar.hpp).
#include <complex>

#include "blas/src/blas_args.hpp"
#include "blas/src/level1.hpp"
#include "blas/src/level1_dot.hpp"

using tessera::blas::c32;
using tessera::blas::c64;
using tessera::blas::c_complex_double;
using tessera::blas::c_complex_float;

extern "C" {

TESSERA_BLAS_API void caxpy_(const int* n, const c32* alpha, const c32* x, const int* incx,
                             c32* y, const int* incy) {
  tessera::blas::axpy<c32>(*n, *alpha, x, *incx, y, *incy);
}
TESSERA_BLAS_API void zaxpy_(const int* n, const c64* alpha, const c64* x, const int* incx,
                             c64* y, const int* incy) {
  tessera::blas::axpy<c64>(*n, *alpha, x, *incx, y, *incy);
}

TESSERA_BLAS_API void cscal_(const int* n, const c32* alpha, c32* x, const int* incx) {
  tessera::blas::scal<c32>(*n, *alpha, x, *incx);
}
TESSERA_BLAS_API void zscal_(const int* n, const c64* alpha, c64* x, const int* incx) {
  tessera::blas::scal<c64>(*n, *alpha, x, *incx);
}
// A real alpha scales both parts.
TESSERA_BLAS_API void csscal_(const int* n, const float* alpha, c32* x, const int* incx) {
  tessera::blas::scal<c32>(*n, c32(*alpha), x, *incx);
}
TESSERA_BLAS_API void zdscal_(const int* n, const double* alpha, c64* x, const int* incx) {
  tessera::blas::scal<c64>(*n, c64(*alpha), x, *incx);
}

TESSERA_BLAS_API void ccopy_(const int* n, const c32* x, const int* incx, c32* y,
                             const int* incy) {
  tessera::blas::copy<c32>(*n, x, *incx, y, *incy);
}
TESSERA_BLAS_API void zcopy_(const int* n, const c64* x, const int* incx, c64* y,
                             const int* incy) {
  tessera::blas::copy<c64>(*n, x, *incx, y, *incy);
}

TESSERA_BLAS_API void cswap_(const int* n, c32* x, const int* incx, c32* y, const int* incy) {
  tessera::blas::swap<c32>(*n, x, *incx, y, *incy);
}
TESSERA_BLAS_API void zswap_(const int* n, c64* x, const int* incx, c64* y, const int* incy) {
  tessera::blas::swap<c64>(*n, x, *incx, y, *incy);
}

TESSERA_BLAS_API c_complex_float cdotu_(const int* n, const c32* x, const int* incx,
                                        const c32* y, const int* incy) {
  return tessera::blas::to_c(tessera::blas::dot_sequential<c32>(*n, x, *incx, y, *incy, false));
}
TESSERA_BLAS_API c_complex_float cdotc_(const int* n, const c32* x, const int* incx,
                                        const c32* y, const int* incy) {
  return tessera::blas::to_c(tessera::blas::dot_sequential<c32>(*n, x, *incx, y, *incy, true));
}
TESSERA_BLAS_API c_complex_double zdotu_(const int* n, const c64* x, const int* incx,
                                         const c64* y, const int* incy) {
  return tessera::blas::to_c(tessera::blas::dot_sequential<c64>(*n, x, *incx, y, *incy, false));
}
TESSERA_BLAS_API c_complex_double zdotc_(const int* n, const c64* x, const int* incx,
                                         const c64* y, const int* incy) {
  return tessera::blas::to_c(tessera::blas::dot_sequential<c64>(*n, x, *incx, y, *incy, true));
}

TESSERA_BLAS_API float scasum_(const int* n, const c32* x, const int* incx) {
  return tessera::blas::asum<c32>(*n, x, *incx);
}
TESSERA_BLAS_API double dzasum_(const int* n, const c64* x, const int* incx) {
  return tessera::blas::asum<c64>(*n, x, *incx);
}

TESSERA_BLAS_API float scnrm2_(const int* n, const c32* x, const int* incx) {
  return tessera::blas::nrm2<c32>(*n, x, *incx);
}
TESSERA_BLAS_API double dznrm2_(const int* n, const c64* x, const int* incx) {
  return tessera::blas::nrm2<c64>(*n, x, *incx);
}

TESSERA_BLAS_API int icamax_(const int* n, const c32* x, const int* incx) {
  return static_cast<int>(tessera::blas::iamax<c32>(*n, x, *incx));
}
TESSERA_BLAS_API int izamax_(const int* n, const c64* x, const int* incx) {
  return static_cast<int>(tessera::blas::iamax<c64>(*n, x, *incx));
}

}  // extern "C"
