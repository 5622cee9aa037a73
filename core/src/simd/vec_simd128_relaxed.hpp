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

}  // namespace tessera::simd::simd128_relaxed
