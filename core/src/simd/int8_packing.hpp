// The operand formats of the 8-bit dot products the ISA traits implement
// (their I8 types, for the integer GEMM: core/src/qgemm/qgemm_microkernel.hpp).
// An instruction multiplies lanes of 32 bits: four 8-bit depth values of the
// two operands, or two 16-bit ones, in the signedness it wants.
#pragma once

#include <cstdint>

namespace tessera::simd {

enum class Int8Packing : std::uint8_t {
  // Groups of 4 bytes: A u8, B s8 (x86 vpdpbusd).
  kQuadU8S8,
  // Groups of 4 bytes: A s8, B s8 (aarch64 sdot).
  kQuadS8S8,
  // Groups of 4 bytes, B s8; A u8 as two 7-bit planes, lo = A & 127 and hi
  // = A >> 7, each a panel row of its own (row 2r lo, 2r + 1 hi): wasm's
  // relaxed i8 x i7 dot is defined only for a second operand below 128.
  kQuadU8S8Planes,
  // Groups of 2 int16: A and B widened as stored, no shift (pmaddwd,
  // i32x4.dot_i16x8_s; scalar and NEON without the dot product).
  kPairI16,
};

}  // namespace tessera::simd
