// The dot products the level-1 BLAS has beside sdot/ddot (fortran_dot.cc,
// on tessera's dot kernels): the complex dotu (x^T y) and dotc (x^H y),
// and the mixed-precision sdsdot (sb + x^T y accumulated in double,
// returned as float) and dsdot (the same, returned as double). Sequential
// on the calling thread, one fixed order of additions, any increments (a
// negative one walks the vector backwards, 0 repeats an element).
#pragma once

#include <cstdint>

#include "blas/src/scalar.hpp"

namespace tessera::blas {

template <class T>
T dot_sequential(std::int64_t n, const T* xp, std::int64_t incx, const T* yp, std::int64_t incy,
                 bool conj_x) {
  T sum = T(0);
  if (n <= 0) return sum;
  StridedVector<const T> x(xp, n, incx), y(yp, n, incy);
  for (std::int64_t i = 0; i < n; ++i) sum += conj_if(x[i], conj_x) * y[i];
  return sum;
}

// start + sum_i x_i y_i of float vectors, each product and the sum in
// double (sdsdot starts from its sb, dsdot from 0).
inline double dot_in_double(double start, std::int64_t n, const float* xp, std::int64_t incx,
                            const float* yp, std::int64_t incy) {
  double sum = start;
  if (n <= 0) return sum;
  StridedVector<const float> x(xp, n, incx), y(yp, n, incy);
  for (std::int64_t i = 0; i < n; ++i) sum += static_cast<double>(x[i]) * y[i];
  return sum;
}

}  // namespace tessera::blas
