#include "core/src/blas1/blas1_naive.hpp"

namespace tessera::core::naive {
namespace {

template <class T>
T dot(std::int64_t n, const T* x, std::int64_t incx, const T* y, std::int64_t incy) {
  double sum = 0.0;
  for (std::int64_t i = 0; i < n; ++i) {
    sum += static_cast<double>(x[i * incx]) * static_cast<double>(y[i * incy]);
  }
  return static_cast<T>(sum);
}

// As the reference BLAS: alpha == 0 reads neither A nor x; beta == 0 does not
// read y (a NaN there is overwritten).
template <class T>
void gemv(const GemvProblem<T>& pr) {
  for (std::int64_t i = 0; i < pr.m; ++i) {
    T& y = pr.y[i * pr.incy];
    double value = pr.beta == T(0) ? 0.0 : static_cast<double>(pr.beta) * static_cast<double>(y);
    if (pr.alpha != T(0)) {
      double sum = 0.0;
      for (std::int64_t p = 0; p < pr.k; ++p) {
        sum += static_cast<double>(pr.a[i * pr.rs + p * pr.cs]) *
               static_cast<double>(pr.x[p * pr.incx]);
      }
      value += static_cast<double>(pr.alpha) * sum;
    }
    y = static_cast<T>(value);
  }
}

}  // namespace

float dot_f32(std::int64_t n, const float* x, std::int64_t incx, const float* y,
              std::int64_t incy) {
  return dot(n, x, incx, y, incy);
}
double dot_f64(std::int64_t n, const double* x, std::int64_t incx, const double* y,
               std::int64_t incy) {
  return dot(n, x, incx, y, incy);
}
void gemv_f32(const GemvProblem<float>& problem) { gemv(problem); }
void gemv_f64(const GemvProblem<double>& problem) { gemv(problem); }

}  // namespace tessera::core::naive
