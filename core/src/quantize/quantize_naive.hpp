// DynamicQuantizeLinear's passes for the naive family: the definition in
// plain scalar code (std::nearbyint for the rounding), the reference the
// levels are checked against.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/src/kernels/quantize_kernel.hpp"

namespace tessera::core::naive {

void range_reference(const float* x, std::size_t n, float* lo, float* hi, std::size_t* bad);
void quantize_u8_reference(const float* x, std::size_t n, float scale, std::int32_t zero_point,
                           std::uint8_t* y);

constexpr QuantizeKernels quantize_kernels() {
  return {&range_reference, &quantize_u8_reference};
}

}  // namespace tessera::core::naive
