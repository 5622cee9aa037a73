// SSE2 vector traits (4 x f32, 2 x f64). No FMA at this level: mul_add is a
// multiply then an add, the same operation order as the SIMD128 backend so
// the two 128-bit levels produce the same bits
// (design.md §Reproducibility, issue 4).
#pragma once

#include <emmintrin.h>

#include <cstdint>
#include <cstring>

#include "core/src/simd/ieee_minmax.hpp"
#include "core/src/simd/half_integer.hpp"
#include "core/src/simd/int8_packing.hpp"
#include "core/src/simd/sum_lanes_sse.hpp"
#include "core/src/simd/vec_scalar.hpp"

namespace tessera::simd::sse2 {

// kDirectUnroll: depth steps per iteration of the direct GEMM path's
// unit-stride A loop, chosen as on AVX2 (vec_avx2.hpp says why): one with
// GCC, four with clang. Measured with GCC 12 on Zen 3, TESSERA_ISA=sse2,
// one thread, f32 GFLOP/s, 4 steps vs 1: 32^3 27 vs 28.6, 64^3 30.1 vs
// 30.5, 128^3 27-28 vs 30.2 (clang not measured: it keeps 4, as before).
// SIMD128 keeps 4 steps and still has the same bits: the per-element
// arithmetic does not change.
#if defined(__clang__)
inline constexpr int kDirectUnroll = 4;
#else
inline constexpr int kDirectUnroll = 1;
#endif

struct F32 {
  using Scalar = float;
  using Reg = __m128;
  static constexpr int kLanes = 4;
  static constexpr int kDirectUnroll = sse2::kDirectUnroll;
  // out[i] = the lanes of r_i summed by halving (sum_lanes_sse.hpp).
  static void sum_lanes4(Reg r0, Reg r1, Reg r2, Reg r3, float* out) {
    sse::sum_lanes4x4(r0, r1, r2, r3, out);
  }
  static Reg load(const float* p) { return _mm_loadu_ps(p); }
  static void store(float* p, Reg v) { _mm_storeu_ps(p, v); }
  static Reg set1(float x) { return _mm_set1_ps(x); }
  static Reg broadcast(const float* p) { return _mm_load1_ps(p); }
  static Reg zero() { return _mm_setzero_ps(); }
  static Reg add(Reg a, Reg b) { return _mm_add_ps(a, b); }
  static Reg mul(Reg a, Reg b) { return _mm_mul_ps(a, b); }
  static Reg mul_add(Reg a, Reg b, Reg c) {
    return _mm_add_ps(_mm_mul_ps(a, b), c);
  }
  // Clear the lanes where x < 0; NaN and -0 compare false and pass through.
  static Reg relu(Reg x) {
    return _mm_andnot_ps(_mm_cmplt_ps(x, _mm_setzero_ps()), x);
  }
  // Elementwise set: IEEE division and square root (correctly rounded);
  // abs / neg touch only the sign bit.
  static Reg sub(Reg a, Reg b) { return _mm_sub_ps(a, b); }
  static Reg div(Reg a, Reg b) { return _mm_div_ps(a, b); }
  static Reg sqrt(Reg x) { return _mm_sqrt_ps(x); }
  static Reg abs(Reg x) { return _mm_andnot_ps(_mm_set1_ps(-0.0f), x); }
  static Reg neg(Reg x) { return _mm_xor_ps(_mm_set1_ps(-0.0f), x); }
  using Mask = Reg;
  static Mask lt(Reg a, Reg b) { return _mm_cmplt_ps(a, b); }
  static Mask eq(Reg a, Reg b) { return _mm_cmpeq_ps(a, b); }
  static Mask is_nan(Reg x) { return _mm_cmpunord_ps(x, x); }
  static Reg select(Mask m, Reg t, Reg f) {
    return _mm_or_ps(_mm_and_ps(m, t), _mm_andnot_ps(m, f));
  }
  static Reg bit_or(Reg a, Reg b) { return _mm_or_ps(a, b); }
  static Reg bit_and(Reg a, Reg b) { return _mm_and_ps(a, b); }
  // vmath.hpp: shift each lane's bit pattern left / right (logical) by the
  // mantissa width (23), to build 2^n and to read a float's exponent field.
  static Reg shl_mant(Reg x) { return _mm_castsi128_ps(_mm_slli_epi32(_mm_castps_si128(x), 23)); }
  static Reg shr_mant(Reg x) { return _mm_castsi128_ps(_mm_srli_epi32(_mm_castps_si128(x), 23)); }
  // vmath.hpp's exp: integer add of the bit patterns (scales p by 2^n when
  // b holds n << 23 and the result stays normal); every lane true?
  static Reg add_bits(Reg a, Reg b) { return _mm_castsi128_ps(_mm_add_epi32(_mm_castps_si128(a), _mm_castps_si128(b))); }
  static bool all_true(Mask m) { return _mm_movemask_ps(m) == 0xF; }
  static Reg min(Reg a, Reg b) { return ieee_minimum<F32>(a, b); }
  static Reg max(Reg a, Reg b) { return ieee_maximum<F32>(a, b); }
  // The larger of a and b when neither is NaN (equal values: either one),
  // b when b is NaN. One instruction (reduce_body.hpp's plain_max).
  static Reg max_ordered(Reg a, Reg b) { return _mm_max_ps(a, b); }
};

struct F64 {
  using Scalar = double;
  using Reg = __m128d;
  static constexpr int kLanes = 2;
  static constexpr int kDirectUnroll = sse2::kDirectUnroll;
  static void sum_lanes4(Reg r0, Reg r1, Reg r2, Reg r3, double* out) {
    sse::sum_lanes2x2(r0, r1, out);
    sse::sum_lanes2x2(r2, r3, out + 2);
  }
  static Reg load(const double* p) { return _mm_loadu_pd(p); }
  static void store(double* p, Reg v) { _mm_storeu_pd(p, v); }
  static Reg set1(double x) { return _mm_set1_pd(x); }
  static Reg broadcast(const double* p) { return _mm_load1_pd(p); }
  static Reg zero() { return _mm_setzero_pd(); }
  static Reg add(Reg a, Reg b) { return _mm_add_pd(a, b); }
  static Reg mul(Reg a, Reg b) { return _mm_mul_pd(a, b); }
  static Reg mul_add(Reg a, Reg b, Reg c) {
    return _mm_add_pd(_mm_mul_pd(a, b), c);
  }
  static Reg relu(Reg x) {
    return _mm_andnot_pd(_mm_cmplt_pd(x, _mm_setzero_pd()), x);
  }
  // Elementwise set: IEEE division and square root (correctly rounded);
  // abs / neg touch only the sign bit.
  static Reg sub(Reg a, Reg b) { return _mm_sub_pd(a, b); }
  static Reg div(Reg a, Reg b) { return _mm_div_pd(a, b); }
  static Reg sqrt(Reg x) { return _mm_sqrt_pd(x); }
  static Reg abs(Reg x) { return _mm_andnot_pd(_mm_set1_pd(-0.0), x); }
  static Reg neg(Reg x) { return _mm_xor_pd(_mm_set1_pd(-0.0), x); }
  using Mask = Reg;
  static Mask lt(Reg a, Reg b) { return _mm_cmplt_pd(a, b); }
  static Mask eq(Reg a, Reg b) { return _mm_cmpeq_pd(a, b); }
  static Mask is_nan(Reg x) { return _mm_cmpunord_pd(x, x); }
  static Reg select(Mask m, Reg t, Reg f) {
    return _mm_or_pd(_mm_and_pd(m, t), _mm_andnot_pd(m, f));
  }
  static Reg bit_or(Reg a, Reg b) { return _mm_or_pd(a, b); }
  static Reg bit_and(Reg a, Reg b) { return _mm_and_pd(a, b); }
  // vmath.hpp: bit-pattern shifts by the mantissa width (52).
  static Reg shl_mant(Reg x) { return _mm_castsi128_pd(_mm_slli_epi64(_mm_castpd_si128(x), 52)); }
  static Reg shr_mant(Reg x) { return _mm_castsi128_pd(_mm_srli_epi64(_mm_castpd_si128(x), 52)); }
  static Reg add_bits(Reg a, Reg b) { return _mm_castsi128_pd(_mm_add_epi64(_mm_castpd_si128(a), _mm_castpd_si128(b))); }
  static bool all_true(Mask m) { return _mm_movemask_pd(m) == 0x3; }
  static Reg min(Reg a, Reg b) { return ieee_minimum<F64>(a, b); }
  static Reg max(Reg a, Reg b) { return ieee_maximum<F64>(a, b); }
  // The larger of a and b when neither is NaN (equal values: either one),
  // b when b is NaN. One instruction (reduce_body.hpp's plain_max).
  static Reg max_ordered(Reg a, Reg b) { return _mm_max_pd(a, b); }
};

// The integer GEMM's dot traits (core/src/qgemm/qgemm_microkernel.hpp):
// pmaddwd on depth pairs of int16 (the 16-bit products of 8-bit values
// never saturate; only pmaddubsw's sums of two would), then a 32-bit add.
struct I8Pairs {
  using Reg = __m128i;
  struct Lane : scalar::F32 {};
  static constexpr int kLanes = 4;
  static constexpr Int8Packing kPacking = Int8Packing::kPairI16;
  static Reg zero() { return _mm_setzero_si128(); }
  static Reg load(const std::uint8_t* p) { return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p)); }
  static Reg broadcast(const std::uint8_t* p) {
    std::int32_t v;
    std::memcpy(&v, p, 4);
    return _mm_set1_epi32(v);
  }
  static Reg dot(Reg acc, Reg a, Reg b) { return _mm_add_epi32(acc, _mm_madd_epi16(a, b)); }
  static void store(std::int32_t* p, Reg v) { _mm_storeu_si128(reinterpret_cast<__m128i*>(p), v); }
};

// 32-bit lanes for the integer half-precision conversions (half_integer.hpp):
// SSE2 has no conversion instruction (F16C came with AVX).
struct U32 {
  using V = __m128i;
  using Mask = __m128i;
  static constexpr int kLanes = 4;
  static V load(const float* p) { return _mm_castps_si128(_mm_loadu_ps(p)); }
  static void store(float* p, V v) { _mm_storeu_ps(p, _mm_castsi128_ps(v)); }
  static V load_u16(const std::uint16_t* p) {
    return _mm_unpacklo_epi16(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(p)),
                              _mm_setzero_si128());
  }
  // SSE2 packs with signed saturation only: the low halves sign-extended
  // first pack back to themselves.
  static void store_u16(std::uint16_t* p, V v) {
    const V s = _mm_srai_epi32(_mm_slli_epi32(v, 16), 16);
    _mm_storel_epi64(reinterpret_cast<__m128i*>(p), _mm_packs_epi32(s, s));
  }
  static V set1(std::uint32_t x) { return _mm_set1_epi32(static_cast<int>(x)); }
  static V add(V a, V b) { return _mm_add_epi32(a, b); }
  static V sub(V a, V b) { return _mm_sub_epi32(a, b); }
  static V bit_and(V a, V b) { return _mm_and_si128(a, b); }
  static V bit_or(V a, V b) { return _mm_or_si128(a, b); }
  template <int k>
  static V shr(V v) { return _mm_srli_epi32(v, k); }
  template <int k>
  static V shl(V v) { return _mm_slli_epi32(v, k); }
  static Mask gt(V a, V b) { return _mm_cmpgt_epi32(a, b); }
  static V select(Mask m, V t, V f) { return _mm_or_si128(_mm_and_si128(m, t), _mm_andnot_si128(m, f)); }
  static V add_f32(V a, V b) { return _mm_castps_si128(_mm_add_ps(_mm_castsi128_ps(a), _mm_castsi128_ps(b))); }
  static V sub_f32(V a, V b) { return _mm_castps_si128(_mm_sub_ps(_mm_castsi128_ps(a), _mm_castsi128_ps(b))); }
};
struct Half : IntegerHalf<U32> {
  static constexpr const char* kF16Method = "integer, SSE2";
  static constexpr const char* kBf16Method = "integer, SSE2";
  // kLanes values widened into an F32 register (half-precision gemv).
  static __m128 load_f16(const std::uint16_t* p) {
    return _mm_castsi128_ps(f16_bits_to_f32_bits<U32>(U32::load_u16(p)));
  }
  static __m128 load_bf16(const std::uint16_t* p) {
    return _mm_castsi128_ps(bf16_bits_to_f32_bits<U32>(U32::load_u16(p)));
  }
};

}  // namespace tessera::simd::sse2
