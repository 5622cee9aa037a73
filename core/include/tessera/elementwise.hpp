// Elementwise kernels on f32 and f64.
//
// Binary:  out = a ⊙ b for ⊙ in add, sub, mul, div, min, max.
// Unary:   out = f(x)  for f  in abs, neg, sqrt, relu, exp, log, tanh,
//          sigmoid, gelu.
//
// Semantics (identical on every ISA level and target, bit for bit):
//   add, sub, mul, div, sqrt  one correctly rounded IEEE operation (div is a
//                             true division, never a reciprocal estimate).
//                             A NaN result is some NaN: its payload and sign
//                             are not specified (they differ between CPUs).
//   min, max                  NumPy's np.minimum / np.maximum, i.e. IEEE
//                             754-2019 minimum / maximum: a NaN operand gives
//                             NaN (that operand itself, bits unchanged; a's
//                             if both are NaN), and -0 < +0, so
//                             min(-0, +0) = -0 and max(-0, +0) = +0 in either
//                             order.
//   abs, neg                  sign-bit operations: clear / flip the sign,
//                             NaN payloads included.
//   relu                      x < 0 ? 0 : x (NaN and -0 pass through).
//   exp, log, tanh, sigmoid,  polynomial approximations (core/src/simd/
//   gelu                      vmath.hpp), not correctly rounded: within
//                             unary_op_ulp_bound ulp of the exact value on
//                             every level. gelu is the tanh form
//                             0.5 x (1 + tanh(sqrt(2/pi)(x + 0.044715 x^3))).
//                             Their bits are the same on the scalar, SSE2 and
//                             SIMD128 levels (server == browser); the FMA
//                             levels (AVX2, AVX-512, NEON) and the naive
//                             family (the C library) differ in the last bits.
//                             Special values: NaN -> NaN, exp overflow ->
//                             +Inf and underflow through the subnormals to +0,
//                             log(+-0) = -Inf, log(x < 0) = NaN, tanh(+-Inf)
//                             = +-1, sigmoid(-Inf) = +0, gelu(-Inf) = -0.
//
// Operand forms of binary ops:
//   - same shape: a, b and out have the same length;
//   - a scalar on either side: a ⊙ s and s ⊙ b;
//   - NumPy-style broadcasting against a rows x cols row-major output
//     (Extent): each operand is Full (rows*cols), Row (cols elements, used
//     for every row), Column (rows elements, element r for all of row r) or
//     Scalar (1 element). Both operands may broadcast (Row ⊙ Column is an
//     outer "product").
//
// `out` may be exactly a full-shape input (in place); any other overlap with
// an input, including a broadcast one, is an error. Bad arguments are
// reported, naming the argument, before anything is written. Work is split
// across the context's executor in blocks of whole multiples of 64
// elements; every element is one fixed operation, so the result never
// depends on the number of threads.
#pragma once

#include <cstddef>
#include <span>

#include "tessera/context.hpp"
#include "tessera/platform/build_config.h"  // TESSERA_CXX_API_BEGIN

// The operation lists: one line per operation. Everything else (kernel
// tables, C API, inventory, CLI) is generated from them.
#define TESSERA_ELEMENTWISE_BINARY_OPS(X) \
  X(add, kAdd) X(sub, kSub) X(mul, kMul) X(div, kDiv) X(min, kMin) X(max, kMax)
#define TESSERA_ELEMENTWISE_UNARY_OPS(X) \
  X(abs, kAbs) X(neg, kNeg) X(sqrt, kSqrt) X(relu, kRelu) X(exp, kExp) X(log, kLog) \
  X(tanh, kTanh) X(sigmoid, kSigmoid) X(gelu, kGelu)

TESSERA_CXX_API_BEGIN
namespace tessera {

enum class BinaryOp {
#define TESSERA_ENUM_(name, id) id,
  TESSERA_ELEMENTWISE_BINARY_OPS(TESSERA_ENUM_)
#undef TESSERA_ENUM_
};
enum class UnaryOp {
#define TESSERA_ENUM_(name, id) id,
  TESSERA_ELEMENTWISE_UNARY_OPS(TESSERA_ENUM_)
#undef TESSERA_ENUM_
};
inline constexpr int kBinaryOpCount = 0
#define TESSERA_COUNT_(name, id) +1
    TESSERA_ELEMENTWISE_BINARY_OPS(TESSERA_COUNT_);
inline constexpr int kUnaryOpCount = 0 TESSERA_ELEMENTWISE_UNARY_OPS(TESSERA_COUNT_);
#undef TESSERA_COUNT_

const char* binary_op_name(BinaryOp op) noexcept;  // "add", ...
const char* unary_op_name(UnaryOp op) noexcept;    // "abs", ...

// True for the unary ops whose result is one exactly defined value (a
// correctly rounded IEEE operation or a sign / selection operation): the
// same bits on every level and target. False for the transcendentals.
constexpr bool unary_op_is_exact(UnaryOp op) noexcept {
  return op == UnaryOp::kAbs || op == UnaryOp::kNeg || op == UnaryOp::kSqrt ||
         op == UnaryOp::kRelu;
}
// The documented error bound of a unary op: the distance, in representable
// values, from the correctly rounded result (0 for the exact ops). Checks
// against the naive family (tessera-cli --check, selftest) allow one more:
// the naive family is the C library, itself within about 1 ulp. gelu's
// holds for x >= -10: its negative tail is ill-conditioned (relative
// condition number about 1.6 (x + 0.134 x^3), ~230 at x = -10), so the
// rounding of the inner cubic is amplified there; for x >= -3 gelu is
// within kGeluCoreUlpBound.
inline constexpr double kGeluCoreUlpBound = 13.0;
constexpr double unary_op_ulp_bound(UnaryOp op, bool f64) noexcept {
  // The maxima measured on dense samples (tests/core/
  // elementwise_transcendental_test.cc; f32 exhaustively: bench/
  // vmath_ulp_bench.cc), on every level.
  switch (op) {
    case UnaryOp::kExp:
    case UnaryOp::kLog: return 1.0;
    case UnaryOp::kTanh: return f64 ? 3.0 : 2.0;  // f32: 2 at x = 0.520136 (sweep)
    case UnaryOp::kSigmoid: return 2.0;
    // 191 measured natively; 237 on wasm, whose C library's long double
    // functions (the test reference) are less accurate.
    case UnaryOp::kGelu: return 256.0;
    default: return 0.0;
  }
}

// The output of a broadcasting binary op: rows x cols, row-major.
struct Extent {
  std::size_t rows = 0;
  std::size_t cols = 0;
};

// How an operand of a broadcasting binary op lies against the Extent.
enum class Broadcast {
  kFull,    // rows * cols elements, same layout as out
  kRow,     // cols elements: a 1 x cols row, repeated for every row
  kColumn,  // rows elements: a rows x 1 column, element r across row r
  kScalar,  // 1 element
};

template <class T>
struct Operand {
  std::span<const T> data;
  Broadcast shape = Broadcast::kFull;
};

// The general entry points; the named functions below forward here.
Status try_binary(const Context& context, BinaryOp op, Extent extent,
                  Operand<float> a, Operand<float> b, std::span<float> out);
Status try_binary(const Context& context, BinaryOp op, Extent extent,
                  Operand<double> a, Operand<double> b, std::span<double> out);
// The same-shape form (a, b and out of one length): what try_add(ctx, a, b,
// out) and the other named two-vector forms call. The same checks and bits
// as try_binary with a 1 x n extent of two full operands, without building
// them (a small call's fixed cost).
Status try_binary(const Context& context, BinaryOp op, std::span<const float> a,
                  std::span<const float> b, std::span<float> out);
Status try_binary(const Context& context, BinaryOp op, std::span<const double> a,
                  std::span<const double> b, std::span<double> out);
Status try_unary(const Context& context, UnaryOp op, std::span<const float> x,
                 std::span<float> out);
Status try_unary(const Context& context, UnaryOp op, std::span<const double> x,
                 std::span<double> out);

namespace detail {
// Same shape: a 1 x n extent of two full operands (the lengths are checked
// against a's, so a mismatch names b or out).
template <class T>
Status same_shape(const Context& c, BinaryOp op, std::span<const T> a,
                  std::span<const T> b, std::span<T> out) {
  return try_binary(c, op, a, b, out);
}
template <class T>
Status scalar_rhs(const Context& c, BinaryOp op, std::span<const T> a, const T& s,
                  std::span<T> out) {
  return try_binary(c, op, Extent{1, a.size()}, Operand<T>{a, Broadcast::kFull},
                    Operand<T>{std::span<const T>(&s, 1), Broadcast::kScalar}, out);
}
template <class T>
Status scalar_lhs(const Context& c, BinaryOp op, const T& s, std::span<const T> b,
                  std::span<T> out) {
  return try_binary(c, op, Extent{1, b.size()},
                    Operand<T>{std::span<const T>(&s, 1), Broadcast::kScalar},
                    Operand<T>{b, Broadcast::kFull}, out);
}
}  // namespace detail

// try_add(ctx, a, b, out), try_add(ctx, a, s, out), try_add(ctx, s, b, out),
// try_add(ctx, extent, Operand a, Operand b, out); likewise sub, mul, div,
// min, max; f32 and f64. Throwing forms without the try_ prefix.
#define TESSERA_BINARY_FORMS_(name, id, T)                                              \
  inline Status try_##name(const Context& c, std::span<const T> a,                  \
                           std::span<const T> b, std::span<T> out) {                \
    return detail::same_shape<T>(c, BinaryOp::id, a, b, out);                     \
  }                                                                                 \
  inline Status try_##name(const Context& c, std::span<const T> a, T s,             \
                           std::span<T> out) {                                      \
    return detail::scalar_rhs<T>(c, BinaryOp::id, a, s, out);                     \
  }                                                                                 \
  inline Status try_##name(const Context& c, T s, std::span<const T> b,             \
                           std::span<T> out) {                                      \
    return detail::scalar_lhs<T>(c, BinaryOp::id, s, b, out);                     \
  }                                                                                 \
  inline Status try_##name(const Context& c, Extent e, Operand<T> a, Operand<T> b,  \
                           std::span<T> out) {                                      \
    return try_binary(c, BinaryOp::id, e, a, b, out);                             \
  }
#define TESSERA_BINARY_(name, id) TESSERA_BINARY_FORMS_(name, id, float) TESSERA_BINARY_FORMS_(name, id, double)
TESSERA_ELEMENTWISE_BINARY_OPS(TESSERA_BINARY_)
#undef TESSERA_BINARY_
#undef TESSERA_BINARY_FORMS_

#define TESSERA_UNARY_FORMS_(name, id, T)                                               \
  inline Status try_##name(const Context& c, std::span<const T> x, std::span<T> out) { \
    return try_unary(c, UnaryOp::id, x, out);                                     \
  }
#define TESSERA_UNARY_(name, id) TESSERA_UNARY_FORMS_(name, id, float) TESSERA_UNARY_FORMS_(name, id, double)
TESSERA_ELEMENTWISE_UNARY_OPS(TESSERA_UNARY_)
#undef TESSERA_UNARY_
#undef TESSERA_UNARY_FORMS_

#if TESSERA_HAS_EXCEPTIONS
#define TESSERA_BINARY_FORMS_(name, id, T)                                                \
  inline void name(const Context& c, std::span<const T> a, std::span<const T> b,      \
                   std::span<T> out) {                                                \
    throw_if_error(try_##name(c, a, b, out));                                         \
  }                                                                                   \
  inline void name(const Context& c, std::span<const T> a, T s, std::span<T> out) {   \
    throw_if_error(try_##name(c, a, s, out));                                         \
  }                                                                                   \
  inline void name(const Context& c, T s, std::span<const T> b, std::span<T> out) {   \
    throw_if_error(try_##name(c, s, b, out));                                         \
  }                                                                                   \
  inline void name(const Context& c, Extent e, Operand<T> a, Operand<T> b,            \
                   std::span<T> out) {                                                \
    throw_if_error(try_##name(c, e, a, b, out));                                      \
  }
#define TESSERA_BINARY_(name, id) TESSERA_BINARY_FORMS_(name, id, float) TESSERA_BINARY_FORMS_(name, id, double)
TESSERA_ELEMENTWISE_BINARY_OPS(TESSERA_BINARY_)
#undef TESSERA_BINARY_
#undef TESSERA_BINARY_FORMS_

#define TESSERA_UNARY_FORMS_(name, id, T)                                       \
  inline void name(const Context& c, std::span<const T> x, std::span<T> out) { \
    throw_if_error(try_##name(c, x, out));                                  \
  }
#define TESSERA_UNARY_(name, id) TESSERA_UNARY_FORMS_(name, id, float) TESSERA_UNARY_FORMS_(name, id, double)
TESSERA_ELEMENTWISE_UNARY_OPS(TESSERA_UNARY_)
#undef TESSERA_UNARY_
#undef TESSERA_UNARY_FORMS_
#endif

}  // namespace tessera
TESSERA_CXX_API_END
