// SDOT / DDOT with the Fortran BLAS interface (gfortran returns a REAL
// function's value as a float), run by tessera::try_dot. The reference BLAS
// takes any increment, 0 included (the same element n times); tessera's dot
// rejects 0, so an increment of 0 is expanded here into a contiguous copy of
// that one repeated value, keeping the fixed-block summation order.
#include <cstddef>
#include <vector>

#include "blas/src/blas_args.hpp"
#include "tessera/blas1.hpp"

namespace tessera::blas {
namespace {

template <class T>
T dot(const char* routine, const int* n, const T* x, const int* incx, const T* y,
      const int* incy) {
  if (*n <= 0) return T(0);
  std::vector<T> xs, ys;
  std::int64_t ix = *incx, iy = *incy;
  if (ix == 0) {
    xs.assign(static_cast<std::size_t>(*n), x[0]);
    x = xs.data();
    ix = 1;
  }
  if (iy == 0) {
    ys.assign(static_cast<std::size_t>(*n), y[0]);
    y = ys.data();
    iy = 1;
  }
  T result = T(0);
  Status s = try_dot(blas_context(), *n, x, ix, y, iy, &result);
  if (!s.ok()) report_failure(routine, s);
  return result;
}

}  // namespace
}  // namespace tessera::blas

extern "C" {

TESSERA_BLAS_API float sdot_(const int* n, const float* x, const int* incx, const float* y,
                             const int* incy) {
  return tessera::blas::dot("SDOT", n, x, incx, y, incy);
}

TESSERA_BLAS_API double ddot_(const int* n, const double* x, const int* incx, const double* y,
                              const int* incy) {
  return tessera::blas::dot("DDOT", n, x, incx, y, incy);
}

}  // extern "C"
