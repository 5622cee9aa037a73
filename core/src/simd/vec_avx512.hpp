// AVX-512F vector traits (16 x f32, 8 x f64), fused mul_add.
#pragma once

#include <immintrin.h>

#include "core/src/simd/ieee_minmax.hpp"

namespace tessera::simd::avx512 {

struct F32 {
  using Scalar = float;
  using Reg = __m512;
  static constexpr int kLanes = 16;
  static Reg load(const float* p) { return _mm512_loadu_ps(p); }
  static void store(float* p, Reg v) { _mm512_storeu_ps(p, v); }
  static Reg set1(float x) { return _mm512_set1_ps(x); }
  static Reg broadcast(const float* p) { return _mm512_set1_ps(*p); }
  static Reg zero() { return _mm512_setzero_ps(); }
  static Reg add(Reg a, Reg b) { return _mm512_add_ps(a, b); }
  static Reg mul(Reg a, Reg b) { return _mm512_mul_ps(a, b); }
  static Reg mul_add(Reg a, Reg b, Reg c) { return _mm512_fmadd_ps(a, b, c); }
  static Reg relu(Reg x) {
    const __mmask16 negative =
        _mm512_cmp_ps_mask(x, _mm512_setzero_ps(), _CMP_LT_OQ);
    return _mm512_mask_mov_ps(x, negative, _mm512_setzero_ps());
  }
  static Reg sub(Reg a, Reg b) { return _mm512_sub_ps(a, b); }
  static Reg div(Reg a, Reg b) { return _mm512_div_ps(a, b); }
  // The masked form with x as pass-through: the plain intrinsic's
  // _mm512_undefined_ps() trips GCC 12's -Wmaybe-uninitialized.
  static Reg sqrt(Reg x) { return _mm512_mask_sqrt_ps(x, static_cast<__mmask16>(-1), x); }
  // andnot / xor on floats are AVX512DQ, which this level is compiled with.
  static Reg abs(Reg x) { return _mm512_andnot_ps(_mm512_set1_ps(-0.0f), x); }
  static Reg neg(Reg x) { return _mm512_xor_ps(_mm512_set1_ps(-0.0f), x); }
  using Mask = __mmask16;
  static Mask lt(Reg a, Reg b) { return _mm512_cmp_ps_mask(a, b, _CMP_LT_OQ); }
  static Mask eq(Reg a, Reg b) { return _mm512_cmp_ps_mask(a, b, _CMP_EQ_OQ); }
  static Mask is_nan(Reg x) { return _mm512_cmp_ps_mask(x, x, _CMP_UNORD_Q); }
  static Reg select(Mask m, Reg t, Reg f) { return _mm512_mask_blend_ps(m, f, t); }
  // The GEMM direct path's partial tiles (gemm_microkernel.hpp): lanes
  // [0, n) of p, the others zero and never touched (a masked-out lane does
  // not fault), and the store of lanes [0, n) only.
  static Mask first_lanes(int n) {
    return n >= kLanes ? Mask(0xFFFF) : n <= 0 ? Mask(0) : Mask((1u << n) - 1);
  }
  static Reg load_lanes(const float* p, Mask m) { return _mm512_maskz_loadu_ps(m, p); }
  static void store_lanes(float* p, Reg v, Mask m) { _mm512_mask_storeu_ps(p, m, v); }
  static Reg bit_or(Reg a, Reg b) { return _mm512_or_ps(a, b); }
  static Reg bit_and(Reg a, Reg b) { return _mm512_and_ps(a, b); }
  // vmath.hpp: shift each lane's bit pattern left / right (logical) by the
  // mantissa width (23), to build 2^n and to read a float's exponent field.
  // The zero-masked forms: GCC 12's unmasked ones start from
  // _mm512_undefined_epi32 and warn -Wuninitialized.
  static Reg shl_mant(Reg x) { return _mm512_castsi512_ps(_mm512_maskz_slli_epi32(__mmask16(0xFFFF), _mm512_castps_si512(x), 23)); }
  static Reg shr_mant(Reg x) { return _mm512_castsi512_ps(_mm512_maskz_srli_epi32(__mmask16(0xFFFF), _mm512_castps_si512(x), 23)); }
  // vmath.hpp's exp: integer add of the bit patterns (scales p by 2^n when
  // b holds n << 23 and the result stays normal); every lane true?
  static Reg add_bits(Reg a, Reg b) { return _mm512_castsi512_ps(_mm512_add_epi32(_mm512_castps_si512(a), _mm512_castps_si512(b))); }
  static bool all_true(Mask m) { return m == __mmask16(0xFFFF); }
  // vmath.hpp's mul_pow2: p * 2^floor(n), rounded once (vscalefps).
  static Reg scale_pow2(Reg p, Reg n) { return _mm512_scalef_ps(p, n); }
  static Reg min(Reg a, Reg b) { return ieee_minimum<F32>(a, b); }
  static Reg max(Reg a, Reg b) { return ieee_maximum<F32>(a, b); }
  // The larger of a and b when neither is NaN (equal values: either one),
  // b when b is NaN. One instruction (reduce_body.hpp's plain_max).
  static Reg max_ordered(Reg a, Reg b) { return _mm512_max_ps(a, b); }
};

struct F64 {
  using Scalar = double;
  using Reg = __m512d;
  static constexpr int kLanes = 8;
  static Reg load(const double* p) { return _mm512_loadu_pd(p); }
  static void store(double* p, Reg v) { _mm512_storeu_pd(p, v); }
  static Reg set1(double x) { return _mm512_set1_pd(x); }
  static Reg broadcast(const double* p) { return _mm512_set1_pd(*p); }
  static Reg zero() { return _mm512_setzero_pd(); }
  static Reg add(Reg a, Reg b) { return _mm512_add_pd(a, b); }
  static Reg mul(Reg a, Reg b) { return _mm512_mul_pd(a, b); }
  static Reg mul_add(Reg a, Reg b, Reg c) { return _mm512_fmadd_pd(a, b, c); }
  static Reg relu(Reg x) {
    const __mmask8 negative =
        _mm512_cmp_pd_mask(x, _mm512_setzero_pd(), _CMP_LT_OQ);
    return _mm512_mask_mov_pd(x, negative, _mm512_setzero_pd());
  }
  static Reg sub(Reg a, Reg b) { return _mm512_sub_pd(a, b); }
  static Reg div(Reg a, Reg b) { return _mm512_div_pd(a, b); }
  // The masked form with x as pass-through: the plain intrinsic's
  // _mm512_undefined_pd() trips GCC 12's -Wmaybe-uninitialized.
  static Reg sqrt(Reg x) { return _mm512_mask_sqrt_pd(x, static_cast<__mmask8>(-1), x); }
  // andnot / xor on floats are AVX512DQ, which this level is compiled with.
  static Reg abs(Reg x) { return _mm512_andnot_pd(_mm512_set1_pd(-0.0), x); }
  static Reg neg(Reg x) { return _mm512_xor_pd(_mm512_set1_pd(-0.0), x); }
  using Mask = __mmask8;
  static Mask lt(Reg a, Reg b) { return _mm512_cmp_pd_mask(a, b, _CMP_LT_OQ); }
  static Mask eq(Reg a, Reg b) { return _mm512_cmp_pd_mask(a, b, _CMP_EQ_OQ); }
  static Mask is_nan(Reg x) { return _mm512_cmp_pd_mask(x, x, _CMP_UNORD_Q); }
  static Reg select(Mask m, Reg t, Reg f) { return _mm512_mask_blend_pd(m, f, t); }
  static Mask first_lanes(int n) {  // as F32
    return n >= kLanes ? Mask(0xFF) : n <= 0 ? Mask(0) : Mask((1u << n) - 1);
  }
  static Reg load_lanes(const double* p, Mask m) { return _mm512_maskz_loadu_pd(m, p); }
  static void store_lanes(double* p, Reg v, Mask m) { _mm512_mask_storeu_pd(p, m, v); }
  static Reg bit_or(Reg a, Reg b) { return _mm512_or_pd(a, b); }
  static Reg bit_and(Reg a, Reg b) { return _mm512_and_pd(a, b); }
  // vmath.hpp: bit-pattern shifts by the mantissa width (52).
  static Reg shl_mant(Reg x) { return _mm512_castsi512_pd(_mm512_maskz_slli_epi64(__mmask8(0xFF), _mm512_castpd_si512(x), 52)); }
  static Reg shr_mant(Reg x) { return _mm512_castsi512_pd(_mm512_maskz_srli_epi64(__mmask8(0xFF), _mm512_castpd_si512(x), 52)); }
  static Reg add_bits(Reg a, Reg b) { return _mm512_castsi512_pd(_mm512_add_epi64(_mm512_castpd_si512(a), _mm512_castpd_si512(b))); }
  static bool all_true(Mask m) { return m == __mmask8(0xFF); }
  static Reg scale_pow2(Reg p, Reg n) { return _mm512_scalef_pd(p, n); }
  static Reg min(Reg a, Reg b) { return ieee_minimum<F64>(a, b); }
  static Reg max(Reg a, Reg b) { return ieee_maximum<F64>(a, b); }
  // The larger of a and b when neither is NaN (equal values: either one),
  // b when b is NaN. One instruction (reduce_body.hpp's plain_max).
  static Reg max_ordered(Reg a, Reg b) { return _mm512_max_pd(a, b); }
};

}  // namespace tessera::simd::avx512
