// NEON vector traits (4 x f32, 2 x f64), fused mul_add (vfmaq).
#pragma once

#include <arm_neon.h>

#include <cstdint>
#include <cstring>

#include "core/src/simd/ieee_minmax.hpp"
#include "core/src/simd/half_integer.hpp"
#include "core/src/simd/int8_packing.hpp"
#include "core/src/simd/vec_scalar.hpp"

namespace tessera::simd::neon {

struct F32 {
  using Scalar = float;
  using Reg = float32x4_t;
  static constexpr int kLanes = 4;
  static Reg load(const float* p) { return vld1q_f32(p); }
  static void store(float* p, Reg v) { vst1q_f32(p, v); }
  static Reg set1(float x) { return vdupq_n_f32(x); }
  static Reg broadcast(const float* p) { return vld1q_dup_f32(p); }
  static Reg zero() { return vdupq_n_f32(0.0f); }
  static Reg add(Reg a, Reg b) { return vaddq_f32(a, b); }
  static Reg mul(Reg a, Reg b) { return vmulq_f32(a, b); }
  static Reg mul_add(Reg a, Reg b, Reg c) { return vfmaq_f32(c, a, b); }
  // c + b * lanes[L] (FMLA by element): the GEMM microkernel multiplies a
  // B vector by one of four A values loaded together, so an 8-row A step
  // takes two registers instead of eight broadcasts (gemm_microkernel.hpp).
  // The same single rounding as mul_add.
  template <int L>
  static Reg mul_add_lane(Reg lanes, Reg b, Reg c) { return vfmaq_laneq_f32(c, b, lanes, L); }
  // Select, not vmaxq: FMAX(+0, -0) is +0, the naive family keeps -0.
  static Reg relu(Reg x) {
    return vbslq_f32(vcltq_f32(x, vdupq_n_f32(0.0f)), vdupq_n_f32(0.0f), x);
  }
  static Reg sub(Reg a, Reg b) { return vsubq_f32(a, b); }
  static Reg div(Reg a, Reg b) { return vdivq_f32(a, b); }
  static Reg sqrt(Reg x) { return vsqrtq_f32(x); }
  // FABS / FNEG are sign-bit operations, NaN included.
  static Reg abs(Reg x) { return vabsq_f32(x); }
  static Reg neg(Reg x) { return vnegq_f32(x); }
  using Mask = uint32x4_t;
  static Mask lt(Reg a, Reg b) { return vcltq_f32(a, b); }
  static Mask eq(Reg a, Reg b) { return vceqq_f32(a, b); }
  static Mask is_nan(Reg x) {
    return vmvnq_u32(vceqq_f32(x, x));
  }
  static Reg select(Mask m, Reg t, Reg f) { return vbslq_f32(m, t, f); }
  static Reg bit_or(Reg a, Reg b) {
    return vreinterpretq_f32_u32(vorrq_u32(vreinterpretq_u32_f32(a), vreinterpretq_u32_f32(b)));
  }
  static Reg bit_and(Reg a, Reg b) {
    return vreinterpretq_f32_u32(vandq_u32(vreinterpretq_u32_f32(a), vreinterpretq_u32_f32(b)));
  }
  // vmath.hpp: shift each lane's bit pattern left / right (logical) by the
  // mantissa width (23), to build 2^n and to read a float's exponent field.
  static Reg shl_mant(Reg x) { return vreinterpretq_f32_u32(vshlq_n_u32(vreinterpretq_u32_f32(x), 23)); }
  static Reg shr_mant(Reg x) { return vreinterpretq_f32_u32(vshrq_n_u32(vreinterpretq_u32_f32(x), 23)); }
  // vmath.hpp's exp: integer add of the bit patterns (scales p by 2^n when
  // b holds n << 23 and the result stays normal); every lane true?
  static Reg add_bits(Reg a, Reg b) { return vreinterpretq_f32_u32(vaddq_u32(vreinterpretq_u32_f32(a), vreinterpretq_u32_f32(b))); }
  static bool all_true(Mask m) { return vminvq_u32(m) != 0; }

  static Reg min(Reg a, Reg b) { return ieee_minimum<F32>(a, b); }
  static Reg max(Reg a, Reg b) { return ieee_maximum<F32>(a, b); }
  // The larger of a and b when neither is NaN (equal values: either one),
  // b when b is NaN. One instruction (reduce_body.hpp's plain_max).
  static Reg max_ordered(Reg a, Reg b) { return vmaxq_f32(a, b); }
};

struct F64 {
  using Scalar = double;
  using Reg = float64x2_t;
  static constexpr int kLanes = 2;
  static Reg load(const double* p) { return vld1q_f64(p); }
  static void store(double* p, Reg v) { vst1q_f64(p, v); }
  static Reg set1(double x) { return vdupq_n_f64(x); }
  static Reg broadcast(const double* p) { return vld1q_dup_f64(p); }
  static Reg zero() { return vdupq_n_f64(0.0); }
  static Reg add(Reg a, Reg b) { return vaddq_f64(a, b); }
  static Reg mul(Reg a, Reg b) { return vmulq_f64(a, b); }
  static Reg mul_add(Reg a, Reg b, Reg c) { return vfmaq_f64(c, a, b); }
  template <int L>
  static Reg mul_add_lane(Reg lanes, Reg b, Reg c) { return vfmaq_laneq_f64(c, b, lanes, L); }
  static Reg relu(Reg x) {
    return vbslq_f64(vcltq_f64(x, vdupq_n_f64(0.0)), vdupq_n_f64(0.0), x);
  }
  static Reg sub(Reg a, Reg b) { return vsubq_f64(a, b); }
  static Reg div(Reg a, Reg b) { return vdivq_f64(a, b); }
  static Reg sqrt(Reg x) { return vsqrtq_f64(x); }
  // FABS / FNEG are sign-bit operations, NaN included.
  static Reg abs(Reg x) { return vabsq_f64(x); }
  static Reg neg(Reg x) { return vnegq_f64(x); }
  using Mask = uint64x2_t;
  static Mask lt(Reg a, Reg b) { return vcltq_f64(a, b); }
  static Mask eq(Reg a, Reg b) { return vceqq_f64(a, b); }
  static Mask is_nan(Reg x) {
    return vreinterpretq_u64_u32(vmvnq_u32(vreinterpretq_u32_u64(vceqq_f64(x, x))));
  }
  static Reg select(Mask m, Reg t, Reg f) { return vbslq_f64(m, t, f); }
  static Reg bit_or(Reg a, Reg b) {
    return vreinterpretq_f64_u64(vorrq_u64(vreinterpretq_u64_f64(a), vreinterpretq_u64_f64(b)));
  }
  static Reg bit_and(Reg a, Reg b) {
    return vreinterpretq_f64_u64(vandq_u64(vreinterpretq_u64_f64(a), vreinterpretq_u64_f64(b)));
  }
  // vmath.hpp: bit-pattern shifts by the mantissa width (52).
  static Reg shl_mant(Reg x) { return vreinterpretq_f64_u64(vshlq_n_u64(vreinterpretq_u64_f64(x), 52)); }
  static Reg shr_mant(Reg x) { return vreinterpretq_f64_u64(vshrq_n_u64(vreinterpretq_u64_f64(x), 52)); }
  static Reg add_bits(Reg a, Reg b) { return vreinterpretq_f64_u64(vaddq_u64(vreinterpretq_u64_f64(a), vreinterpretq_u64_f64(b))); }
  static bool all_true(Mask m) { return vminvq_u32(vreinterpretq_u32_u64(m)) != 0; }

  static Reg min(Reg a, Reg b) { return ieee_minimum<F64>(a, b); }
  static Reg max(Reg a, Reg b) { return ieee_maximum<F64>(a, b); }
  // The larger of a and b when neither is NaN (equal values: either one),
  // b when b is NaN. One instruction (reduce_body.hpp's plain_max).
  static Reg max_ordered(Reg a, Reg b) { return vmaxq_f64(a, b); }
};

// The register moves of the integer GEMM's dot traits
// (core/src/qgemm/qgemm_microkernel.hpp): 4 int32 sums, a packed group of B
// loaded whole, A's four bytes broadcast to every lane. I8Pairs below and
// neon_dotprod's I8Quads add their packing and their dot.
struct I32Lanes {
  using Reg = int32x4_t;
  struct Lane : scalar::F32 {};
  static constexpr int kLanes = 4;
  static Reg zero() { return vdupq_n_s32(0); }
  static Reg load(const std::uint8_t* p) { return vreinterpretq_s32_u8(vld1q_u8(p)); }
  static Reg broadcast(const std::uint8_t* p) {
    std::int32_t v;
    std::memcpy(&v, p, 4);
    return vdupq_n_s32(v);
  }
  static void store(std::int32_t* p, Reg v) { vst1q_s32(p, v); }
};

// Without the dot-product extension: depth pairs of int16, each lane's two
// products by smull / smull2 and summed by addp (NEON has no pmaddwd).
struct I8Pairs : I32Lanes {
  static constexpr Int8Packing kPacking = Int8Packing::kPairI16;
  static Reg dot(Reg acc, Reg a, Reg b) {
    const int16x8_t a16 = vreinterpretq_s16_s32(a), b16 = vreinterpretq_s16_s32(b);
    const int32x4_t lo = vmull_s16(vget_low_s16(a16), vget_low_s16(b16));
    const int32x4_t hi = vmull_high_s16(a16, b16);
    return vaddq_s32(acc, vpaddq_s32(lo, hi));
  }
};

// Half precision: f16 by the ARMv8 conversions (fcvtn / fcvtl, the FPCR's
// round to nearest even); bf16 in integer code (half_integer.hpp): BFCVTN
// is ARMv8.6 and optional.
struct U32 {
  using V = uint32x4_t;
  using Mask = uint32x4_t;
  static constexpr int kLanes = 4;
  static V load(const float* p) { return vreinterpretq_u32_f32(vld1q_f32(p)); }
  static void store(float* p, V v) { vst1q_f32(p, vreinterpretq_f32_u32(v)); }
  static V load_u16(const std::uint16_t* p) { return vmovl_u16(vld1_u16(p)); }
  static void store_u16(std::uint16_t* p, V v) { vst1_u16(p, vmovn_u32(v)); }
  static V set1(std::uint32_t x) { return vdupq_n_u32(x); }
  static V add(V a, V b) { return vaddq_u32(a, b); }
  static V sub(V a, V b) { return vsubq_u32(a, b); }
  static V bit_and(V a, V b) { return vandq_u32(a, b); }
  static V bit_or(V a, V b) { return vorrq_u32(a, b); }
  template <int k>
  static V shr(V v) { return vshrq_n_u32(v, k); }
  template <int k>
  static V shl(V v) { return vshlq_n_u32(v, k); }
  static Mask gt(V a, V b) { return vcgtq_s32(vreinterpretq_s32_u32(a), vreinterpretq_s32_u32(b)); }
  static V select(Mask m, V t, V f) { return vbslq_u32(m, t, f); }
  static V add_f32(V a, V b) { return vreinterpretq_u32_f32(vaddq_f32(vreinterpretq_f32_u32(a), vreinterpretq_f32_u32(b))); }
  static V sub_f32(V a, V b) { return vreinterpretq_u32_f32(vsubq_f32(vreinterpretq_f32_u32(a), vreinterpretq_f32_u32(b))); }
};
struct Half {
  static constexpr int kLanes = 4;
  static constexpr const char* kF16Method = "fcvtn/fcvtl";
  static constexpr const char* kBf16Method = "integer, NEON";
  static void f32_to_f16(const float* x, std::uint16_t* y) {
    vst1_u16(y, vreinterpret_u16_f16(vcvt_f16_f32(vld1q_f32(x))));
  }
  static void f16_to_f32(const std::uint16_t* x, float* y) {
    vst1q_f32(y, vcvt_f32_f16(vreinterpret_f16_u16(vld1_u16(x))));
  }
  static void f32_to_bf16(const float* x, std::uint16_t* y) { f32_to_bf16_lanes<U32>(x, y); }
  static void bf16_to_f32(const std::uint16_t* x, float* y) { bf16_to_f32_lanes<U32>(x, y); }
  // kLanes values widened into an F32 register (half-precision gemv).
  static float32x4_t load_f16(const std::uint16_t* p) {
    return vcvt_f32_f16(vreinterpret_f16_u16(vld1_u16(p)));
  }
  static float32x4_t load_bf16(const std::uint16_t* p) {
    return vreinterpretq_f32_u32(bf16_bits_to_f32_bits<U32>(U32::load_u16(p)));
  }
};

}  // namespace tessera::simd::neon
