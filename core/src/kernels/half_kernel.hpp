// Half-precision entries of a KernelTable: f32 <-> IEEE 754 binary16 (f16)
// and f32 <-> bfloat16 (bf16) over n elements, the 16-bit values as their
// bits. Narrowing rounds to nearest, ties to even; NaNs stay NaN, made quiet,
// keeping the payload bits that fit; infinities, signed zeros and
// subnormals convert exactly. Every level gives the same bits
// (design.md §Half precision).
#pragma once

#include <cstddef>
#include <cstdint>

namespace tessera::core {

using NarrowFn = void (*)(const float* x, std::uint16_t* y, std::size_t n);
using WidenFn = void (*)(const std::uint16_t* x, float* y, std::size_t n);

struct HalfKernels {
  NarrowFn f32_to_f16 = nullptr;
  WidenFn f16_to_f32 = nullptr;
  NarrowFn f32_to_bf16 = nullptr;
  WidenFn bf16_to_f32 = nullptr;
  // How the level converts ("F16C vcvtps2ph ymm", "integer i32x4"), for
  // the inventory.
  const char* f16_method = "";
  const char* bf16_method = "";
};

}  // namespace tessera::core
