// WebAssembly SIMD128 vector traits (4 x f32, 2 x f64). Multiply then add
// (wasm has no FMA in SIMD128): the same operation order as SSE2, so a
// native SSE2 run and a wasm run produce the same bits
// (design.md §Reproducibility, issue 4).
#pragma once

#include <wasm_simd128.h>

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
};

}  // namespace tessera::simd::simd128
