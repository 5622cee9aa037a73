// Scalar "vector" traits: one lane, plain C++ arithmetic. The portable
// optimized backend (and the template bodies' reference shape). Compiled with
// -ffp-contract=off like every kernel file, so a*b+c stays two roundings.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

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
  // x < 0 ? 0 : x — NaN and -0 pass through unchanged, as in the naive family.
  // Decided on the bits alone: x is "< 0" when its sign is set and it is
  // neither a zero nor a NaN. A float compare-and-select here gets folded by
  // LLVM 14's wasm backend into f32.max, which maps -0 to +0 (seen with
  // Debian's emscripten 3.1.6), even through a bit cast.
  static Reg relu(Reg x) {
    using Bits = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;
    constexpr Bits kSign = Bits(1) << (8 * sizeof(T) - 1);
    constexpr Bits kInf = sizeof(T) == 4 ? Bits(0x7F800000u) : Bits(0x7FF0000000000000ull);
    Bits bits;
    std::memcpy(&bits, &x, sizeof bits);
    const Bits magnitude = bits & ~kSign;
    const bool negative = (bits & kSign) != 0 && magnitude != 0 && magnitude <= kInf;
    const Bits kept = negative ? Bits(0) : bits;
    T y;
    std::memcpy(&y, &kept, sizeof y);
    return y;
  }
};

using F32 = Vec<float>;
using F64 = Vec<double>;

}  // namespace tessera::simd::scalar
