// The kernel-table entries of the last-axis reductions and softmax (one
// ReduceSet per dtype), and the constant that fixes their operation order.
// Kernels see one contiguous block of one row; rows, leading dimensions, the
// block partition and the split across workers are the driver's
// (reduce_api.cc).
#pragma once

#include <cstddef>
#include <cstdint>

#include "tessera/reduce.hpp"

namespace tessera::core {

// The fixed partition of a row (design.md §Reproducibility): the driver cuts [0, cols) into
// blocks of kReduceBlock elements whatever the worker count and ISA; each
// block's partial comes from one kernel call and the partials of a row are
// combined in block order. Same value and same reasons as kDotBlock: 4096
// elements is a multiple of every kernel's unroll (4 vectors of up to 16
// lanes), and a 10^7-element row still gives ~2400 blocks to share out.
inline constexpr std::size_t kReduceBlock = 4096;

// Partial sum / IEEE maximum of one block, 0 < n <= kReduceBlock.
template <class T>
using BlockReduceFn = T (*)(const T* x, std::size_t n);

// argmax's scan: the index of the first element of x[0, n) equal to m, the
// row's maximum (of the first NaN when m is NaN; -0 == +0), as NumPy's
// argmax. Any n (a whole row: the answer does not depend on a partition).
template <class T>
using FirstIndexFn = std::size_t (*)(const T* x, std::size_t n, T m);

// Softmax pieces, one block at a time (0 < n <= kReduceBlock):
//   exp_sum:  e[i] = exp(x[i] - shift); stores e into y when y is not null
//             (y may be x: element i is read before it is written); returns
//             the sum of e in the block's fixed order.
//   divide:   y[i] = y[i] / divisor.
//   log_finish: y[i] = (x[i] - shift) - log_sum (y may be x).
//   log:      log(s) of a row's sum (the vector log of the same backend, so
//             a level's log-softmax uses one log everywhere).
template <class T>
using ExpSumFn = T (*)(const T* x, std::size_t n, T shift, T* y);
template <class T>
using DivideFn = void (*)(T* y, std::size_t n, T divisor);
template <class T>
using LogFinishFn = void (*)(const T* x, std::size_t n, T shift, T log_sum, T* y);
template <class T>
using ScalarLogFn = T (*)(T s);

// softmax of a row of n elements in one call when the row fits one vector
// (n <= the level's lanes) and its maximum is finite and not a zero: the
// bits of max, exp_sum into y and divide, without their calls, tails and
// the round trip through y. Returns false, having written nothing,
// otherwise (the caller runs the three passes). y may be x.
template <class T>
using SoftmaxShortFn = bool (*)(const T* x, std::size_t n, T* y);

// The naive family: whole problems, serially, with long double accumulation.
// out has `rows` elements; softmax writes y (ldy), y may be x (same ld).
template <class T>
using NaiveReduceFn = void (*)(ReduceOp op, std::int64_t rows, std::int64_t cols, const T* x,
                               std::int64_t ldx, T* out);
template <class T>
using NaiveArgmaxFn = void (*)(std::int64_t rows, std::int64_t cols, const T* x,
                               std::int64_t ldx, std::int64_t* out);
template <class T>
using NaiveSoftmaxFn = void (*)(bool log, std::int64_t rows, std::int64_t cols, const T* x,
                                std::int64_t ldx, T* y, std::int64_t ldy);

template <class T>
struct ReduceSet {
  // Optimized family.
  BlockReduceFn<T> sum = nullptr;
  BlockReduceFn<T> max = nullptr;
  FirstIndexFn<T> first_index = nullptr;
  ExpSumFn<T> exp_sum = nullptr;
  DivideFn<T> divide = nullptr;
  LogFinishFn<T> log_finish = nullptr;
  ScalarLogFn<T> log = nullptr;
  SoftmaxShortFn<T> softmax_short = nullptr;
  // Naive family.
  NaiveReduceFn<T> naive_reduce = nullptr;
  NaiveArgmaxFn<T> naive_argmax = nullptr;
  NaiveSoftmaxFn<T> naive_softmax = nullptr;
};

struct ReduceKernels {
  ReduceSet<float> f32;
  ReduceSet<double> f64;
};

}  // namespace tessera::core
