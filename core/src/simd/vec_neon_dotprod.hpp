// aarch64 with the dot-product extension (ARMv8.2 DotProd): the neon level's
// vector traits (F32, F64: vec_neon.hpp), plus the integer GEMM's dot on
// quads of signed bytes (sdot).
#pragma once

#include <arm_neon.h>

#include "core/src/simd/int8_packing.hpp"
#include "core/src/simd/vec_neon.hpp"

namespace tessera::simd::neon_dotprod {

// sdot: per 32-bit lane, acc + the four products of signed bytes, in 32
// bits. Both operands are s8: a u8 A is packed with its sign bit flipped
// (A - 128) and the correction adds 128 back (kernels/qgemm_kernel.hpp).
struct I8Quads : neon::I32Lanes {
  static constexpr Int8Packing kPacking = Int8Packing::kQuadS8S8;
  static Reg dot(Reg acc, Reg a, Reg b) {
    return vdotq_s32(acc, vreinterpretq_s8_s32(a), vreinterpretq_s8_s32(b));
  }
};

}  // namespace tessera::simd::neon_dotprod
