// One value at a time, on the bits alone: the conversions every level's
// kernels equal (their tails call these), in integer operations only, so
// no rounding mode or flush-to-zero setting can change them.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>

namespace tessera::half {

// An f32's bits and back (memcpy: Emscripten 3.1.6's libc++ has no
// std::bit_cast).
inline std::uint32_t bits_of(float x) {
  std::uint32_t u;
  std::memcpy(&u, &x, sizeof u);
  return u;
}
inline float float_of(std::uint32_t u) {
  float x;
  std::memcpy(&x, &u, sizeof x);
  return x;
}

// f32 bits to f16 bits, round to nearest even.
constexpr std::uint16_t f32_to_f16_bits(std::uint32_t u) {
  const std::uint32_t sign = (u >> 16) & 0x8000u;
  const std::uint32_t a = u & 0x7FFFFFFFu;
  if (a > 0x7F800000u) {  // NaN: quiet, the payload's top 9 bits kept
    return static_cast<std::uint16_t>(sign | 0x7E00u | ((a >> 13) & 0x3FFu));
  }
  if (a >= 0x477FF000u) {  // >= 65520 (65504 + half its ulp, odd): infinity
    return static_cast<std::uint16_t>(sign | 0x7C00u);
  }
  if (a >= 0x38800000u) {  // >= 2^-14: a normal f16; rebias the exponent
    std::uint32_t r = a - 0x38000000u;
    r += 0x0FFFu + ((r >> 13) & 1u);  // a carry out of the mantissa bumps the exponent
    return static_cast<std::uint16_t>(sign | (r >> 13));
  }
  // Subnormal f16 (or zero): units of 2^-24. The value is m * 2^(e - 150)
  // with m's hidden bit, so m >> (126 - e) units; below 2^-25 it rounds to 0.
  const std::uint32_t e = a >> 23;
  if (e < 102) return static_cast<std::uint16_t>(sign);
  const std::uint32_t m = (a & 0x7FFFFFu) | 0x800000u;
  const std::uint32_t shift = 126 - e;  // 14..24
  std::uint32_t q = m >> shift;
  const std::uint32_t rest = m & ((1u << shift) - 1);
  const std::uint32_t half = 1u << (shift - 1);
  if (rest > half || (rest == half && (q & 1u) != 0)) ++q;  // 0x400 is the smallest normal
  return static_cast<std::uint16_t>(sign | q);
}

// f16 bits to f32 bits (exact; a NaN made quiet).
constexpr std::uint32_t f16_to_f32_bits(std::uint16_t h) {
  const std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000u) << 16;
  const std::uint32_t e = (h >> 10) & 0x1Fu;
  const std::uint32_t m = h & 0x3FFu;
  if (e == 0x1F) return sign | 0x7F800000u | (m << 13) | (m != 0 ? 0x400000u : 0u);
  if (e != 0) return sign | ((e + 112) << 23) | (m << 13);
  if (m == 0) return sign;
  // m * 2^-24 with m's top bit at p: exponent p - 24, the bits below it
  // the mantissa.
  const auto p = static_cast<std::uint32_t>(std::bit_width(m) - 1);
  return sign | ((p + 103) << 23) | ((m << (23 - p)) & 0x7FFFFFu);
}

// f32 bits to bf16 bits, round to nearest even.
constexpr std::uint16_t f32_to_bf16_bits(std::uint32_t u) {
  if ((u & 0x7FFFFFFFu) > 0x7F800000u) return static_cast<std::uint16_t>((u >> 16) | 0x40u);
  return static_cast<std::uint16_t>((u + 0x7FFFu + ((u >> 16) & 1u)) >> 16);
}

// bf16 bits to f32 bits (exact; a NaN made quiet).
constexpr std::uint32_t bf16_to_f32_bits(std::uint16_t h) {
  const std::uint32_t u = static_cast<std::uint32_t>(h) << 16;
  return (h & 0x7FFFu) > 0x7F80u ? u | 0x400000u : u;
}

}  // namespace tessera::half
