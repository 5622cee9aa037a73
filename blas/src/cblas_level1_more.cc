// The CBLAS level-1 functions beyond cblas_level1.cc's real ones:
// complex vectors (scalars and arrays passed as void*, dot products
// through the _sub forms), the rotations, sdsdot/dsdot and scabs1/dcabs1.
// cblas_i?amax returns a 0-based index, 0 also when n <= 0 or incx <= 0.
#include <complex>
#include <cstddef>

#include "blas/src/cblas_args.hpp"
#include "blas/src/level1.hpp"
#include "blas/src/level1_dot.hpp"
#include "blas/src/rotations.hpp"

using tessera::blas::c32;
using tessera::blas::c64;
using tessera::blas::cblas_array;
using tessera::blas::cblas_scalar;

// Named, not anonymous: the unity builds merge every libtessera_blas
// source into one translation unit.
namespace tessera::blas::cblas1 {

std::size_t zero_based(std::int64_t index) {
  return index > 0 ? static_cast<std::size_t>(index - 1) : 0;
}

}  // namespace tessera::blas::cblas1

using tessera::blas::cblas1::zero_based;

extern "C" {

TESSERA_BLAS_API void cblas_caxpy(int n, const void* alpha, const void* x, int incx, void* y,
                                  int incy) {
  tessera::blas::axpy<c32>(n, cblas_scalar<c32>(alpha), cblas_array<c32>(x), incx,
                           cblas_array<c32>(y), incy);
}
TESSERA_BLAS_API void cblas_zaxpy(int n, const void* alpha, const void* x, int incx, void* y,
                                  int incy) {
  tessera::blas::axpy<c64>(n, cblas_scalar<c64>(alpha), cblas_array<c64>(x), incx,
                           cblas_array<c64>(y), incy);
}

TESSERA_BLAS_API void cblas_cscal(int n, const void* alpha, void* x, int incx) {
  tessera::blas::scal<c32>(n, cblas_scalar<c32>(alpha), cblas_array<c32>(x), incx);
}
TESSERA_BLAS_API void cblas_zscal(int n, const void* alpha, void* x, int incx) {
  tessera::blas::scal<c64>(n, cblas_scalar<c64>(alpha), cblas_array<c64>(x), incx);
}
TESSERA_BLAS_API void cblas_csscal(int n, float alpha, void* x, int incx) {
  tessera::blas::scal<c32>(n, c32(alpha), cblas_array<c32>(x), incx);
}
TESSERA_BLAS_API void cblas_zdscal(int n, double alpha, void* x, int incx) {
  tessera::blas::scal<c64>(n, c64(alpha), cblas_array<c64>(x), incx);
}

TESSERA_BLAS_API void cblas_ccopy(int n, const void* x, int incx, void* y, int incy) {
  tessera::blas::copy<c32>(n, cblas_array<c32>(x), incx, cblas_array<c32>(y), incy);
}
TESSERA_BLAS_API void cblas_zcopy(int n, const void* x, int incx, void* y, int incy) {
  tessera::blas::copy<c64>(n, cblas_array<c64>(x), incx, cblas_array<c64>(y), incy);
}

TESSERA_BLAS_API void cblas_cswap(int n, void* x, int incx, void* y, int incy) {
  tessera::blas::swap<c32>(n, cblas_array<c32>(x), incx, cblas_array<c32>(y), incy);
}
TESSERA_BLAS_API void cblas_zswap(int n, void* x, int incx, void* y, int incy) {
  tessera::blas::swap<c64>(n, cblas_array<c64>(x), incx, cblas_array<c64>(y), incy);
}

TESSERA_BLAS_API void cblas_cdotu_sub(int n, const void* x, int incx, const void* y, int incy,
                                      void* dot) {
  *cblas_array<c32>(dot) = tessera::blas::dot_sequential<c32>(
      n, cblas_array<c32>(x), incx, cblas_array<c32>(y), incy, false);
}
TESSERA_BLAS_API void cblas_cdotc_sub(int n, const void* x, int incx, const void* y, int incy,
                                      void* dot) {
  *cblas_array<c32>(dot) = tessera::blas::dot_sequential<c32>(
      n, cblas_array<c32>(x), incx, cblas_array<c32>(y), incy, true);
}
TESSERA_BLAS_API void cblas_zdotu_sub(int n, const void* x, int incx, const void* y, int incy,
                                      void* dot) {
  *cblas_array<c64>(dot) = tessera::blas::dot_sequential<c64>(
      n, cblas_array<c64>(x), incx, cblas_array<c64>(y), incy, false);
}
TESSERA_BLAS_API void cblas_zdotc_sub(int n, const void* x, int incx, const void* y, int incy,
                                      void* dot) {
  *cblas_array<c64>(dot) = tessera::blas::dot_sequential<c64>(
      n, cblas_array<c64>(x), incx, cblas_array<c64>(y), incy, true);
}

TESSERA_BLAS_API float cblas_scasum(int n, const void* x, int incx) {
  return tessera::blas::asum<c32>(n, cblas_array<c32>(x), incx);
}
TESSERA_BLAS_API double cblas_dzasum(int n, const void* x, int incx) {
  return tessera::blas::asum<c64>(n, cblas_array<c64>(x), incx);
}

TESSERA_BLAS_API float cblas_scnrm2(int n, const void* x, int incx) {
  return tessera::blas::nrm2<c32>(n, cblas_array<c32>(x), incx);
}
TESSERA_BLAS_API double cblas_dznrm2(int n, const void* x, int incx) {
  return tessera::blas::nrm2<c64>(n, cblas_array<c64>(x), incx);
}

TESSERA_BLAS_API std::size_t cblas_icamax(int n, const void* x, int incx) {
  return zero_based(tessera::blas::iamax<c32>(n, cblas_array<c32>(x), incx));
}
TESSERA_BLAS_API std::size_t cblas_izamax(int n, const void* x, int incx) {
  return zero_based(tessera::blas::iamax<c64>(n, cblas_array<c64>(x), incx));
}

TESSERA_BLAS_API float cblas_sdsdot(int n, float alpha, const float* x, int incx, const float* y,
                                    int incy) {
  return static_cast<float>(tessera::blas::dot_in_double(alpha, n, x, incx, y, incy));
}
TESSERA_BLAS_API double cblas_dsdot(int n, const float* x, int incx, const float* y, int incy) {
  return tessera::blas::dot_in_double(0.0, n, x, incx, y, incy);
}

TESSERA_BLAS_API float cblas_scabs1(const void* c) {
  return tessera::blas::abs1(cblas_scalar<c32>(c));
}
TESSERA_BLAS_API double cblas_dcabs1(const void* z) {
  return tessera::blas::abs1(cblas_scalar<c64>(z));
}

TESSERA_BLAS_API void cblas_srot(int n, float* x, int incx, float* y, int incy, float c,
                                 float s) {
  tessera::blas::rot(n, x, incx, y, incy, c, s);
}
TESSERA_BLAS_API void cblas_drot(int n, double* x, int incx, double* y, int incy, double c,
                                 double s) {
  tessera::blas::rot(n, x, incx, y, incy, c, s);
}
TESSERA_BLAS_API void cblas_csrot(int n, void* x, int incx, void* y, int incy, float c,
                                  float s) {
  tessera::blas::rot(n, cblas_array<c32>(x), incx, cblas_array<c32>(y), incy, c, s);
}
TESSERA_BLAS_API void cblas_zdrot(int n, void* x, int incx, void* y, int incy, double c,
                                  double s) {
  tessera::blas::rot(n, cblas_array<c64>(x), incx, cblas_array<c64>(y), incy, c, s);
}

TESSERA_BLAS_API void cblas_srotg(float* a, float* b, float* c, float* s) {
  tessera::blas::rotg(a, b, c, s);
}
TESSERA_BLAS_API void cblas_drotg(double* a, double* b, double* c, double* s) {
  tessera::blas::rotg(a, b, c, s);
}
TESSERA_BLAS_API void cblas_crotg(void* a, const void* b, float* c, void* s) {
  tessera::blas::rotg(cblas_array<c32>(a), cblas_array<c32>(b), c, cblas_array<c32>(s));
}
TESSERA_BLAS_API void cblas_zrotg(void* a, const void* b, double* c, void* s) {
  tessera::blas::rotg(cblas_array<c64>(a), cblas_array<c64>(b), c, cblas_array<c64>(s));
}

TESSERA_BLAS_API void cblas_srotm(int n, float* x, int incx, float* y, int incy,
                                  const float* param) {
  tessera::blas::rotm(n, x, incx, y, incy, param);
}
TESSERA_BLAS_API void cblas_drotm(int n, double* x, int incx, double* y, int incy,
                                  const double* param) {
  tessera::blas::rotm(n, x, incx, y, incy, param);
}

TESSERA_BLAS_API void cblas_srotmg(float* d1, float* d2, float* x1, float y1, float* param) {
  tessera::blas::rotmg(d1, d2, x1, y1, param);
}
TESSERA_BLAS_API void cblas_drotmg(double* d1, double* d2, double* x1, double y1,
                                   double* param) {
  tessera::blas::rotmg(d1, d2, x1, y1, param);
}

}  // extern "C"
