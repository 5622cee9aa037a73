// The naive family's half-precision conversions: the values computed in
// double arithmetic (frexp, exact scaling by powers of two, nearbyint in
// the default round-to-nearest-even mode), not on the bits, so they check
// the bit-level code of every level independently.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/src/kernels/half_kernel.hpp"

namespace tessera::core::naive {

void f32_to_f16(const float* x, std::uint16_t* y, std::size_t n);
void f16_to_f32(const std::uint16_t* x, float* y, std::size_t n);
void f32_to_bf16(const float* x, std::uint16_t* y, std::size_t n);
void bf16_to_f32(const std::uint16_t* x, float* y, std::size_t n);

constexpr core::HalfKernels half_kernels() {
  return {&f32_to_f16, &f16_to_f32, &f32_to_bf16, &bf16_to_f32, "double arithmetic",
          "double arithmetic"};
}

}  // namespace tessera::core::naive
