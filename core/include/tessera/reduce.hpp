// Reductions and softmax along the last axis of a row-major matrix, f32 and
// f64. x is rows x cols, row r at x + r*ldx, ldx >= cols (ldx >= 1 when cols
// is 0). One result per row:
//
//   sum:     out[r] = sum_j x(r, j)                     (0 for an empty row)
//   mean:    out[r] = sum_j x(r, j) / cols              (NaN for an empty row,
//                                                        as NumPy's np.mean,
//                                                        without its warning)
//   max:     out[r] = max_j x(r, j)                     (NaN if the row holds one)
//   argmax:  out[r] = the first j with x(r, j) == max,  or the first NaN's j
//            as an int64 (NumPy's np.argmax)
//   softmax:     y(r, j) = exp(x(r, j) - m) / sum_k exp(x(r, k) - m)
//   log_softmax: y(r, j) = (x(r, j) - m) - log(sum_k exp(x(r, k) - m))
//            with m = max_j x(r, j) (numerically stable: every exp is of a
//            value <= 0), y row r at y + r*ldy.
//
// Special values, as NumPy and PyTorch:
//   - max and argmax of an empty row (cols == 0 with rows > 0) have no
//     value: an error naming cols, before anything is written;
//   - a NaN in a row makes its sum, mean, max and softmax NaN; its argmax is
//     the index of the first NaN;
//   - softmax of a fully masked row (every element -Inf) is NaN in every
//     element (m = -Inf, exp(-Inf - -Inf) = NaN), as torch.softmax; a +Inf
//     in a row makes the whole row NaN (exp(Inf - Inf) = NaN in the sum), as
//     torch.softmax. log_softmax likewise. (PyTorch keeps this as intended:
//     pytorch/pytorch#25110, "0/0 is NaN", and #6864 for +Inf; only its
//     private _safe_softmax inside attention zeroes masked rows.)
//   - the max of +0 and -0 is +0 (IEEE maximum); a NaN result is some NaN
//     (payload not specified).
//
// Aliasing: softmax's y may be exactly x (y == x and ldy == ldx: in place);
// any other overlap is an error. out of a reduction must not overlap x.
// Negative sizes, ldx < cols, null pointers with non-zero extents and
// spans beyond the address space are errors naming the argument.
//
// Reproducibility: the bits never depend on the worker count. Each row is
// cut into fixed blocks of 4096 elements (whatever the workers and ISA);
// every block's partial (sum, max, sum of exponentials) comes from one
// kernel call with a fixed operation order, and a row's partials are
// combined in block order. Workers take whole (row, block) units. SSE2 and
// WASM SIMD128 give the same bits; other levels agree within rounding.
//
// The serial loop each call replaces (sum):
//   for (r = 0; r < rows; ++r) { s = 0; for (j = 0; j < cols; ++j) s += x[r*ldx + j]; out[r] = s; }
#pragma once

#include <cstdint>

#include "tessera/context.hpp"
#include "tessera/parallelism.hpp"
#include "tessera/platform/build_config.h"  // TESSERA_CXX_API_BEGIN

// The reduction list: one line per operation (C API, inventory and CLI
// names come from it).
#define TESSERA_REDUCE_OPS(X) X(sum, kSum) X(max, kMax) X(mean, kMean)

TESSERA_CXX_API_BEGIN
namespace tessera {

enum class ReduceOp {
#define TESSERA_ENUM_(name, id) id,
  TESSERA_REDUCE_OPS(TESSERA_ENUM_)
#undef TESSERA_ENUM_
};
inline constexpr int kReduceOpCount = 0
#define TESSERA_COUNT_(name, id) +1
    TESSERA_REDUCE_OPS(TESSERA_COUNT_);
#undef TESSERA_COUNT_

const char* reduce_op_name(ReduceOp op) noexcept;  // "sum", "max", "mean"

Status try_reduce(const Context& context, ReduceOp op, std::int64_t rows, std::int64_t cols,
                  const float* x, std::int64_t ldx, float* out, Parallelism parallelism = {});
Status try_reduce(const Context& context, ReduceOp op, std::int64_t rows, std::int64_t cols,
                  const double* x, std::int64_t ldx, double* out,
                  Parallelism parallelism = {});

Status try_argmax(const Context& context, std::int64_t rows, std::int64_t cols, const float* x,
                  std::int64_t ldx, std::int64_t* out, Parallelism parallelism = {});
Status try_argmax(const Context& context, std::int64_t rows, std::int64_t cols,
                  const double* x, std::int64_t ldx, std::int64_t* out,
                  Parallelism parallelism = {});

Status try_softmax(const Context& context, std::int64_t rows, std::int64_t cols, const float* x,
                   std::int64_t ldx, float* y, std::int64_t ldy, Parallelism parallelism = {});
Status try_softmax(const Context& context, std::int64_t rows, std::int64_t cols,
                   const double* x, std::int64_t ldx, double* y, std::int64_t ldy,
                   Parallelism parallelism = {});
Status try_log_softmax(const Context& context, std::int64_t rows, std::int64_t cols,
                       const float* x, std::int64_t ldx, float* y, std::int64_t ldy,
                       Parallelism parallelism = {});
Status try_log_softmax(const Context& context, std::int64_t rows, std::int64_t cols,
                       const double* x, std::int64_t ldx, double* y, std::int64_t ldy,
                       Parallelism parallelism = {});

#if TESSERA_HAS_EXCEPTIONS
template <class T>
inline void reduce(const Context& context, ReduceOp op, std::int64_t rows, std::int64_t cols,
                   const T* x, std::int64_t ldx, T* out, Parallelism parallelism = {}) {
  throw_if_error(try_reduce(context, op, rows, cols, x, ldx, out, parallelism));
}
template <class T>
inline void argmax(const Context& context, std::int64_t rows, std::int64_t cols, const T* x,
                   std::int64_t ldx, std::int64_t* out, Parallelism parallelism = {}) {
  throw_if_error(try_argmax(context, rows, cols, x, ldx, out, parallelism));
}
template <class T>
inline void softmax(const Context& context, std::int64_t rows, std::int64_t cols, const T* x,
                    std::int64_t ldx, T* y, std::int64_t ldy, Parallelism parallelism = {}) {
  throw_if_error(try_softmax(context, rows, cols, x, ldx, y, ldy, parallelism));
}
template <class T>
inline void log_softmax(const Context& context, std::int64_t rows, std::int64_t cols,
                        const T* x, std::int64_t ldx, T* y, std::int64_t ldy,
                        Parallelism parallelism = {}) {
  throw_if_error(try_log_softmax(context, rows, cols, x, ldx, y, ldy, parallelism));
}
#endif

}  // namespace tessera
TESSERA_CXX_API_END
