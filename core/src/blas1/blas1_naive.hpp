// The naive family's dot and gemv: plain loops with double accumulation,
// independent of the optimized kernels (no vector traits, no blocking).
#pragma once

#include "core/src/kernels/blas1_kernel.hpp"

namespace tessera::core::naive {

float dot_f32(std::int64_t n, const float* x, std::int64_t incx, const float* y,
              std::int64_t incy);
double dot_f64(std::int64_t n, const double* x, std::int64_t incx, const double* y,
               std::int64_t incy);
void gemv_f32(const GemvProblem<float>& problem);
void gemv_f64(const GemvProblem<double>& problem);

constexpr Blas1Kernels blas1_kernels() {
  Blas1Kernels k;
  k.f32.naive_dot = &dot_f32;
  k.f32.naive_gemv = &gemv_f32;
  k.f64.naive_dot = &dot_f64;
  k.f64.naive_gemv = &gemv_f64;
  return k;
}

}  // namespace tessera::core::naive
