// The conversion kernels of a level, from its Half traits (vec_<isa>.hpp):
// whole registers of H::kLanes values, then the rest one at a time through
// half_bits.hpp, which every register form equals. Each output depends on
// its input alone, so where a block starts never changes a bit.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/src/simd/half_bits.hpp"
#include "core/src/kernels/half_kernel.hpp"

namespace tessera::half {

template <class H>
void f32_to_f16(const float* x, std::uint16_t* y, std::size_t n) {
  std::size_t i = 0;
  for (; i + H::kLanes <= n; i += H::kLanes) H::f32_to_f16(x + i, y + i);
  for (; i < n; ++i) y[i] = f32_to_f16_bits(half::bits_of(x[i]));
}

template <class H>
void f16_to_f32(const std::uint16_t* x, float* y, std::size_t n) {
  std::size_t i = 0;
  for (; i + H::kLanes <= n; i += H::kLanes) H::f16_to_f32(x + i, y + i);
  for (; i < n; ++i) y[i] = half::float_of(f16_to_f32_bits(x[i]));
}

template <class H>
void f32_to_bf16(const float* x, std::uint16_t* y, std::size_t n) {
  std::size_t i = 0;
  for (; i + H::kLanes <= n; i += H::kLanes) H::f32_to_bf16(x + i, y + i);
  for (; i < n; ++i) y[i] = f32_to_bf16_bits(half::bits_of(x[i]));
}

template <class H>
void bf16_to_f32(const std::uint16_t* x, float* y, std::size_t n) {
  std::size_t i = 0;
  for (; i + H::kLanes <= n; i += H::kLanes) H::bf16_to_f32(x + i, y + i);
  for (; i < n; ++i) y[i] = half::float_of(bf16_to_f32_bits(x[i]));
}

template <class H>
constexpr core::HalfKernels half_kernels() {
  return {&f32_to_f16<H>, &f16_to_f32<H>, &f32_to_bf16<H>, &bf16_to_f32<H>,
          H::kF16Method, H::kBf16Method};
}

}  // namespace tessera::half
