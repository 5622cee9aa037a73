// Last-axis reduction kernel bodies (one block of one row at a time),
// written once over a vector-traits type V (core/src/simd/vec_*.hpp) and
// instantiated in one file per ISA (core/src/isa/kernels_<isa>.cc).
// Operation order is part of the contract: it depends on V's lane count
// only, never on the row, the block's position or the caller's split, and
// uses only V::add / V::max, so backends with the same lanes (SSE2 and
// SIMD128) give the same bits.
#pragma once

#include <cstddef>
#include <limits>

#include "core/src/kernels/reduce_kernel.hpp"
#include "core/src/simd/lane_sum.hpp"
#include "core/src/simd/vec_scalar.hpp"
#include "core/src/simd/vmath.hpp"

namespace tessera::core::reduce {

// Lanes combined in a fixed order: lane 0, then lane 1, lane 2, ...
template <class V, class Combine>
inline typename V::Scalar fold_lanes(typename V::Reg v, Combine combine) {
  typename V::Scalar lanes[V::kLanes];
  V::store(lanes, v);
  typename V::Scalar s = lanes[0];
  for (int l = 1; l < V::kLanes; ++l) s = combine(s, lanes[l]);
  return s;
}

// Four accumulators over x[0, n): full groups of 4 vectors in turn, then
// single vectors into acc[0], then one partial vector padded with `pad` (the
// operation's identity) into acc[1]; acc[0..3] are then combined as
// (acc0 op acc1) op (acc2 op acc3). The same sequence as dot's
// (blas1_body.hpp), for the same reasons.
template <class V, class Op>
inline typename V::Reg accumulate4(const typename V::Scalar* x, std::size_t n,
                                   typename V::Scalar pad, Op op) {
  using T = typename V::Scalar;
  using Reg = typename V::Reg;
  constexpr std::size_t kL = V::kLanes;
  Reg acc[4] = {V::set1(pad), V::set1(pad), V::set1(pad), V::set1(pad)};
  std::size_t i = 0;
  for (; i + 4 * kL <= n; i += 4 * kL) {
    acc[0] = op(acc[0], V::load(x + i));
    acc[1] = op(acc[1], V::load(x + i + kL));
    acc[2] = op(acc[2], V::load(x + i + 2 * kL));
    acc[3] = op(acc[3], V::load(x + i + 3 * kL));
  }
  for (; i + kL <= n; i += kL) acc[0] = op(acc[0], V::load(x + i));
  if (i < n) {
    T tail[kL];
    for (std::size_t l = 0; l < kL; ++l) tail[l] = i + l < n ? x[i + l] : pad;
    acc[1] = op(acc[1], V::load(tail));
  }
  return op(op(acc[0], acc[1]), op(acc[2], acc[3]));
}

template <class V>
typename V::Scalar sum_block(const typename V::Scalar* x, std::size_t n) {
  using T = typename V::Scalar;
  const auto add = [](typename V::Reg a, typename V::Reg b) { return V::add(a, b); };
  return fold_lanes<V>(accumulate4<V>(x, n, T(0), add), [](T a, T b) { return a + b; });
}

// The larger of a and b when neither is NaN, b when b is NaN: the traits'
// one-instruction max_ordered where they have one (SSE's maxps returns its
// second operand on a NaN, wasm's pmax(b, a) too, NEON's fmax the NaN),
// else a compare and a select.
template <class V>
inline typename V::Reg max_ordered(typename V::Reg a, typename V::Reg b) {
  if constexpr (requires { V::max_ordered(a, b); }) {
    return V::max_ordered(a, b);
  } else {
    return V::select(V::lt(b, a), a, b);
  }
}

// The maximum of x[0, n) by max_ordered, and whether it is the IEEE
// maximum's value: false when a NaN went by or the maximum is a zero,
// whose sign max_ordered does not decide (+0 > -0). A NaN element makes
// its accumulator NaN for one step, and a running sum of the accumulator
// keeps it for good (it reads no memory: a sum of the elements themselves
// made GCC load each vector twice, and loads were the bound). +Inf after a
// -Inf start, or an overflow of the sum, can also make it NaN: then the
// exact pass runs for nothing, never the other way. Otherwise the maximum
// is one value, and equal values other than zeros have equal bits: the
// result is exactly the IEEE maximum, in any order.
// plain_max's verdict on its folded accumulator and running sum.
template <class V>
inline bool plain_max_result(typename V::Reg acc, typename V::Reg sum,
                             typename V::Scalar* out) {
  using T = typename V::Scalar;
  // A NaN in any lane (it compares unequal to itself) leaves the block to
  // the exact sequence: one vector test each, not two scalar tests a lane
  // (the lane loop was most of a 16-float call).
  if (!V::all_true(V::eq(sum, sum)) || !V::all_true(V::eq(acc, acc))) return false;
  T m;
  if constexpr (requires { V::max_lanes(acc); }) {
    // A tree in registers (lanes l and l + L/2, ...): the lane loop below
    // is a chain of 15 dependent compares on AVX-512.
    m = V::max_lanes(acc);
  } else {
    T a[V::kLanes];
    V::store(a, acc);
    m = a[0];
    for (int l = 1; l < V::kLanes; ++l) m = m < a[l] ? a[l] : m;
  }
  if (m == T(0)) return false;
  *out = m;
  return true;
}

// plain_max for fewer than eight vectors: one accumulator and one sum, so a
// 16-float call sets up and folds two registers, not twelve (the result
// is the maximum's value in any order, so the same bits).
template <class V>
bool plain_max_short(const typename V::Scalar* x, std::size_t n, typename V::Scalar* out) {
  using T = typename V::Scalar;
  using Reg = typename V::Reg;
  constexpr std::size_t kL = V::kLanes;
  Reg acc = V::set1(-std::numeric_limits<T>::infinity()), sum = V::zero();
  std::size_t i = 0;
  for (; i + kL <= n; i += kL) {
    acc = max_ordered<V>(acc, V::load(x + i));
    sum = V::add(sum, acc);
  }
  if (i < n) {
    T tail[kL];
    for (std::size_t l = 0; l < kL; ++l) tail[l] = i + l < n ? x[i + l] : x[i];
    acc = max_ordered<V>(acc, V::load(tail));
    sum = V::add(sum, acc);
  }
  return plain_max_result<V>(acc, sum, out);
}

// The maximum of x[0, n) by max_ordered, and whether it is the IEEE
// maximum's value: false when a NaN went by or the maximum is a zero,
// whose sign max_ordered does not decide (+0 > -0). A NaN element makes
// its accumulator NaN for one step, and a running sum of the accumulator
// keeps it for good (it reads no memory: a sum of the elements themselves
// made GCC load each vector twice, and loads were the bound). +Inf after a
// -Inf start, or an overflow of the sum, can also make it NaN: then the
// exact pass runs for nothing, never the other way. Otherwise the maximum
// is one value, and equal values other than zeros have equal bits: the
// result is exactly the IEEE maximum, in any order.
template <class V>
bool plain_max(const typename V::Scalar* x, std::size_t n, typename V::Scalar* out) {
  using T = typename V::Scalar;
  using Reg = typename V::Reg;
  constexpr std::size_t kL = V::kLanes;
  // Eight accumulators and four sums, each sum taking two accumulators a
  // step, so a sum's add (3 cycles on Zen 3) comes once per eight vectors.
  // 4096 floats, AVX2, Zen 3: 190 ns a call, against 210 with four
  // accumulators and a sum each, and 94 for Eigen's max, which watches for
  // no NaN.
  constexpr std::size_t kAcc = 8, kSums = kAcc / 2;
  if (n < kAcc * kL) return plain_max_short<V>(x, n, out);
  const Reg lowest = V::set1(-std::numeric_limits<T>::infinity());
  Reg acc[kAcc], sum[kSums];
  for (std::size_t k = 0; k < kAcc; ++k) acc[k] = lowest;
  for (std::size_t k = 0; k < kSums; ++k) sum[k] = V::zero();
  std::size_t i = 0;
  for (; i + kAcc * kL <= n; i += kAcc * kL) {
    for (std::size_t k = 0; k < kAcc; ++k) acc[k] = max_ordered<V>(acc[k], V::load(x + i + k * kL));
    for (std::size_t k = 0; k < kSums; ++k) {
      sum[k] = V::add(sum[k], V::add(acc[k], acc[k + kSums]));
    }
  }
  for (; i + kL <= n; i += kL) {
    acc[0] = max_ordered<V>(acc[0], V::load(x + i));
    sum[0] = V::add(sum[0], acc[0]);
  }
  if (i < n) {
    T tail[kL];
    for (std::size_t l = 0; l < kL; ++l) tail[l] = i + l < n ? x[i + l] : x[i];
    acc[1] = max_ordered<V>(acc[1], V::load(tail));
    sum[1] = V::add(sum[1], acc[1]);
  }
  for (std::size_t k = 1; k < kAcc; ++k) acc[0] = max_ordered<V>(acc[0], acc[k]);
  for (std::size_t k = 1; k < kSums; ++k) sum[0] = V::add(sum[0], sum[k]);
  return plain_max_result<V>(acc[0], sum[0], out);
}

// IEEE maximum (NaN wins, +0 > -0); -Inf pads, so it never changes a result.
// ieee_maximum is nine operations a vector (4.6x Eigen's max over 4096
// floats on AVX2), so plain_max (two) runs first, and this exact sequence (whose
// order fixes which NaN wins) only for a block with a NaN or a zero
// maximum: the same bits either way.
template <class V>
typename V::Scalar max_block(const typename V::Scalar* x, std::size_t n) {
  using T = typename V::Scalar;
  T plain;
  if (n > 0 && plain_max<V>(x, n, &plain)) return plain;
  const auto max = [](typename V::Reg a, typename V::Reg b) { return V::max(a, b); };
  return fold_lanes<V>(accumulate4<V>(x, n, -std::numeric_limits<T>::infinity(), max),
                       [](T a, T b) { return simd::scalar::Vec<T>::max(a, b); });
}

// FirstIndexFn: a vector at a time where the traits name a mask's first
// true lane. Element by element (a compare and a branch each) the scan was
// most of an argmax: 256 floats 128 ns, 4096 floats 1015 ns on Zen 4's
// avx512 level, against 29 and 230 this way.
template <class V>
std::size_t first_index(const typename V::Scalar* x, std::size_t n, typename V::Scalar m) {
  const bool nan = m != m;
  std::size_t i = 0;
  if constexpr (requires(typename V::Mask k) { V::first_true(k); }) {
    constexpr std::size_t kL = V::kLanes;
    const typename V::Reg vm = V::set1(m);
    for (; i + kL <= n; i += kL) {
      const typename V::Reg v = V::load(x + i);
      const int lane = V::first_true(nan ? V::is_nan(v) : V::eq(v, vm));
      if (lane >= 0) return i + static_cast<std::size_t>(lane);
    }
  }
  for (; i < n; ++i) {
    if (nan ? x[i] != x[i] : x[i] == m) return i;
  }
  return 0;  // unreachable: m is one of the elements
}

// Softmax pieces over one block, with the backend's vector exp / log
// (core/src/simd/vmath.hpp). exp_sum: e = exp(x - shift), four accumulators
// in the order of accumulate4, stored into y when kStore (element i is read
// before y[i] is written, so y may be x).
template <class V, bool kStore>
typename V::Scalar exp_sum_impl(const typename V::Scalar* x, std::size_t n,
                                typename V::Scalar shift, typename V::Scalar* y) {
  using T = typename V::Scalar;
  using Reg = typename V::Reg;
  constexpr std::size_t kL = V::kLanes;
  const Reg s = V::set1(shift);
  Reg acc[4] = {V::zero(), V::zero(), V::zero(), V::zero()};
  auto step = [&](std::size_t i, Reg& a) {
    const Reg e = simd::vexp<V>(V::sub(V::load(x + i), s));
    if constexpr (kStore) V::store(y + i, e);
    a = V::add(a, e);
  };
  std::size_t i = 0;
  for (; i + 4 * kL <= n; i += 4 * kL) {
    step(i, acc[0]);
    step(i + kL, acc[1]);
    step(i + 2 * kL, acc[2]);
    step(i + 3 * kL, acc[3]);
  }
  for (; i + kL <= n; i += kL) step(i, acc[0]);
  if (i < n) {
    // -Inf pads: exp(-Inf - shift) = 0 for every shift but -Inf and NaN,
    // where the row's sum is NaN already, so the padding adds nothing.
    T tail[kL];
    for (std::size_t l = 0; l < kL; ++l) {
      tail[l] = i + l < n ? x[i + l] : -std::numeric_limits<T>::infinity();
    }
    const Reg e = simd::vexp<V>(V::sub(V::load(tail), s));
    if constexpr (kStore) {
      T lanes[kL];
      V::store(lanes, e);
      for (std::size_t l = 0; i + l < n; ++l) y[i + l] = lanes[l];
    }
    acc[1] = V::add(acc[1], e);
  }
  // The lanes by simd/lane_sum.hpp's halving tree (lane by lane, the 15
  // dependent adds were a third of a 16-float softmax on AVX-512).
  return simd::reduce_lanes<V>(V::add(V::add(acc[0], acc[1]), V::add(acc[2], acc[3])));
}

template <class V>
typename V::Scalar exp_sum_block(const typename V::Scalar* x, std::size_t n,
                                 typename V::Scalar shift, typename V::Scalar* y) {
  return y != nullptr ? exp_sum_impl<V, true>(x, n, shift, y)
                      : exp_sum_impl<V, false>(x, n, shift, y);
}

// y[i] /= divisor: a true division, as the reference's exp / sum.
template <class V>
void divide_block(typename V::Scalar* y, std::size_t n, typename V::Scalar divisor) {
  using T = typename V::Scalar;
  constexpr std::size_t kL = V::kLanes;
  const typename V::Reg d = V::set1(divisor);
  std::size_t i = 0;
  for (; i + kL <= n; i += kL) V::store(y + i, V::div(V::load(y + i), d));
  if (i < n) {
    T lanes[kL] = {};
    for (std::size_t l = 0; i + l < n; ++l) lanes[l] = y[i + l];
    V::store(lanes, V::div(V::load(lanes), d));
    for (std::size_t l = 0; i + l < n; ++l) y[i + l] = lanes[l];
  }
}

// y[i] = (x[i] - shift) - log_sum (y may be x).
template <class V>
void log_finish_block(const typename V::Scalar* x, std::size_t n, typename V::Scalar shift,
                      typename V::Scalar log_sum, typename V::Scalar* y) {
  using T = typename V::Scalar;
  using Reg = typename V::Reg;
  constexpr std::size_t kL = V::kLanes;
  const Reg s = V::set1(shift), l = V::set1(log_sum);
  std::size_t i = 0;
  for (; i + kL <= n; i += kL) V::store(y + i, V::sub(V::sub(V::load(x + i), s), l));
  if (i < n) {
    T lanes[kL] = {};
    for (std::size_t k = 0; i + k < n; ++k) lanes[k] = x[i + k];
    V::store(lanes, V::sub(V::sub(V::load(lanes), s), l));
    for (std::size_t k = 0; i + k < n; ++k) y[i + k] = lanes[k];
  }
}

// SoftmaxShortFn: the three passes' arithmetic on one register. The
// maximum is plain_max_short's (exact when it answers; a NaN or a zero
// maximum is left to the passes, and so is an infinite one, whose
// differences are NaN or infinite). exp_sum would add each exponential to
// a zero accumulator and the zero accumulators to the result: +0 + e is e
// for every e >= +0, so the lanes' sum is reduce_lanes(e) exactly, and
// divide's quotients are the same lanes divided by the same sum.
template <class V>
bool softmax_short(const typename V::Scalar* x, std::size_t n, typename V::Scalar* y) {
  using T = typename V::Scalar;
  using Reg = typename V::Reg;
  constexpr std::size_t kL = V::kLanes;
  T m;
  if (n > kL || !plain_max_short<V>(x, n, &m)) return false;
  if (!(m > -std::numeric_limits<T>::infinity() && m < std::numeric_limits<T>::infinity())) {
    return false;
  }
  Reg v;
  if (n == kL) {
    v = V::load(x);
  } else {
    // -Inf pads, as exp_sum's tail: their exponentials are +0.
    T tail[kL];
    for (std::size_t l = 0; l < kL; ++l) tail[l] = l < n ? x[l] : -std::numeric_limits<T>::infinity();
    v = V::load(tail);
  }
  const Reg e = simd::vexp<V>(V::sub(v, V::set1(m)));
  const Reg q = V::div(e, V::set1(simd::reduce_lanes<V>(e)));
  if (n == kL) {
    V::store(y, q);
  } else {
    T lanes[kL];
    V::store(lanes, q);
    for (std::size_t l = 0; l < n; ++l) y[l] = lanes[l];
  }
  return true;
}

// log of a row's sum: lane 0 of the backend's vector log, so every level
// uses its own vlog (SSE2 and SIMD128 the same one).
template <class V>
typename V::Scalar log_scalar(typename V::Scalar s) {
  typename V::Scalar lanes[V::kLanes];
  V::store(lanes, simd::vlog<V>(V::set1(s)));
  return lanes[0];
}

template <class V>
constexpr ReduceSet<typename V::Scalar> reduce_set() {
  ReduceSet<typename V::Scalar> s;
  s.sum = &sum_block<V>;
  s.max = &max_block<V>;
  s.first_index = &first_index<V>;
  s.exp_sum = &exp_sum_block<V>;
  s.divide = &divide_block<V>;
  s.log_finish = &log_finish_block<V>;
  s.log = &log_scalar<V>;
  s.softmax_short = &softmax_short<V>;
  return s;
}

template <class F32, class F64>
constexpr ReduceKernels reduce_kernels() {
  return {reduce_set<F32>(), reduce_set<F64>()};
}

}  // namespace tessera::core::reduce
