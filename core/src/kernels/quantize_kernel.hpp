// Quantization entries of a KernelTable: DynamicQuantizeLinear's two passes
// over a block of floats (tessera/quantized.hpp). Every operation is an
// exact comparison or one IEEE operation in a fixed order, so every level
// gives the same bits.
#pragma once

#include <cstddef>
#include <cstdint>

namespace tessera::core {

// The smallest and largest of x[0..n), n > 0, into *lo and *hi, and the
// index of its first element that is not finite into *bad (n when all
// are).
using RangeFn = void (*)(const float* x, std::size_t n, float* lo, float* hi, std::size_t* bad);

// y[i] = round_half_even(clamp(x[i] / scale, 0 - zero_point, 255 -
// zero_point)) + zero_point, i < n: onnxruntime's QuantizeLinear to u8
// (clamped in float, then rounded: the same value as rounding first).
using QuantizeU8Fn = void (*)(const float* x, std::size_t n, float scale,
                              std::int32_t zero_point, std::uint8_t* y);

struct QuantizeKernels {
  RangeFn range = nullptr;
  QuantizeU8Fn quantize_u8 = nullptr;
};

}  // namespace tessera::core
