// The half-precision conversions in integer vector code, for levels whose
// CPU has no conversion instruction (SSE2, SIMD128) and for bf16, which
// only AVX512-BF16 converts (and that instruction flushes subnormals): one
// algorithm per direction, generic in a level's 32-bit lane traits U:
//
//   V, kLanes                 a register of kLanes 32-bit lanes
//   load(const float*), store(float*, V)          the f32 bits
//   load_u16(const uint16_t*)  kLanes 16-bit values, zero-extended
//   store_u16(uint16_t*, V)    the low 16 bits of each lane (all < 2^16)
//   set1(uint32_t), add, sub, bit_and, bit_or, shr<k>, shl<k>
//   gt(a, b)                  a mask (U::Mask) of the lanes where a > b
//                             (both below 2^31)
//   select(mask, t, f)
//   add_f32(a, b), sub_f32(a, b)   IEEE add / subtract of the lanes as f32
//
// Each result equals core/src/simd/half_bits.hpp's, lane by lane (the
// conversion tests compare every level on all 2^16 half values and a dense
// f32 sweep). The float steps run in round-to-nearest-even on normal
// numbers only, where every target rounds alike.
#pragma once

#include <cstdint>

namespace tessera::simd {

// f32 -> f16: the normal range by integer rounding on the rebiased bits;
// the subnormal range by adding 0.5, whose ulp (2^-24) is the f16 subnormal
// unit, so the float adder rounds to a whole unit (then 0.5 is taken away
// again in the bits).
template <class U>
void f32_to_f16_lanes(const float* x, std::uint16_t* y) {
  using V = typename U::V;
  const V u = U::load(x);
  const V a = U::bit_and(u, U::set1(0x7FFFFFFFu));
  const V sign = U::bit_and(U::template shr<16>(u), U::set1(0x8000u));
  V normal = U::sub(a, U::set1(0x38000000u));
  normal = U::add(U::add(normal, U::set1(0x0FFFu)),
                  U::bit_and(U::template shr<13>(normal), U::set1(1u)));
  normal = U::template shr<13>(normal);
  const V half_magic = U::set1(0x3F000000u);  // 0.5f
  const V subnormal = U::sub(U::add_f32(a, half_magic), half_magic);
  const V nan = U::bit_or(U::set1(0x7E00u), U::bit_and(U::template shr<13>(a), U::set1(0x3FFu)));
  V out = U::select(U::gt(U::set1(0x38800000u), a), subnormal, normal);
  out = U::select(U::gt(a, U::set1(0x477FEFFFu)), U::set1(0x7C00u), out);
  out = U::select(U::gt(a, U::set1(0x7F800000u)), nan, out);
  U::store_u16(y, U::bit_or(out, sign));
}

// f16 -> f32: exponent rebiased in the bits; infinities and NaNs rebiased
// to 255 (a NaN made quiet); zero and subnormals as (2^-14 + m 2^-24) -
// 2^-14, exact in f32. h: the f16 bits in the low half of each lane.
template <class U>
typename U::V f16_bits_to_f32_bits(typename U::V h) {
  using V = typename U::V;
  const V em = U::bit_and(h, U::set1(0x7FFFu));
  const V sign = U::template shl<16>(U::bit_and(h, U::set1(0x8000u)));
  const V shifted = U::template shl<13>(em);
  const V normal = U::add(shifted, U::set1(112u << 23));
  const V magic = U::set1(113u << 23);  // 2^-14
  const V subnormal = U::sub_f32(U::add(shifted, magic), magic);
  V special = U::add(shifted, U::set1(224u << 23));
  special = U::select(U::gt(em, U::set1(0x7C00u)), U::bit_or(special, U::set1(0x400000u)),
                      special);
  V out = U::select(U::gt(U::set1(0x0400u), em), subnormal, normal);
  out = U::select(U::gt(em, U::set1(0x7BFFu)), special, out);
  return U::bit_or(out, sign);
}

template <class U>
void f16_to_f32_lanes(const std::uint16_t* x, float* y) {
  U::store(y, f16_bits_to_f32_bits<U>(U::load_u16(x)));
}

// f32 -> bf16: add 0x7FFF plus the kept part's lowest bit, keep the top 16
// bits (a carry rounds up into the exponent, to infinity past the largest);
// a NaN keeps its top bits, made quiet.
template <class U>
void f32_to_bf16_lanes(const float* x, std::uint16_t* y) {
  using V = typename U::V;
  const V u = U::load(x);
  const V top = U::template shr<16>(u);
  const V rounded =
      U::template shr<16>(U::add(U::add(u, U::set1(0x7FFFu)), U::bit_and(top, U::set1(1u))));
  const auto is_nan = U::gt(U::bit_and(u, U::set1(0x7FFFFFFFu)), U::set1(0x7F800000u));
  U::store_u16(y, U::select(is_nan, U::bit_or(top, U::set1(0x40u)), rounded));
}

// bf16 -> f32: the bits shifted up; a NaN made quiet.
template <class U>
typename U::V bf16_bits_to_f32_bits(typename U::V h) {
  const typename U::V u = U::template shl<16>(h);
  const auto is_nan = U::gt(U::bit_and(h, U::set1(0x7FFFu)), U::set1(0x7F80u));
  return U::select(is_nan, U::bit_or(u, U::set1(0x400000u)), u);
}

template <class U>
void bf16_to_f32_lanes(const std::uint16_t* x, float* y) {
  U::store(y, bf16_bits_to_f32_bits<U>(U::load_u16(x)));
}

// A level's conversions all in integer code (kLanes from U).
template <class U>
struct IntegerHalf {
  static constexpr int kLanes = U::kLanes;
  static void f32_to_f16(const float* x, std::uint16_t* y) { f32_to_f16_lanes<U>(x, y); }
  static void f16_to_f32(const std::uint16_t* x, float* y) { f16_to_f32_lanes<U>(x, y); }
  static void f32_to_bf16(const float* x, std::uint16_t* y) { f32_to_bf16_lanes<U>(x, y); }
  static void bf16_to_f32(const std::uint16_t* x, float* y) { bf16_to_f32_lanes<U>(x, y); }
};

}  // namespace tessera::simd
