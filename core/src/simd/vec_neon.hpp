// NEON vector traits (4 x f32, 2 x f64), fused mul_add (vfmaq).
#pragma once

#include <arm_neon.h>

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
  // Select, not vmaxq: FMAX(+0, -0) is +0, the naive family keeps -0.
  static Reg relu(Reg x) {
    return vbslq_f32(vcltq_f32(x, vdupq_n_f32(0.0f)), vdupq_n_f32(0.0f), x);
  }
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
  static Reg relu(Reg x) {
    return vbslq_f64(vcltq_f64(x, vdupq_n_f64(0.0)), vdupq_n_f64(0.0), x);
  }
};

}  // namespace tessera::simd::neon
