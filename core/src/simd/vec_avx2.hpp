// AVX2 + FMA vector traits (8 x f32, 4 x f64). mul_add is fused here: the
// level is defined as AVX2+FMA, and results across levels agree within a
// tolerance, not bitwise (design.md §Reproducibility).
#pragma once

#include <immintrin.h>

namespace tessera::simd::avx2 {

struct F32 {
  using Scalar = float;
  using Reg = __m256;
  static constexpr int kLanes = 8;
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
};

struct F64 {
  using Scalar = double;
  using Reg = __m256d;
  static constexpr int kLanes = 4;
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
};

}  // namespace tessera::simd::avx2
