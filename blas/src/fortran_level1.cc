// The Fortran level-1 routines beyond dot (gfortran's calling convention:
// every argument by reference, a REAL function's value returned as a
// float): SAXPY/DAXPY, SSCAL/DSCAL, SCOPY/DCOPY, SSWAP/DSWAP, SASUM/DASUM,
// SNRM2/DNRM2, ISAMAX/IDAMAX. They have no argument that the reference BLAS
// reports to XERBLA: out-of-range sizes and increments are quick returns.
#include "blas/src/blas_args.hpp"
#include "blas/src/level1.hpp"

extern "C" {

TESSERA_BLAS_API void saxpy_(const int* n, const float* alpha, const float* x, const int* incx,
                             float* y, const int* incy) {
  tessera::blas::axpy<float>(*n, *alpha, x, *incx, y, *incy);
}
TESSERA_BLAS_API void daxpy_(const int* n, const double* alpha, const double* x,
                             const int* incx, double* y, const int* incy) {
  tessera::blas::axpy<double>(*n, *alpha, x, *incx, y, *incy);
}

TESSERA_BLAS_API void sscal_(const int* n, const float* alpha, float* x, const int* incx) {
  tessera::blas::scal<float>(*n, *alpha, x, *incx);
}
TESSERA_BLAS_API void dscal_(const int* n, const double* alpha, double* x, const int* incx) {
  tessera::blas::scal<double>(*n, *alpha, x, *incx);
}

TESSERA_BLAS_API void scopy_(const int* n, const float* x, const int* incx, float* y,
                             const int* incy) {
  tessera::blas::copy<float>(*n, x, *incx, y, *incy);
}
TESSERA_BLAS_API void dcopy_(const int* n, const double* x, const int* incx, double* y,
                             const int* incy) {
  tessera::blas::copy<double>(*n, x, *incx, y, *incy);
}

TESSERA_BLAS_API void sswap_(const int* n, float* x, const int* incx, float* y,
                             const int* incy) {
  tessera::blas::swap<float>(*n, x, *incx, y, *incy);
}
TESSERA_BLAS_API void dswap_(const int* n, double* x, const int* incx, double* y,
                             const int* incy) {
  tessera::blas::swap<double>(*n, x, *incx, y, *incy);
}

TESSERA_BLAS_API float sasum_(const int* n, const float* x, const int* incx) {
  return tessera::blas::asum<float>(*n, x, *incx);
}
TESSERA_BLAS_API double dasum_(const int* n, const double* x, const int* incx) {
  return tessera::blas::asum<double>(*n, x, *incx);
}

TESSERA_BLAS_API float snrm2_(const int* n, const float* x, const int* incx) {
  return tessera::blas::nrm2<float>(*n, x, *incx);
}
TESSERA_BLAS_API double dnrm2_(const int* n, const double* x, const int* incx) {
  return tessera::blas::nrm2<double>(*n, x, *incx);
}

TESSERA_BLAS_API int isamax_(const int* n, const float* x, const int* incx) {
  return static_cast<int>(tessera::blas::iamax<float>(*n, x, *incx));
}
TESSERA_BLAS_API int idamax_(const int* n, const double* x, const int* incx) {
  return static_cast<int>(tessera::blas::iamax<double>(*n, x, *incx));
}

}  // extern "C"
