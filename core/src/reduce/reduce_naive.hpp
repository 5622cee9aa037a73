// The naive family's reductions and softmax: plain loops over each row with
// long double accumulation and std::exp / std::log, independent of the
// optimized kernels (no vector traits, no blocks).
#pragma once

#include "core/src/kernels/reduce_kernel.hpp"

namespace tessera::core::naive {

void reduce_f32(ReduceOp op, std::int64_t rows, std::int64_t cols, const float* x,
                std::int64_t ldx, float* out);
void reduce_f64(ReduceOp op, std::int64_t rows, std::int64_t cols, const double* x,
                std::int64_t ldx, double* out);
void argmax_f32(std::int64_t rows, std::int64_t cols, const float* x, std::int64_t ldx,
                std::int64_t* out);
void argmax_f64(std::int64_t rows, std::int64_t cols, const double* x, std::int64_t ldx,
                std::int64_t* out);
void softmax_f32(bool log, std::int64_t rows, std::int64_t cols, const float* x,
                 std::int64_t ldx, float* y, std::int64_t ldy);
void softmax_f64(bool log, std::int64_t rows, std::int64_t cols, const double* x,
                 std::int64_t ldx, double* y, std::int64_t ldy);

constexpr ReduceKernels reduce_kernels() {
  ReduceKernels k;
  k.f32.naive_reduce = &reduce_f32;
  k.f32.naive_argmax = &argmax_f32;
  k.f32.naive_softmax = &softmax_f32;
  k.f64.naive_reduce = &reduce_f64;
  k.f64.naive_argmax = &argmax_f64;
  k.f64.naive_softmax = &softmax_f64;
  return k;
}

}  // namespace tessera::core::naive
