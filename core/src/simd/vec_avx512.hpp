// AVX-512F vector traits (16 x f32, 8 x f64), fused mul_add.
#pragma once

#include <immintrin.h>

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
};

}  // namespace tessera::simd::avx512
