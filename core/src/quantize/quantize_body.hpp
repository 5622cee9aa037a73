// DynamicQuantizeLinear's passes (kernels/quantize_kernel.hpp) as plain
// loops the compiler vectorizes with the ISA's flags: instantiated per ISA
// in the backend files with that ISA's traits as the tag V, so each copy is
// a distinct symbol (design.md §Kernel core). The arithmetic is written
// out (comparisons, one division, the round-half-even of
// qgemm_microkernel.hpp): no library call whose vector form could differ.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "core/src/kernels/quantize_kernel.hpp"

namespace tessera::core::quantize {

template <class V>
void range(const float* x, std::size_t n, float* lo, float* hi, std::size_t* bad) {
  // Finite: x - x == 0 (false for infinities and NaN). Two passes (range,
  // then the rare search for the culprit) keep the first loop branch-free.
  float mn = x[0], mx = x[0];
  bool finite = true;
  for (std::size_t i = 0; i < n; ++i) {
    const float v = x[i];
    mn = v < mn ? v : mn;
    mx = v > mx ? v : mx;
    finite = finite & (v - v == 0.0f);
  }
  *lo = mn;
  *hi = mx;
  *bad = n;
  if (!finite) {
    for (std::size_t i = 0; i < n; ++i) {
      if (!(x[i] - x[i] == 0.0f)) {
        *bad = i;
        break;
      }
    }
  }
}

template <class V>
void quantize_u8(const float* x, std::size_t n, float scale, std::int32_t zero_point,
                 std::uint8_t* y) {
  constexpr float kMagic = 12582912.0f;  // 1.5 * 2^23: round half even below 2^22
  const auto lo = static_cast<float>(0 - zero_point);
  const auto hi = static_cast<float>(255 - zero_point);
  for (std::size_t i = 0; i < n; ++i) {
    float v = x[i] / scale;
    v = v < lo ? lo : v;
    v = v > hi ? hi : v;
    y[i] = static_cast<std::uint8_t>(static_cast<std::int32_t>((v + kMagic) - kMagic) + zero_point);
  }
}

template <class V>
constexpr QuantizeKernels quantize_kernels() {
  return {&range<V>, &quantize_u8<V>};
}

}  // namespace tessera::core::quantize
