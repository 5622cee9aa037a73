#include "core/src/half/half_naive.hpp"

#include <cmath>
#include <cstdint>

#include "core/src/simd/half_bits.hpp"

namespace tessera::core::naive {
namespace {

// A 16-bit format with `mantissa` stored bits and exponent bias `bias`
// (f16: 10, 15; bf16: 7, 127) and 5 or 8 exponent bits.
struct Format {
  int mantissa;
  int bias;
  int exponent_bits;
};
constexpr Format kF16 = {10, 15, 5};
constexpr Format kBf16 = {7, 127, 8};

std::uint16_t narrow(float x, Format f) {
  const std::uint32_t u = half::bits_of(x);
  const std::uint16_t sign = (u >> 31) != 0 ? 0x8000 : 0;
  const int max_exponent = (1 << f.exponent_bits) - 1;
  const std::uint16_t inf = static_cast<std::uint16_t>(max_exponent << f.mantissa);
  if (std::isnan(x)) {
    // Quiet, with the payload's leading bits that fit.
    const std::uint32_t payload = (u & 0x7FFFFFu) >> (23 - f.mantissa);
    return static_cast<std::uint16_t>(sign | inf | (1u << (f.mantissa - 1)) | payload);
  }
  const double a = std::fabs(static_cast<double>(x));
  if (std::isinf(a)) return static_cast<std::uint16_t>(sign | inf);
  const int min_exponent = 1 - f.bias;  // of the smallest normal
  int e = 0;
  std::frexp(a, &e);  // a = m 2^e, m in [0.5, 1); 0 gives e = 0
  int exponent = e - 1;  // a = (1.f) 2^exponent
  if (a == 0.0 || exponent < min_exponent) {
    // Subnormal: whole units of 2^(min_exponent - mantissa).
    const double units = std::nearbyint(std::ldexp(a, f.mantissa - min_exponent));
    return static_cast<std::uint16_t>(sign | static_cast<std::uint32_t>(units));  // 2^mantissa: the smallest normal
  }
  double significand = std::nearbyint(std::ldexp(a, f.mantissa - exponent));  // [2^m, 2^(m+1)]
  if (significand == std::ldexp(1.0, f.mantissa + 1)) {
    significand /= 2;
    ++exponent;
  }
  const int biased = exponent + f.bias;
  if (biased >= max_exponent) return static_cast<std::uint16_t>(sign | inf);
  const auto fraction = static_cast<std::uint32_t>(significand) - (1u << f.mantissa);
  return static_cast<std::uint16_t>(sign | (static_cast<std::uint32_t>(biased) << f.mantissa) |
                                    fraction);
}

float widen(std::uint16_t h, Format f) {
  const bool negative = (h & 0x8000) != 0;
  const int max_exponent = (1 << f.exponent_bits) - 1;
  const int biased = (h >> f.mantissa) & max_exponent;
  const std::uint32_t fraction = h & ((1u << f.mantissa) - 1);
  float value;
  if (biased == max_exponent) {
    if (fraction != 0) {
      // Quiet, the payload in the leading mantissa bits, the sign kept.
      return half::float_of((negative ? 0x80000000u : 0u) | 0x7FC00000u |
                                  (fraction << (23 - f.mantissa)));
    }
    value = INFINITY;
  } else if (biased == 0) {
    value = static_cast<float>(std::ldexp(static_cast<double>(fraction), 1 - f.bias - f.mantissa));
  } else {
    value = static_cast<float>(
        std::ldexp(1.0 + std::ldexp(static_cast<double>(fraction), -f.mantissa), biased - f.bias));
  }
  return negative ? -value : value;
}

}  // namespace

void f32_to_f16(const float* x, std::uint16_t* y, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) y[i] = narrow(x[i], kF16);
}
void f16_to_f32(const std::uint16_t* x, float* y, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) y[i] = widen(x[i], kF16);
}
void f32_to_bf16(const float* x, std::uint16_t* y, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) y[i] = narrow(x[i], kBf16);
}
void bf16_to_f32(const std::uint16_t* x, float* y, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) y[i] = widen(x[i], kBf16);
}

}  // namespace tessera::core::naive
