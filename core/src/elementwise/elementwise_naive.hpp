// The naive family's elementwise kernels: plain loops written independently
// of the SIMD bodies, the reference every backend is checked against.
#pragma once

#include <cstddef>

namespace tessera::core::naive {

void add_f32(const float* a, const float* b, float* y, std::size_t n);
void mul_f32(const float* a, const float* b, float* y, std::size_t n);
// relu(x) = x < 0 ? 0 : x. NaN and -0 pass through unchanged.
void relu_f32(const float* x, float* y, std::size_t n);

}  // namespace tessera::core::naive
