// Scalar "vector" traits: one lane, plain C++ arithmetic. The portable
// optimized backend (and the template bodies' reference shape). Compiled with
// -ffp-contract=off like every kernel file, so a*b+c stays two roundings.
#pragma once

#include <cstddef>

namespace tessera::simd::scalar {

template <class T>
struct Vec {
  using Scalar = T;
  using Reg = T;
  static constexpr int kLanes = 1;
  static Reg load(const T* p) { return *p; }
  static void store(T* p, Reg v) { *p = v; }
  static Reg set1(T x) { return x; }
  static Reg zero() { return T(0); }
  static Reg add(Reg a, Reg b) { return a + b; }
  static Reg mul(Reg a, Reg b) { return a * b; }
  // a*b + c with two roundings (never fused): see -ffp-contract=off.
  static Reg mul_add(Reg a, Reg b, Reg c) { return a * b + c; }
  // x < 0 ? 0 : x — NaN and -0 pass through unchanged, as in the naive family.
  static Reg relu(Reg x) { return x < T(0) ? T(0) : x; }
};

using F32 = Vec<float>;
using F64 = Vec<double>;

}  // namespace tessera::simd::scalar
