// The CBLAS level-1 functions beyond dot, over the same code as the Fortran
// routines (blas/src/level1.hpp). As in the reference CBLAS, cblas_i?amax
// returns a 0-based index (CBLAS_INDEX, a size_t), 0 also when n <= 0 or
// incx <= 0.
#include <cstddef>

#include "blas/src/blas_args.hpp"
#include "blas/src/level1.hpp"

extern "C" {

TESSERA_BLAS_API void cblas_saxpy(int n, float alpha, const float* x, int incx, float* y,
                                  int incy) {
  tessera::blas::axpy<float>(n, alpha, x, incx, y, incy);
}
TESSERA_BLAS_API void cblas_daxpy(int n, double alpha, const double* x, int incx, double* y,
                                  int incy) {
  tessera::blas::axpy<double>(n, alpha, x, incx, y, incy);
}

TESSERA_BLAS_API void cblas_sscal(int n, float alpha, float* x, int incx) {
  tessera::blas::scal<float>(n, alpha, x, incx);
}
TESSERA_BLAS_API void cblas_dscal(int n, double alpha, double* x, int incx) {
  tessera::blas::scal<double>(n, alpha, x, incx);
}

TESSERA_BLAS_API void cblas_scopy(int n, const float* x, int incx, float* y, int incy) {
  tessera::blas::copy<float>(n, x, incx, y, incy);
}
TESSERA_BLAS_API void cblas_dcopy(int n, const double* x, int incx, double* y, int incy) {
  tessera::blas::copy<double>(n, x, incx, y, incy);
}

TESSERA_BLAS_API void cblas_sswap(int n, float* x, int incx, float* y, int incy) {
  tessera::blas::swap<float>(n, x, incx, y, incy);
}
TESSERA_BLAS_API void cblas_dswap(int n, double* x, int incx, double* y, int incy) {
  tessera::blas::swap<double>(n, x, incx, y, incy);
}

TESSERA_BLAS_API float cblas_sasum(int n, const float* x, int incx) {
  return tessera::blas::asum<float>(n, x, incx);
}
TESSERA_BLAS_API double cblas_dasum(int n, const double* x, int incx) {
  return tessera::blas::asum<double>(n, x, incx);
}

TESSERA_BLAS_API float cblas_snrm2(int n, const float* x, int incx) {
  return tessera::blas::nrm2<float>(n, x, incx);
}
TESSERA_BLAS_API double cblas_dnrm2(int n, const double* x, int incx) {
  return tessera::blas::nrm2<double>(n, x, incx);
}

TESSERA_BLAS_API std::size_t cblas_isamax(int n, const float* x, int incx) {
  const auto i = tessera::blas::iamax<float>(n, x, incx);
  return i > 0 ? static_cast<std::size_t>(i - 1) : 0;
}
TESSERA_BLAS_API std::size_t cblas_idamax(int n, const double* x, int incx) {
  const auto i = tessera::blas::iamax<double>(n, x, incx);
  return i > 0 ? static_cast<std::size_t>(i - 1) : 0;
}

}  // extern "C"
