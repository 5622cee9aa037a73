// The tests' own definition of the elementwise ops, written from the
// specification (tessera/elementwise.hpp), not from the library's code:
// f32 arithmetic is done in double and rounded once (double has more than
// 2 x 24 + 2 bits, so that double rounding is exact for + - * / sqrt), f64
// with the host's IEEE double. Plus the special values the tests mix in.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

#include "tessera/elementwise.hpp"

namespace tessera::test::ew {

// second if `second`, else first; by the bits (see ref_binary).
template <class T>
T pick(bool second, T first, T other) {
  unsigned char a[sizeof(T)], b[sizeof(T)], r[sizeof(T)];
  std::memcpy(a, &first, sizeof(T));
  std::memcpy(b, &other, sizeof(T));
  for (std::size_t i = 0; i < sizeof(T); ++i) r[i] = second ? b[i] : a[i];
  T out;
  std::memcpy(&out, r, sizeof(T));
  return out;
}

template <class T>
T ref_binary(BinaryOp op, T a, T b) {
  using W = double;  // f32: exact in double, one final rounding
  switch (op) {
    case BinaryOp::kAdd: return static_cast<T>(W(a) + W(b));
    case BinaryOp::kSub: return static_cast<T>(W(a) - W(b));
    case BinaryOp::kMul: return static_cast<T>(W(a) * W(b));
    case BinaryOp::kDiv: return static_cast<T>(W(a) / W(b));
    case BinaryOp::kMin:
    case BinaryOp::kMax: {
      if (std::isnan(a)) return a;
      if (std::isnan(b)) return b;
      const bool want_min = op == BinaryOp::kMin;
      // Which operand, decided as a bool and returned by its bits: LLVM's
      // wasm backend folds float selects of this shape into f32.min/max,
      // whose -0 and NaN rules are not these.
      bool take_b;
      if (a == 0 && b == 0) {
        // -0 is the smaller zero.
        const bool a_neg = std::signbit(a), b_neg = std::signbit(b);
        take_b = a_neg != b_neg && (b_neg == want_min);
      } else {
        take_b = want_min ? (b < a) : (a < b);
      }
      return pick(take_b, a, b);
    }
  }
  return std::numeric_limits<T>::signaling_NaN();
}

template <class T>
T ref_unary(UnaryOp op, T x) {
  switch (op) {
    case UnaryOp::kAbs: return std::fabs(x);
    case UnaryOp::kNeg: return -x;
    case UnaryOp::kSqrt: return static_cast<T>(std::sqrt(double(x)));
    case UnaryOp::kRelu: {
      // "x < 0" from the bits (sign set, not a zero, not a NaN): with any
      // float compare here LLVM 14 (emscripten 3.1.6) emits f32.max.
      using U = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;
      U b;
      std::memcpy(&b, &x, sizeof b);
      const U sign = U(1) << (8 * sizeof(T) - 1);
      const T inf = std::numeric_limits<T>::infinity();
      U inf_bits;
      std::memcpy(&inf_bits, &inf, sizeof inf_bits);
      const bool negative = (b & sign) != 0 && (b & ~sign) != 0 && (b & ~sign) <= inf_bits;
      return pick(negative, x, T(0));
    }
    // Approximations (checked within an ulp bound, not bit for bit): the
    // exact value in long double, rounded once.
    case UnaryOp::kExp: return static_cast<T>(std::exp(static_cast<long double>(x)));
    case UnaryOp::kLog: return static_cast<T>(std::log(static_cast<long double>(x)));
    case UnaryOp::kTanh: return static_cast<T>(std::tanh(static_cast<long double>(x)));
    case UnaryOp::kSigmoid: {
      // e^-|x| never overflows (wasi-libc's expl overflows at double's
      // threshold, which loses sigmoid(-709.8)'s subnormal f64 result).
      const long double e = std::exp(-std::fabs(static_cast<long double>(x)));
      return static_cast<T>((x < 0 ? e : 1.0L) / (1.0L + e));
    }
    case UnaryOp::kGelu: {
      const long double v = x;
      if (std::isinf(v)) return v > 0 ? x : -T(0);
      const long double pi = 3.141592653589793238462643383279502884L;
      const long double u = std::sqrt(2.0L / pi) * (v + 0.044715L * v * v * v);
      // 0.5 (1 + tanh u) = 1 / (1 + e^-2u): 1 + tanh u cancels completely
      // in long double once u < -22.
      return static_cast<T>(v / (1.0L + std::exp(-2.0L * u)));
    }
  }
  return std::numeric_limits<T>::signaling_NaN();
}

// min / max / abs / neg / relu define the NaN they return (an operand,
// bits unchanged, or its sign changed); arithmetic leaves the payload open.
inline bool exact_nan(BinaryOp op) { return op == BinaryOp::kMin || op == BinaryOp::kMax; }
inline bool exact_nan(UnaryOp op) { return op != UnaryOp::kSqrt; }

template <class T>
bool same_bits(T a, T b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

template <class T>
bool matches(T expected, T actual, bool exact) {
  if (std::isnan(expected) && !exact) return std::isnan(actual);
  return same_bits(expected, actual);
}

template <class T>
T from_bits(std::uint64_t bits) {
  T x;
  if constexpr (sizeof(T) == 4) {
    const auto b = static_cast<std::uint32_t>(bits);
    std::memcpy(&x, &b, 4);
  } else {
    std::memcpy(&x, &bits, 8);
  }
  return x;
}

// ±0, ±Inf, quiet NaNs of both signs and with a payload, denormals, the
// normal extremes, and ordinary values for them to meet.
template <class T>
std::vector<T> specials() {
  using L = std::numeric_limits<T>;
  const bool f32 = sizeof(T) == 4;
  return {T(0),
          -T(0),
          L::infinity(),
          -L::infinity(),
          L::quiet_NaN(),
          from_bits<T>(f32 ? 0xFFC00001ull : 0xFFF8000000000001ull),  // -NaN, payload 1
          from_bits<T>(f32 ? 0x7FC12345ull : 0x7FF8000000012345ull),  // +NaN, payload
          L::denorm_min(),
          -L::denorm_min(),
          L::min() / 4,
          -L::min() / 3,
          L::min(),
          -L::max(),
          L::max(),
          T(1),
          T(-1),
          T(2.5),
          T(-0.75),
          T(4)};
}

}  // namespace tessera::test::ew
