// aarch64 with the dot-product extension (ARMv8.2 DotProd): the neon level's
// vector traits (F32, F64: vec_neon.hpp), plus the integer GEMM's dot on
// quads of signed bytes (sdot).
#pragma once

#include <arm_neon.h>

#include <cstdint>
#include <cstring>

#include "core/src/simd/int8_packing.hpp"
#include "core/src/simd/vec_neon.hpp"
#include "core/src/simd/vec_scalar.hpp"

namespace tessera::simd::neon_dotprod {

// sdot: per 32-bit lane, acc + the four products of signed bytes, in 32
// bits. Both operands are s8: a u8 A is packed with its sign bit flipped
// (A - 128) and the correction adds 128 back (kernels/qgemm_kernel.hpp).
struct I8Quads {
  using Reg = int32x4_t;
  struct Lane : scalar::F32 {};
  static constexpr int kLanes = 4;
  static constexpr Int8Packing kPacking = Int8Packing::kQuadS8S8;
  static Reg zero() { return vdupq_n_s32(0); }
  static Reg load(const std::uint8_t* p) { return vreinterpretq_s32_u8(vld1q_u8(p)); }
  static Reg broadcast(const std::uint8_t* p) {
    std::int32_t v;
    std::memcpy(&v, p, 4);
    return vdupq_n_s32(v);
  }
  static Reg dot(Reg acc, Reg a, Reg b) {
    return vdotq_s32(acc, vreinterpretq_s8_s32(a), vreinterpretq_s8_s32(b));
  }
  static void store(std::int32_t* p, Reg v) { vst1q_s32(p, v); }
};

}  // namespace tessera::simd::neon_dotprod
