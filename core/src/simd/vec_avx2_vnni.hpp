// AVX-VNNI: the avx2 level's vector traits (F32, F64: vec_avx2.hpp), plus
// the integer GEMM's dot on quads of bytes (VEX-encoded vpdpbusd on ymm),
// for CPUs with AVX-VNNI and no AVX-512 (Alder Lake, Zen 5 client parts).
#pragma once

#include <immintrin.h>

#include "core/src/simd/int8_packing.hpp"
#include "core/src/simd/vec_avx2.hpp"

namespace tessera::simd::avx2_vnni {

// vpdpbusd ymm: per 32-bit lane, acc + the four products of A's u8 bytes
// by B's s8 bytes, summed in 32 bits (no saturation: vpdpbusds would), the
// same operation and packing as avx512_vnni's on half the lanes.
struct I8Quads : avx2::I32Lanes {
  static constexpr Int8Packing kPacking = Int8Packing::kQuadU8S8;
  static Reg dot(Reg acc, Reg a, Reg b) { return _mm256_dpbusd_avx_epi32(acc, a, b); }
};

}  // namespace tessera::simd::avx2_vnni
