// AVX2 + FMA vector traits (8 x f32, 4 x f64). mul_add is fused here: the
// level is defined as AVX2+FMA, and results across levels agree within a
// tolerance, not bitwise (design.md §Reproducibility).
#pragma once

#include <immintrin.h>

#include "core/src/simd/ieee_minmax.hpp"

namespace tessera::simd::avx2 {

// kDirectUnroll: depth steps per loop iteration of the direct GEMM path's
// unit-stride A accessor (gemm_microkernel.hpp, DirectUnitA). Its 6 x
// 2-vector tile holds 12 accumulators, 2 B vectors and a broadcast in the
// 16 registers. Unrolled 4 steps, GCC 12 spilled an accumulator and the
// loop counter to the stack every iteration; clang 19 keeps them in
// registers and gains from the immediate displacements. Measured on Zen 3,
// one thread, tessera-cli gemm N N N, GFLOP/s, 4 steps vs 1:
//   GCC 12:   f32 32^3 57-70 vs 71-75, 64^3 80-85 vs 91-92, 128^3 80-83 vs
//             92-94, 256^3 90 both; f64 64^3 39-40 vs 45;
//   clang 19: f32 64^3 92-93 vs 91-92, 128^3 95 vs 92-93.
// The arithmetic per element is the same either way: the same bits.
#if defined(__clang__)
inline constexpr int kDirectUnroll = 4;
#else
inline constexpr int kDirectUnroll = 1;
#endif

struct F32 {
  using Scalar = float;
  using Reg = __m256;
  static constexpr int kLanes = 8;
  static constexpr int kDirectUnroll = avx2::kDirectUnroll;
  static Reg load(const float* p) { return _mm256_loadu_ps(p); }
  static void store(float* p, Reg v) { _mm256_storeu_ps(p, v); }
  static Reg set1(float x) { return _mm256_set1_ps(x); }
  static Reg broadcast(const float* p) { return _mm256_broadcast_ss(p); }
  static Reg zero() { return _mm256_setzero_ps(); }
  static Reg add(Reg a, Reg b) { return _mm256_add_ps(a, b); }
  static Reg mul(Reg a, Reg b) { return _mm256_mul_ps(a, b); }
  static Reg mul_add(Reg a, Reg b, Reg c) { return _mm256_fmadd_ps(a, b, c); }
  static Reg relu(Reg x) {
    return _mm256_andnot_ps(_mm256_cmp_ps(x, _mm256_setzero_ps(), _CMP_LT_OQ),
                            x);
  }
  static Reg sub(Reg a, Reg b) { return _mm256_sub_ps(a, b); }
  static Reg div(Reg a, Reg b) { return _mm256_div_ps(a, b); }
  static Reg sqrt(Reg x) { return _mm256_sqrt_ps(x); }
  static Reg abs(Reg x) { return _mm256_andnot_ps(_mm256_set1_ps(-0.0f), x); }
  static Reg neg(Reg x) { return _mm256_xor_ps(_mm256_set1_ps(-0.0f), x); }
  using Mask = Reg;
  static Mask lt(Reg a, Reg b) { return _mm256_cmp_ps(a, b, _CMP_LT_OQ); }
  static Mask eq(Reg a, Reg b) { return _mm256_cmp_ps(a, b, _CMP_EQ_OQ); }
  static Mask is_nan(Reg x) { return _mm256_cmp_ps(x, x, _CMP_UNORD_Q); }
  static Reg select(Mask m, Reg t, Reg f) { return _mm256_blendv_ps(f, t, m); }
  // The GEMM direct path's partial tiles (gemm_microkernel.hpp): lanes
  // [0, n) of p, the others zero and never touched (vmaskmov does not fault
  // on a masked-out lane), and the store of lanes [0, n) only.
  static Mask first_lanes(int n) {
    const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    return _mm256_castsi256_ps(_mm256_cmpgt_epi32(_mm256_set1_epi32(n), lane));
  }
  static Reg load_lanes(const float* p, Mask m) {
    return _mm256_maskload_ps(p, _mm256_castps_si256(m));
  }
  static void store_lanes(float* p, Reg v, Mask m) {
    _mm256_maskstore_ps(p, _mm256_castps_si256(m), v);
  }
  static Reg bit_or(Reg a, Reg b) { return _mm256_or_ps(a, b); }
  static Reg bit_and(Reg a, Reg b) { return _mm256_and_ps(a, b); }
  // vmath.hpp: shift each lane's bit pattern left / right (logical) by the
  // mantissa width (23), to build 2^n and to read a float's exponent field.
  static Reg shl_mant(Reg x) { return _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_castps_si256(x), 23)); }
  static Reg shr_mant(Reg x) { return _mm256_castsi256_ps(_mm256_srli_epi32(_mm256_castps_si256(x), 23)); }
  static Reg min(Reg a, Reg b) { return ieee_minimum<F32>(a, b); }
  static Reg max(Reg a, Reg b) { return ieee_maximum<F32>(a, b); }
};

struct F64 {
  using Scalar = double;
  using Reg = __m256d;
  static constexpr int kLanes = 4;
  static constexpr int kDirectUnroll = avx2::kDirectUnroll;
  static Reg load(const double* p) { return _mm256_loadu_pd(p); }
  static void store(double* p, Reg v) { _mm256_storeu_pd(p, v); }
  static Reg set1(double x) { return _mm256_set1_pd(x); }
  static Reg broadcast(const double* p) { return _mm256_broadcast_sd(p); }
  static Reg zero() { return _mm256_setzero_pd(); }
  static Reg add(Reg a, Reg b) { return _mm256_add_pd(a, b); }
  static Reg mul(Reg a, Reg b) { return _mm256_mul_pd(a, b); }
  static Reg mul_add(Reg a, Reg b, Reg c) { return _mm256_fmadd_pd(a, b, c); }
  static Reg relu(Reg x) {
    return _mm256_andnot_pd(_mm256_cmp_pd(x, _mm256_setzero_pd(), _CMP_LT_OQ),
                            x);
  }
  static Reg sub(Reg a, Reg b) { return _mm256_sub_pd(a, b); }
  static Reg div(Reg a, Reg b) { return _mm256_div_pd(a, b); }
  static Reg sqrt(Reg x) { return _mm256_sqrt_pd(x); }
  static Reg abs(Reg x) { return _mm256_andnot_pd(_mm256_set1_pd(-0.0), x); }
  static Reg neg(Reg x) { return _mm256_xor_pd(_mm256_set1_pd(-0.0), x); }
  using Mask = Reg;
  static Mask lt(Reg a, Reg b) { return _mm256_cmp_pd(a, b, _CMP_LT_OQ); }
  static Mask eq(Reg a, Reg b) { return _mm256_cmp_pd(a, b, _CMP_EQ_OQ); }
  static Mask is_nan(Reg x) { return _mm256_cmp_pd(x, x, _CMP_UNORD_Q); }
  static Reg select(Mask m, Reg t, Reg f) { return _mm256_blendv_pd(f, t, m); }
  static Mask first_lanes(int n) {  // as F32
    const __m256i lane = _mm256_setr_epi64x(0, 1, 2, 3);
    return _mm256_castsi256_pd(_mm256_cmpgt_epi64(_mm256_set1_epi64x(n), lane));
  }
  static Reg load_lanes(const double* p, Mask m) {
    return _mm256_maskload_pd(p, _mm256_castpd_si256(m));
  }
  static void store_lanes(double* p, Reg v, Mask m) {
    _mm256_maskstore_pd(p, _mm256_castpd_si256(m), v);
  }
  static Reg bit_or(Reg a, Reg b) { return _mm256_or_pd(a, b); }
  static Reg bit_and(Reg a, Reg b) { return _mm256_and_pd(a, b); }
  // vmath.hpp: bit-pattern shifts by the mantissa width (52).
  static Reg shl_mant(Reg x) { return _mm256_castsi256_pd(_mm256_slli_epi64(_mm256_castpd_si256(x), 52)); }
  static Reg shr_mant(Reg x) { return _mm256_castsi256_pd(_mm256_srli_epi64(_mm256_castpd_si256(x), 52)); }
  static Reg min(Reg a, Reg b) { return ieee_minimum<F64>(a, b); }
  static Reg max(Reg a, Reg b) { return ieee_maximum<F64>(a, b); }
};

}  // namespace tessera::simd::avx2
