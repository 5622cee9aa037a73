// SSE2 vector traits (4 x f32, 2 x f64). No FMA at this level: mul_add is a
// multiply then an add, the same operation order as the SIMD128 backend so
// the two 128-bit levels produce the same bits
// (design.md §Reproducibility, issue 4).
#pragma once

#include <emmintrin.h>

namespace tessera::simd::sse2 {

struct F32 {
  using Scalar = float;
  using Reg = __m128;
  static constexpr int kLanes = 4;
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
};

struct F64 {
  using Scalar = double;
  using Reg = __m128d;
  static constexpr int kLanes = 2;
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
};

}  // namespace tessera::simd::sse2
