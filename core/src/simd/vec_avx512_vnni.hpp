// AVX-512 VNNI: the avx512 level's vector traits (F32, F64: vec_avx512.hpp),
// plus the integer GEMM's dot on quads of bytes (vpdpbusd).
#pragma once

#include <immintrin.h>

#include <cstdint>
#include <cstring>

#include "core/src/simd/int8_packing.hpp"
#include "core/src/simd/vec_avx512.hpp"
#include "core/src/simd/vec_scalar.hpp"

namespace tessera::simd::avx512_vnni {

// vpdpbusd: per 32-bit lane, acc + the four products of A's u8 bytes by
// B's s8 bytes, summed in 32 bits (no saturation: vpdpbusds would). The
// broadcast side is A, so A is the unsigned operand.
struct I8Quads {
  using Reg = __m512i;
  struct Lane : scalar::F32 {};
  static constexpr int kLanes = 16;
  static constexpr Int8Packing kPacking = Int8Packing::kQuadU8S8;
  static Reg zero() { return _mm512_setzero_si512(); }
  static Reg load(const std::uint8_t* p) { return _mm512_loadu_si512(p); }
  static Reg broadcast(const std::uint8_t* p) {
    std::int32_t v;
    std::memcpy(&v, p, 4);
    return _mm512_set1_epi32(v);
  }
  static Reg dot(Reg acc, Reg a, Reg b) { return _mm512_dpbusd_epi32(acc, a, b); }
  static void store(std::int32_t* p, Reg v) { _mm512_storeu_si512(p, v); }
};

}  // namespace tessera::simd::avx512_vnni
