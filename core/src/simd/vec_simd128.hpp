// WebAssembly SIMD128 vector traits (4 x f32, 2 x f64). Multiply then add
// (wasm has no FMA in SIMD128): the same operation order as SSE2, so a
// native SSE2 run and a wasm run produce the same bits
// (design.md §Reproducibility, issue 4).
#pragma once

#include <wasm_simd128.h>

#include <cstdint>

#include "core/src/simd/ieee_minmax.hpp"
#include "core/src/simd/half_integer.hpp"
#include "core/src/simd/int8_packing.hpp"
#include "core/src/simd/vec_scalar.hpp"

namespace tessera::simd::simd128 {

struct F32 {
  using Scalar = float;
  using Reg = v128_t;
  static constexpr int kLanes = 4;
  static Reg load(const float* p) { return wasm_v128_load(p); }
  static void store(float* p, Reg v) { wasm_v128_store(p, v); }
  static Reg set1(float x) { return wasm_f32x4_splat(x); }
  static Reg broadcast(const float* p) { return wasm_v128_load32_splat(p); }
  static Reg zero() { return wasm_f32x4_splat(0.0f); }
  static Reg add(Reg a, Reg b) { return wasm_f32x4_add(a, b); }
  static Reg mul(Reg a, Reg b) { return wasm_f32x4_mul(a, b); }
  static Reg mul_add(Reg a, Reg b, Reg c) {
    return wasm_f32x4_add(wasm_f32x4_mul(a, b), c);
  }
  static Reg relu(Reg x) {
    return wasm_v128_andnot(x, wasm_f32x4_lt(x, wasm_f32x4_splat(0.0f)));
  }
  static Reg sub(Reg a, Reg b) { return wasm_f32x4_sub(a, b); }
  static Reg div(Reg a, Reg b) { return wasm_f32x4_div(a, b); }
  static Reg sqrt(Reg x) { return wasm_f32x4_sqrt(x); }
  // f32x4.abs / neg are sign-bit operations (no NaN canonicalisation).
  static Reg abs(Reg x) { return wasm_f32x4_abs(x); }
  static Reg neg(Reg x) { return wasm_f32x4_neg(x); }
  using Mask = v128_t;
  static Mask lt(Reg a, Reg b) { return wasm_f32x4_lt(a, b); }
  static Mask eq(Reg a, Reg b) { return wasm_f32x4_eq(a, b); }
  static Mask is_nan(Reg x) { return wasm_f32x4_ne(x, x); }
  static Reg select(Mask m, Reg t, Reg f) { return wasm_v128_bitselect(t, f, m); }
  static Reg bit_or(Reg a, Reg b) { return wasm_v128_or(a, b); }
  static Reg bit_and(Reg a, Reg b) { return wasm_v128_and(a, b); }
  // vmath.hpp: shift each lane's bit pattern left / right (logical) by the
  // mantissa width (23), to build 2^n and to read a float's exponent field.
  static Reg shl_mant(Reg x) { return wasm_i32x4_shl(x, 23); }
  static Reg shr_mant(Reg x) { return wasm_u32x4_shr(x, 23); }
  // vmath.hpp's exp: integer add of the bit patterns (scales p by 2^n when
  // b holds n << 23 and the result stays normal); every lane true?
  static Reg add_bits(Reg a, Reg b) { return wasm_i32x4_add(a, b); }
  static bool all_true(Mask m) { return wasm_i32x4_all_true(m); }
  static Reg min(Reg a, Reg b) { return ieee_minimum<F32>(a, b); }
  static Reg max(Reg a, Reg b) { return ieee_maximum<F32>(a, b); }
  // The larger of a and b when neither is NaN (equal values: either one),
  // b when b is NaN. One instruction (reduce_body.hpp's plain_max).
  static Reg max_ordered(Reg a, Reg b) { return wasm_f32x4_pmax(b, a); }
};

struct F64 {
  using Scalar = double;
  using Reg = v128_t;
  static constexpr int kLanes = 2;
  static Reg load(const double* p) { return wasm_v128_load(p); }
  static void store(double* p, Reg v) { wasm_v128_store(p, v); }
  static Reg set1(double x) { return wasm_f64x2_splat(x); }
  static Reg broadcast(const double* p) { return wasm_v128_load64_splat(p); }
  static Reg zero() { return wasm_f64x2_splat(0.0); }
  static Reg add(Reg a, Reg b) { return wasm_f64x2_add(a, b); }
  static Reg mul(Reg a, Reg b) { return wasm_f64x2_mul(a, b); }
  static Reg mul_add(Reg a, Reg b, Reg c) {
    return wasm_f64x2_add(wasm_f64x2_mul(a, b), c);
  }
  static Reg relu(Reg x) {
    return wasm_v128_andnot(x, wasm_f64x2_lt(x, wasm_f64x2_splat(0.0)));
  }
  static Reg sub(Reg a, Reg b) { return wasm_f64x2_sub(a, b); }
  static Reg div(Reg a, Reg b) { return wasm_f64x2_div(a, b); }
  static Reg sqrt(Reg x) { return wasm_f64x2_sqrt(x); }
  // f32x4.abs / neg are sign-bit operations (no NaN canonicalisation).
  static Reg abs(Reg x) { return wasm_f64x2_abs(x); }
  static Reg neg(Reg x) { return wasm_f64x2_neg(x); }
  using Mask = v128_t;
  static Mask lt(Reg a, Reg b) { return wasm_f64x2_lt(a, b); }
  static Mask eq(Reg a, Reg b) { return wasm_f64x2_eq(a, b); }
  static Mask is_nan(Reg x) { return wasm_f64x2_ne(x, x); }
  static Reg select(Mask m, Reg t, Reg f) { return wasm_v128_bitselect(t, f, m); }
  static Reg bit_or(Reg a, Reg b) { return wasm_v128_or(a, b); }
  static Reg bit_and(Reg a, Reg b) { return wasm_v128_and(a, b); }
  // vmath.hpp: bit-pattern shifts by the mantissa width (52).
  static Reg shl_mant(Reg x) { return wasm_i64x2_shl(x, 52); }
  static Reg shr_mant(Reg x) { return wasm_u64x2_shr(x, 52); }
  static Reg add_bits(Reg a, Reg b) { return wasm_i64x2_add(a, b); }
  static bool all_true(Mask m) { return wasm_i64x2_all_true(m); }
  static Reg min(Reg a, Reg b) { return ieee_minimum<F64>(a, b); }
  static Reg max(Reg a, Reg b) { return ieee_maximum<F64>(a, b); }
  // The larger of a and b when neither is NaN (equal values: either one),
  // b when b is NaN. One instruction (reduce_body.hpp's plain_max).
  static Reg max_ordered(Reg a, Reg b) { return wasm_f64x2_pmax(b, a); }
};

// The integer GEMM's dot traits (core/src/qgemm/qgemm_microkernel.hpp):
// i32x4.dot_i16x8_s on depth pairs of int16 (exact, and deterministic in
// every engine, unlike the relaxed dot), then i32x4.add.
struct I8Pairs {
  using Reg = v128_t;
  struct Lane : scalar::F32 {};
  static constexpr int kLanes = 4;
  static constexpr Int8Packing kPacking = Int8Packing::kPairI16;
  // WebAssembly has no prefetch: a prefetch loop would run empty.
  static constexpr bool kPrefetches = false;
  static Reg zero() { return wasm_i32x4_splat(0); }
  static Reg load(const std::uint8_t* p) { return wasm_v128_load(p); }
  static Reg broadcast(const std::uint8_t* p) { return wasm_v128_load32_splat(p); }
  static Reg dot(Reg acc, Reg a, Reg b) { return wasm_i32x4_add(acc, wasm_i32x4_dot_i16x8(a, b)); }
  static void store(std::int32_t* p, Reg v) { wasm_v128_store(p, v); }
};

// 32-bit lanes for the integer half-precision conversions (half_integer.hpp):
// SIMD128 has no conversion instruction for either format.
struct U32 {
  using V = v128_t;
  using Mask = v128_t;
  static constexpr int kLanes = 4;
  static V load(const float* p) { return wasm_v128_load(p); }
  static void store(float* p, V v) { wasm_v128_store(p, v); }
  static V load_u16(const std::uint16_t* p) { return wasm_u32x4_load16x4(p); }
  static void store_u16(std::uint16_t* p, V v) {
    wasm_v128_store64_lane(p, wasm_u16x8_narrow_i32x4(v, v), 0);
  }
  static V set1(std::uint32_t x) { return wasm_i32x4_splat(static_cast<std::int32_t>(x)); }
  static V add(V a, V b) { return wasm_i32x4_add(a, b); }
  static V sub(V a, V b) { return wasm_i32x4_sub(a, b); }
  static V bit_and(V a, V b) { return wasm_v128_and(a, b); }
  static V bit_or(V a, V b) { return wasm_v128_or(a, b); }
  template <int k>
  static V shr(V v) { return wasm_u32x4_shr(v, k); }
  template <int k>
  static V shl(V v) { return wasm_i32x4_shl(v, k); }
  static Mask gt(V a, V b) { return wasm_i32x4_gt(a, b); }
  static V select(Mask m, V t, V f) { return wasm_v128_bitselect(t, f, m); }
  static V add_f32(V a, V b) { return wasm_f32x4_add(a, b); }
  static V sub_f32(V a, V b) { return wasm_f32x4_sub(a, b); }
};
struct Half : IntegerHalf<U32> {
  static constexpr const char* kF16Method = "integer, i32x4";
  static constexpr const char* kBf16Method = "integer, i32x4";
  // kLanes values widened into an F32 register (half-precision gemv).
  static v128_t load_f16(const std::uint16_t* p) { return f16_bits_to_f32_bits<U32>(U32::load_u16(p)); }
  static v128_t load_bf16(const std::uint16_t* p) { return bf16_bits_to_f32_bits<U32>(U32::load_u16(p)); }
};

}  // namespace tessera::simd::simd128
