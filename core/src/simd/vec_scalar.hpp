// Scalar "vector" traits: one lane, plain C++ arithmetic. The portable
// optimized backend (and the template bodies' reference shape). Compiled with
// -ffp-contract=off like every kernel file, so a*b+c stays two roundings.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "core/src/simd/half_bits.hpp"
#include "core/src/simd/int8_packing.hpp"

namespace tessera::simd::scalar {

template <class T>
struct Vec {
  using Scalar = T;
  using Reg = T;
  static constexpr int kLanes = 1;
  static Reg load(const T* p) { return *p; }
  static void store(T* p, Reg v) { *p = v; }
  static Reg set1(T x) { return x; }
  static Reg broadcast(const T* p) { return *p; }
  static Reg zero() { return T(0); }
  static Reg add(Reg a, Reg b) { return a + b; }
  static Reg mul(Reg a, Reg b) { return a * b; }
  // a*b + c with two roundings (never fused): see -ffp-contract=off.
  static Reg mul_add(Reg a, Reg b, Reg c) { return a * b + c; }
  static Reg sub(Reg a, Reg b) { return a - b; }
  static Reg div(Reg a, Reg b) { return a / b; }
  static Reg sqrt(Reg x) { return std::sqrt(x); }

  // Everything below decides on the bits alone, with integer operations: a
  // float compare-and-select here gets folded by LLVM 14's wasm backend into
  // f32.max / f32.min (seen with Debian's emscripten 3.1.6 for relu, even
  // through a bit cast), which map -0 and NaN differently.
  using Bits = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;
  using SignedBits = std::make_signed_t<Bits>;
  static constexpr Bits kSign = Bits(1) << (8 * sizeof(T) - 1);
  static constexpr Bits kInf =
      sizeof(T) == 4 ? Bits(0x7F800000u) : Bits(0x7FF0000000000000ull);
  static Bits bits_of(T x) {
    Bits b;
    std::memcpy(&b, &x, sizeof b);
    return b;
  }
  static T from_bits(Bits b) {
    T x;
    std::memcpy(&x, &b, sizeof x);
    return x;
  }
  static bool nan_bits(Bits b) { return (b & ~kSign) > kInf; }
  // A signed integer with the order of the (non-NaN) values, -0 < +0:
  // negative values have their magnitude bits flipped.
  static SignedBits order_key(Bits b) {
    const Bits flip = (b & kSign) != 0 ? ~kSign : Bits(0);
    return static_cast<SignedBits>(b ^ flip);
  }

  static Reg abs(Reg x) { return from_bits(bits_of(x) & ~kSign); }
  static Reg neg(Reg x) { return from_bits(bits_of(x) ^ kSign); }
  // IEEE 754-2019 minimum / maximum, as core/src/simd/ieee_minmax.hpp.
  static Reg min(Reg a, Reg b) {
    const Bits x = bits_of(a), y = bits_of(b);
    if (nan_bits(x)) return a;
    if (nan_bits(y)) return b;
    return from_bits(order_key(y) < order_key(x) ? y : x);
  }
  static Reg max(Reg a, Reg b) {
    const Bits x = bits_of(a), y = bits_of(b);
    if (nan_bits(x)) return a;
    if (nan_bits(y)) return b;
    return from_bits(order_key(x) < order_key(y) ? y : x);
  }
  // vmath.hpp: compare masks, select and bit operations (decided on bits,
  // see above), and the bit-pattern shifts by the mantissa width that build
  // 2^n and read the exponent field.
  using Mask = bool;
  static Mask lt(Reg a, Reg b) { return a < b; }
  static Mask eq(Reg a, Reg b) { return a == b; }
  static Mask is_nan(Reg x) { return nan_bits(bits_of(x)); }
  static Reg select(Mask m, Reg t, Reg f) {
    return from_bits(m ? bits_of(t) : bits_of(f));
  }
  static Reg bit_or(Reg a, Reg b) { return from_bits(bits_of(a) | bits_of(b)); }
  static Reg bit_and(Reg a, Reg b) { return from_bits(bits_of(a) & bits_of(b)); }
  static constexpr int kMantBits = sizeof(T) == 4 ? 23 : 52;
  static Reg shl_mant(Reg x) { return from_bits(bits_of(x) << kMantBits); }
  static Reg shr_mant(Reg x) { return from_bits(bits_of(x) >> kMantBits); }
  // vmath.hpp's exp: integer add of the bit patterns; a one-lane mask.
  static Reg add_bits(Reg a, Reg b) { return from_bits(static_cast<Bits>(bits_of(a) + bits_of(b))); }
  static bool all_true(Mask m) { return m; }
  // x < 0 ? 0 : x — NaN and -0 pass through unchanged, as in the naive family.
  // x is "< 0" when its sign is set and it is neither a zero nor a NaN.
  static Reg relu(Reg x) {
    const Bits bits = bits_of(x);
    const Bits magnitude = bits & ~kSign;
    const bool negative = (bits & kSign) != 0 && magnitude != 0 && magnitude <= kInf;
    return from_bits(negative ? Bits(0) : bits);
  }
};

using F32 = Vec<float>;
using F64 = Vec<double>;

// The integer GEMM's dot traits (core/src/qgemm/qgemm_microkernel.hpp): one
// lane, a depth pair of int16 in each 32-bit operand.
struct I8Pairs {
  using Reg = std::int32_t;
  using Lane = F32;
  static constexpr int kLanes = 1;
  static constexpr Int8Packing kPacking = Int8Packing::kPairI16;
  // The portable level (the only one of a wasm build without SIMD128,
  // which has no prefetch) issues none.
  static constexpr bool kPrefetches = false;
  static Reg zero() { return 0; }
  static Reg load(const std::uint8_t* p) {
    Reg v;
    std::memcpy(&v, p, 4);
    return v;
  }
  static Reg broadcast(const std::uint8_t* p) { return load(p); }
  static Reg dot(Reg acc, Reg a, Reg b) {
    // The products fit int32 (|a|, |b| <= 255); their sum and acc wrap.
    // Multiplied as uint32 (the same bits modulo 2^32): GCC 12's aarch64
    // loop vectorizer miscompiles the signed form of this depth loop (it
    // widens with smlal and mixes up the groups' lanes: a 1 x 1 x 8
    // product came out wrong at -O3, right with -fno-tree-loop-vectorize).
    const auto al = static_cast<std::uint32_t>(static_cast<std::int32_t>(static_cast<std::int16_t>(a)));
    const auto bl = static_cast<std::uint32_t>(static_cast<std::int32_t>(static_cast<std::int16_t>(b)));
    const auto ah = static_cast<std::uint32_t>(a >> 16), bh = static_cast<std::uint32_t>(b >> 16);
    return static_cast<Reg>(static_cast<std::uint32_t>(acc) + al * bl + ah * bh);
  }
  static void store(std::int32_t* p, Reg v) { *p = v; }
};

// Half precision one value at a time, on the bits (half_bits.hpp).
struct Half {
  static constexpr int kLanes = 1;
  static constexpr const char* kF16Method = "integer, scalar";
  static constexpr const char* kBf16Method = "integer, scalar";
  static void f32_to_f16(const float* x, std::uint16_t* y) {
    *y = half::f32_to_f16_bits(half::bits_of(*x));
  }
  static void f16_to_f32(const std::uint16_t* x, float* y) {
    *y = half::float_of(half::f16_to_f32_bits(*x));
  }
  static void f32_to_bf16(const float* x, std::uint16_t* y) {
    *y = half::f32_to_bf16_bits(half::bits_of(*x));
  }
  static void bf16_to_f32(const std::uint16_t* x, float* y) {
    *y = half::float_of(half::bf16_to_f32_bits(*x));
  }
  // One value widened (half-precision gemv).
  static float load_f16(const std::uint16_t* p) { return half::float_of(half::f16_to_f32_bits(*p)); }
  static float load_bf16(const std::uint16_t* p) { return half::float_of(half::bf16_to_f32_bits(*p)); }
};

}  // namespace tessera::simd::scalar
