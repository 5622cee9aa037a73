// AVX-512 VNNI: the avx512 level's vector traits (F32, F64: vec_avx512.hpp),
// plus the integer GEMM's dot on quads of bytes (vpdpbusd).
#pragma once

#include <immintrin.h>

#include "core/src/simd/int8_packing.hpp"
#include "core/src/simd/vec_avx512.hpp"

namespace tessera::simd::avx512_vnni {

// vpdpbusd: per 32-bit lane, acc + the four products of A's u8 bytes by
// B's s8 bytes, summed in 32 bits (no saturation: vpdpbusds would). The
// broadcast side is A, so A is the unsigned operand.
struct I8Quads : avx512::I32Lanes {
  static constexpr Int8Packing kPacking = Int8Packing::kQuadU8S8;
  static Reg dot(Reg acc, Reg a, Reg b) { return _mm512_dpbusd_epi32(acc, a, b); }
};

}  // namespace tessera::simd::avx512_vnni
