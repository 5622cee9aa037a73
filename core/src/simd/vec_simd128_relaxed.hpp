// WebAssembly SIMD128 with relaxed SIMD's fused multiply-add: the simd128
// traits, except mul_add, which is f32x4/f64x2.relaxed_madd. The engine
// may fuse it (one rounding: V8 on an x86-64 CPU with FMA3 emits vfmadd,
// and on aarch64 fmla) or not (two roundings); so this level's bits depend
// on the host: the same on one host for every worker count, but neither
// simd128's nor sse2's (design.md §Reproducibility). Built with
// -mrelaxed-simd for this backend's files only, in a module of its own.
#pragma once

#include <wasm_simd128.h>

#include "core/src/simd/vec_simd128.hpp"

namespace tessera::simd::simd128_relaxed {

struct F32 : simd128::F32 {
  static Reg mul_add(Reg a, Reg b, Reg c) { return wasm_f32x4_relaxed_madd(a, b, c); }
};

struct F64 : simd128::F64 {
  static Reg mul_add(Reg a, Reg b, Reg c) { return wasm_f64x2_relaxed_madd(a, b, c); }
};

// The integer GEMM's dot traits (core/src/qgemm/qgemm_microkernel.hpp):
// relaxed SIMD's i8 x i7 dot product, whose result the proposal defines
// only when the second operand's bytes are below 128 (engines may differ
// otherwise: saturating or not, signed or not). So the second operand is A
// in two 7-bit planes (lo = A & 127, hi = A >> 7, each its own panel row)
// and the kernel adds lo + 128 hi: exact, the same in every engine. B (s8,
// the full range) is the first, signed operand.
//
// The pair form, i16x8.relaxed_dot_i8x16_i7x16_s (|sum of two| <= 2 x 128
// x 127 < 2^15: no engine's choice of saturation matters), then
// i32x4.extadd_pairwise_i16x8_s and an add; not the fused
// i32x4.relaxed_dot_i8x16_i7x16_add_s: Node 20's V8 (11.3) computes
// dot + dot instead of dot + acc when its register allocator gives the
// result the accumulator's register (measured: acc = dot_add(b, a, acc)
// from 0 over one group gave twice the dot product), and the fused form is the same three x86
// instructions (pmaddubsw, pmaddwd, paddd) in V8 anyway.
struct I8Planes {
  using Reg = v128_t;
  struct Lane : scalar::F32 {};
  static constexpr int kLanes = 4;
  static constexpr Int8Packing kPacking = Int8Packing::kQuadU8S8Planes;
  static constexpr bool kPrefetches = false;  // as simd128's
  static Reg zero() { return wasm_i32x4_splat(0); }
  static Reg load(const std::uint8_t* p) { return wasm_v128_load(p); }
  static Reg broadcast(const std::uint8_t* p) { return wasm_v128_load32_splat(p); }
  static Reg dot(Reg acc, Reg a, Reg b) {
    return wasm_i32x4_add(acc, wasm_i32x4_extadd_pairwise_i16x8(wasm_i16x8_relaxed_dot_i8x16_i7x16(b, a)));
  }
  static void store(std::int32_t* p, Reg v) { wasm_v128_store(p, v); }
};

}  // namespace tessera::simd::simd128_relaxed
