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

#include "core/src/reduce/reduce_kernel.hpp"
#include "core/src/simd/vec_scalar.hpp"

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

// IEEE maximum (NaN wins, +0 > -0); -Inf pads, so it never changes a result.
template <class V>
typename V::Scalar max_block(const typename V::Scalar* x, std::size_t n) {
  using T = typename V::Scalar;
  const auto max = [](typename V::Reg a, typename V::Reg b) { return V::max(a, b); };
  return fold_lanes<V>(accumulate4<V>(x, n, -std::numeric_limits<T>::infinity(), max),
                       [](T a, T b) { return simd::scalar::Vec<T>::max(a, b); });
}

template <class V>
constexpr ReduceSet<typename V::Scalar> reduce_set() {
  ReduceSet<typename V::Scalar> s;
  s.sum = &sum_block<V>;
  s.max = &max_block<V>;
  return s;
}

template <class F32, class F64>
constexpr ReduceKernels reduce_kernels() {
  return {reduce_set<F32>(), reduce_set<F64>()};
}

}  // namespace tessera::core::reduce
