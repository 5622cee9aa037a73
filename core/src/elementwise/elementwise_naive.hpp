// The naive family's elementwise kernels: plain per-element loops written
// independently of the SIMD bodies (no vector traits), the reference every
// backend is checked against. Semantics: tessera/elementwise.hpp. In a
// header because the naive kernel table is constant-initialised from it.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include "core/src/kernels/elementwise_kernel.hpp"

namespace tessera::core::naive {
namespace elementwise_def {

// The definitions, one scalar function per op. Those that treat -0 and NaN
// specially return operands by their bits: LLVM 14 for wasm turns float
// forms such as `x < 0 ? 0 : x` into f32.max, which maps -0 to +0 (seen
// with Debian's emscripten 3.1.6).
template <class T>
using Bits = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;

template <class T>
Bits<T> bits(T x) {
  Bits<T> b;
  std::memcpy(&b, &x, sizeof b);
  return b;
}
template <class T>
T value(Bits<T> b) {
  T x;
  std::memcpy(&x, &b, sizeof x);
  return x;
}
template <class T>
constexpr Bits<T> kSignBit = Bits<T>(1) << (8 * sizeof(T) - 1);

template <class T> T add(T a, T b) { return a + b; }
template <class T> T sub(T a, T b) { return a - b; }
template <class T> T mul(T a, T b) { return a * b; }
template <class T> T div(T a, T b) { return a / b; }
// np.minimum: a NaN operand is returned as is (a first); -0 < +0.
template <class T>
T min(T a, T b) {
  if (std::isnan(a)) return a;
  if (std::isnan(b)) return b;
  if (a == b) return value<T>(bits(a) | bits(b));  // ±0: the -0
  return value<T>(b < a ? bits(b) : bits(a));
}
template <class T>
T max(T a, T b) {
  if (std::isnan(a)) return a;
  if (std::isnan(b)) return b;
  if (a == b) return value<T>(bits(a) & bits(b));  // ±0: the +0
  return value<T>(a < b ? bits(b) : bits(a));
}
template <class T> T abs(T x) { return value<T>(bits(x) & ~kSignBit<T>); }
template <class T> T neg(T x) { return value<T>(bits(x) ^ kSignBit<T>); }
template <class T> T sqrt(T x) { return std::sqrt(x); }
// x < 0 ? 0 : x, decided on the bits alone (no float compare at all): with
// a float compare, even one selecting integers, Debian's emscripten 3.1.6
// (LLVM 14) still emits f32.max, turning -0 into +0 and NaNs canonical.
template <class T>
T relu(T x) {
  const Bits<T> b = bits(x), magnitude = b & ~kSignBit<T>;
  const Bits<T> inf = bits(std::numeric_limits<T>::infinity());
  const bool negative = (b & kSignBit<T>) != 0 && magnitude != 0 && magnitude <= inf;
  return value<T>(negative ? Bits<T>(0) : b);
}

// The transcendentals from the C library in long double, rounded once.
template <class T>
T exp(T x) { return static_cast<T>(std::exp(static_cast<long double>(x))); }
template <class T>
T log(T x) { return static_cast<T>(std::log(static_cast<long double>(x))); }
template <class T>
T tanh(T x) { return static_cast<T>(std::tanh(static_cast<long double>(x))); }
template <class T>
T sigmoid(T x) {
  const long double e = std::exp(-std::fabs(static_cast<long double>(x)));
  return static_cast<T>((std::signbit(x) ? e : 1.0L) / (1.0L + e));
}
template <class T>
T gelu(T x) {
  const long double v = x;
  if (std::isinf(v) && v < 0) return -T(0);  // the limit, not -Inf * 0
  const long double u = 0.797884560802865355879892119868763737L * (v + 0.044715L * v * v * v);
  // 0.5 (1 + tanh u) as 1 / (1 + e^-2u): no cancellation for u << 0.
  return static_cast<T>(v / (1.0L + std::exp(-2.0L * u)));
}

#define TESSERA_NAIVE_BINARY_(name, id)                                      \
  template <class T>                                                         \
  void name##_vv(const T* a, const T* b, T* y, std::size_t n) {              \
    for (std::size_t i = 0; i < n; ++i) y[i] = name<T>(a[i], b[i]);          \
  }                                                                          \
  template <class T>                                                         \
  void name##_vs(const T* a, T s, T* y, std::size_t n) {                     \
    for (std::size_t i = 0; i < n; ++i) y[i] = name<T>(a[i], s);             \
  }                                                                          \
  template <class T>                                                         \
  void name##_sv(T s, const T* b, T* y, std::size_t n) {                     \
    for (std::size_t i = 0; i < n; ++i) y[i] = name<T>(s, b[i]);             \
  }
TESSERA_ELEMENTWISE_BINARY_OPS(TESSERA_NAIVE_BINARY_)
#undef TESSERA_NAIVE_BINARY_

#define TESSERA_NAIVE_UNARY_(name, id)                                       \
  template <class T>                                                         \
  void name##_v(const T* x, T* y, std::size_t n) {                           \
    for (std::size_t i = 0; i < n; ++i) y[i] = name<T>(x[i]);                \
  }
TESSERA_ELEMENTWISE_UNARY_OPS(TESSERA_NAIVE_UNARY_)
#undef TESSERA_NAIVE_UNARY_

template <class T>
constexpr ElementwiseOps<T> ops() {
  ElementwiseOps<T> k;
#define TESSERA_NAIVE_ENTRY_(name, id)                                 \
  k.binary[static_cast<int>(BinaryOp::id)] = &name##_vv<T>;            \
  k.binary_scalar_rhs[static_cast<int>(BinaryOp::id)] = &name##_vs<T>; \
  k.binary_scalar_lhs[static_cast<int>(BinaryOp::id)] = &name##_sv<T>;
  TESSERA_ELEMENTWISE_BINARY_OPS(TESSERA_NAIVE_ENTRY_)
#undef TESSERA_NAIVE_ENTRY_
#define TESSERA_NAIVE_ENTRY_(name, id) k.unary[static_cast<int>(UnaryOp::id)] = &name##_v<T>;
  TESSERA_ELEMENTWISE_UNARY_OPS(TESSERA_NAIVE_ENTRY_)
#undef TESSERA_NAIVE_ENTRY_
  return k;
}

}  // namespace elementwise_def

constexpr ElementwiseKernels elementwise_kernels() {
  return {elementwise_def::ops<float>(), elementwise_def::ops<double>()};
}

}  // namespace tessera::core::naive
