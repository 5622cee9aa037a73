// Last-axis reductions and softmax drivers: validate every argument
// (design.md §Bad input), pick a worker count with the bandwidth resolver
// (design.md §Bandwidth resolver), then run the context's block kernels on
// the fixed partition of each row (design.md §Reproducibility): blocks of
// kReduceBlock elements, partials combined in block order by the same code
// whoever computed them.
#include <algorithm>
#include <limits>
#include <memory>
#include <new>

#include "core/src/base/bandwidth_split.hpp"
#include "core/src/reduce/reduce_validate.hpp"
#include "core/src/simd/vec_scalar.hpp"
#include "tessera/reduce.hpp"

namespace tessera {
namespace {

template <class T>
const core::ReduceSet<T>& set_of(const core::KernelTable& table) {
  if constexpr (sizeof(T) == 4) {
    return table.reduce->f32;
  } else {
    return table.reduce->f64;
  }
}

// Partials of one row, combined in block order. Max decides on bits (NaN
// wins, +0 > -0), like the kernels: a float compare-and-select here could be
// folded into wasm's f32.max, which differs on NaN and zeros.
template <class T>
T combine(ReduceOp op, T a, T b) {
  return op == ReduceOp::kSum || op == ReduceOp::kMean ? a + b
                                                       : simd::scalar::Vec<T>::max(a, b);
}

template <class T>
struct RowShape {
  std::size_t rows, cols, ldx, blocks;
  const T* x;
  std::size_t block_len(std::size_t b) const {
    return std::min(core::kReduceBlock, cols - b * core::kReduceBlock);
  }
  const T* block_at(std::size_t row, std::size_t b) const {
    return x + row * ldx + b * core::kReduceBlock;
  }
};

// out[r] = the reduction of row r (sum or max; mean divides later), over
// (row, block) units split across the plan's workers. cols > 0.
template <class T>
Status reduce_rows(const detail::ContextState& state, ReduceOp op, const RowShape<T>& shape,
                   core::BlockReduceFn<T> kernel, Parallelism parallelism, T* out) {
  const std::size_t units = shape.rows * shape.blocks;
  // One row of one block (every small call): one kernel call, which is all
  // that any plan would run.
  if (units == 1) {
    out[0] = kernel(shape.block_at(0, 0), shape.block_len(0));
    return {};
  }
  const core::BandwidthPlan plan = core::plan_bandwidth_workers(
      state, (shape.rows * shape.cols + shape.rows) * sizeof(T), units, parallelism);
  auto row_value = [&](std::size_t r) {
    T value = kernel(shape.block_at(r, 0), shape.block_len(0));
    for (std::size_t b = 1; b < shape.blocks; ++b) {
      value = combine(op, value, kernel(shape.block_at(r, b), shape.block_len(b)));
    }
    return value;
  };
  if (plan.workers <= 1 || shape.blocks == 1) {
    core::run_bandwidth_split(state, plan.workers, shape.rows, 1,
                              [&](std::size_t begin, std::size_t end) {
                                for (std::size_t r = begin; r < end; ++r) out[r] = row_value(r);
                              });
    return {};
  }
  // Long rows: blocks of a row may go to different workers; their partials
  // are kept and combined afterwards in block order.
  std::unique_ptr<T[]> partials(new (std::nothrow) T[units]);
  if (partials == nullptr) {
    return Status(StatusCode::kOutOfMemory, "reduce: cannot allocate the block partials");
  }
  T* p = partials.get();
  core::run_bandwidth_split(state, plan.workers, units, 1,
                            [&](std::size_t begin, std::size_t end) {
                              for (std::size_t u = begin; u < end; ++u) {
                                const std::size_t r = u / shape.blocks, b = u % shape.blocks;
                                p[u] = kernel(shape.block_at(r, b), shape.block_len(b));
                              }
                            });
  for (std::size_t r = 0; r < shape.rows; ++r) {
    T value = p[r * shape.blocks];
    for (std::size_t b = 1; b < shape.blocks; ++b) {
      value = combine(op, value, p[r * shape.blocks + b]);
    }
    out[r] = value;
  }
  return {};
}

template <class T>
RowShape<T> shape_of(std::int64_t rows, std::int64_t cols, const T* x, std::int64_t ldx) {
  const auto c = static_cast<std::size_t>(cols);
  return {static_cast<std::size_t>(rows), c, static_cast<std::size_t>(ldx),
          (c + core::kReduceBlock - 1) / core::kReduceBlock, x};
}

// The small call (issue 41): one row of at most one block on an optimized
// level. Such a row is one unit of work, so every driver's plan runs it on
// the caller with one call per pass: the small paths below make those
// calls directly, with the same bits.
inline bool one_block_row(const detail::ContextState* state, std::int64_t rows,
                          std::int64_t cols) {
  return state != nullptr && rows == 1 && cols > 0 &&
         static_cast<std::uint64_t>(cols) <= core::kReduceBlock &&
         state->table->family != KernelFamily::kNaive;
}

// Every reduction that reduce_impl's small-call path does not take, errors
// included; out of line, so that the small path's frame holds none of the
// message formatting.
template <class T>
[[gnu::noinline]] Status reduce_general(const Context& context, ReduceOp op, std::int64_t rows,
                                        std::int64_t cols, const T* x, std::int64_t ldx, T* out,
                                        Parallelism parallelism) {
  const detail::ContextState* state = nullptr;
  TESSERA_RETURN_IF_ERROR(detail::context_state(context, &state));
  if (op != ReduceOp::kSum && op != ReduceOp::kMax && op != ReduceOp::kMean) {
    return Status::invalid_argument("op is not a ReduceOp value (got " +
                                    std::to_string(static_cast<int>(op)) + ")");
  }
  if (!reduce_detail::quick_valid_reduce(rows, cols, x, ldx, out, sizeof(T), op == ReduceOp::kMax,
                                         parallelism, sizeof(T))) {
    TESSERA_RETURN_IF_ERROR(reduce_detail::check_reduce(reduce_op_name(op), rows, cols, x, ldx, out,
                                                        sizeof(T), op == ReduceOp::kMax,
                                                        parallelism, sizeof(T)));
  }
  const core::ReduceSet<T>& set = set_of<T>(*state->table);
  if (state->table->family == KernelFamily::kNaive) {
    if (set.naive_reduce == nullptr) return Status::internal("naive table has no reduce");
    set.naive_reduce(op, rows, cols, x, ldx, out);
    return {};
  }
  const core::BlockReduceFn<T> kernel = op == ReduceOp::kMax ? set.max : set.sum;
  if (kernel == nullptr) return Status::internal("kernel table has no reduce");
  if (rows == 0) return {};
  if (cols == 0) {  // sum of nothing is 0, mean of nothing NaN (NumPy)
    const T empty = op == ReduceOp::kMean ? std::numeric_limits<T>::quiet_NaN() : T(0);
    std::fill(out, out + rows, empty);
    return {};
  }
  TESSERA_RETURN_IF_ERROR(
      reduce_rows(*state, op, shape_of(rows, cols, x, ldx), kernel, parallelism, out));
  if (op == ReduceOp::kMean) {
    const T n = static_cast<T>(cols);
    for (std::int64_t r = 0; r < rows; ++r) out[r] /= n;
  }
  return {};
}

// The small call, every check passed as integer tests: the block kernel
// on the caller's row, the one call reduce_rows would make.
template <class T>
Status reduce_impl(const Context& context, ReduceOp op, std::int64_t rows, std::int64_t cols,
                   const T* x, std::int64_t ldx, T* out, Parallelism parallelism) {
  const detail::ContextState* state = context.state();
  const bool known = op == ReduceOp::kSum || op == ReduceOp::kMax || op == ReduceOp::kMean;
  if (known && one_block_row(state, rows, cols) &&
      reduce_detail::quick_valid_reduce(rows, cols, x, ldx, out, sizeof(T), op == ReduceOp::kMax,
                                        parallelism, sizeof(T))) {
    const core::ReduceSet<T>& set = set_of<T>(*state->table);
    const core::BlockReduceFn<T> kernel = op == ReduceOp::kMax ? set.max : set.sum;
    if (kernel != nullptr) {
      T value = kernel(x, static_cast<std::size_t>(cols));
      if (op == ReduceOp::kMean) value /= static_cast<T>(cols);
      *out = value;
      return {};
    }
  }
  return reduce_general(context, op, rows, cols, x, ldx, out, parallelism);
}

// Every argmax that argmax_impl's small-call path does not take, errors
// included; out of line.
template <class T>
[[gnu::noinline]] Status argmax_general(const Context& context, std::int64_t rows,
                                        std::int64_t cols, const T* x, std::int64_t ldx,
                                        std::int64_t* out, Parallelism parallelism) {
  const detail::ContextState* state = nullptr;
  TESSERA_RETURN_IF_ERROR(detail::context_state(context, &state));
  if (!reduce_detail::quick_valid_reduce(rows, cols, x, ldx, out, sizeof(std::int64_t), true,
                                         parallelism, sizeof(T))) {
    TESSERA_RETURN_IF_ERROR(reduce_detail::check_reduce(
        "argmax", rows, cols, x, ldx, out, sizeof(std::int64_t), true, parallelism, sizeof(T)));
  }
  const core::ReduceSet<T>& set = set_of<T>(*state->table);
  if (state->table->family == KernelFamily::kNaive) {
    if (set.naive_argmax == nullptr) return Status::internal("naive table has no argmax");
    set.naive_argmax(rows, cols, x, ldx, out);
    return {};
  }
  if (set.max == nullptr || set.first_index == nullptr) {
    return Status::internal("kernel table has no argmax");
  }
  if (rows == 0) return {};
  // The vector max first, then a scan for its first position.
  const RowShape<T> shape = shape_of(rows, cols, x, ldx);
  // The row maxima: on the stack for a few rows, so a small call allocates
  // nothing.
  constexpr std::size_t kLocalRows = 32;
  T local[kLocalRows];
  std::unique_ptr<T[]> heap;
  T* maxima = local;
  if (shape.rows > kLocalRows) {
    heap.reset(new (std::nothrow) T[shape.rows]);
    if (heap == nullptr) {
      return Status(StatusCode::kOutOfMemory, "argmax: cannot allocate the row maxima");
    }
    maxima = heap.get();
  }
  TESSERA_RETURN_IF_ERROR(reduce_rows(*state, ReduceOp::kMax, shape, set.max, parallelism, maxima));
  const core::BandwidthPlan plan = core::plan_bandwidth_workers(
      *state, shape.rows * shape.cols * sizeof(T), shape.rows, parallelism);
  core::run_bandwidth_split(*state, plan.workers, shape.rows, 1,
                            [&](std::size_t begin, std::size_t end) {
                              for (std::size_t r = begin; r < end; ++r) {
                                out[r] = static_cast<std::int64_t>(set.first_index(
                                    x + r * shape.ldx, shape.cols, maxima[r]));
                              }
                            });
  return {};
}

// The small call, every check passed as integer tests: the block max and
// the scan for its first position on the caller, as argmax_general
// computes that row.
template <class T>
Status argmax_impl(const Context& context, std::int64_t rows, std::int64_t cols, const T* x,
                   std::int64_t ldx, std::int64_t* out, Parallelism parallelism) {
  const detail::ContextState* state = context.state();
  if (one_block_row(state, rows, cols) &&
      reduce_detail::quick_valid_reduce(rows, cols, x, ldx, out, sizeof(std::int64_t), true,
                                        parallelism, sizeof(T))) {
    const core::ReduceSet<T>& set = set_of<T>(*state->table);
    if (set.max != nullptr && set.first_index != nullptr) {
      const auto n = static_cast<std::size_t>(cols);
      *out = static_cast<std::int64_t>(set.first_index(x, n, set.max(x, n)));
      return {};
    }
  }
  return argmax_general(context, rows, cols, x, ldx, out, parallelism);
}

// Every softmax that softmax_impl's small-call path does not take, errors
// included; out of line.
template <class T>
[[gnu::noinline]] Status softmax_general(const Context& context, bool log, std::int64_t rows,
                                         std::int64_t cols, const T* x, std::int64_t ldx, T* y,
                                         std::int64_t ldy, Parallelism parallelism) {
  const detail::ContextState* state = nullptr;
  TESSERA_RETURN_IF_ERROR(detail::context_state(context, &state));
  if (!reduce_detail::quick_valid_softmax(rows, cols, x, ldx, y, ldy, parallelism, sizeof(T))) {
    TESSERA_RETURN_IF_ERROR(
        reduce_detail::check_softmax(rows, cols, x, ldx, y, ldy, parallelism, sizeof(T)));
  }
  const core::ReduceSet<T>& set = set_of<T>(*state->table);
  const char* name = log ? "log_softmax" : "softmax";
  if (state->table->family == KernelFamily::kNaive) {
    if (set.naive_softmax == nullptr) {
      return Status::internal(std::string("naive table has no ") + name);
    }
    set.naive_softmax(log, rows, cols, x, ldx, y, ldy);
    return {};
  }
  if (set.max == nullptr || set.exp_sum == nullptr || set.divide == nullptr ||
      set.log_finish == nullptr || set.log == nullptr) {
    return Status::internal(std::string("kernel table has no ") + name);
  }
  if (rows == 0 || cols == 0) return {};
  const RowShape<T> shape = shape_of(rows, cols, x, ldx);
  const std::size_t uldy = static_cast<std::size_t>(ldy);
  // One row, wholly on one worker: max, then the sum of exp(x - max) (stored
  // into y for softmax), then the division or log-softmax's subtraction.
  // Each pass runs over the row's fixed blocks, partials added in order.
  auto row = [&](std::size_t r) {
    T m = set.max(shape.block_at(r, 0), shape.block_len(0));
    for (std::size_t b = 1; b < shape.blocks; ++b) {
      m = simd::scalar::Vec<T>::max(m, set.max(shape.block_at(r, b), shape.block_len(b)));
    }
    T* yr = y + r * uldy;
    T sum = T(0);
    for (std::size_t b = 0; b < shape.blocks; ++b) {
      const T part = set.exp_sum(shape.block_at(r, b), shape.block_len(b), m,
                                 log ? nullptr : yr + b * core::kReduceBlock);
      sum = b == 0 ? part : sum + part;
    }
    if (log) {
      const T log_sum = set.log(sum);
      for (std::size_t b = 0; b < shape.blocks; ++b) {
        set.log_finish(shape.block_at(r, b), shape.block_len(b), m, log_sum,
                       yr + b * core::kReduceBlock);
      }
    } else {
      for (std::size_t b = 0; b < shape.blocks; ++b) {
        set.divide(yr + b * core::kReduceBlock, shape.block_len(b), sum);
      }
    }
  };
  const core::BandwidthPlan plan = core::plan_bandwidth_workers(
      *state, 2 * shape.rows * shape.cols * sizeof(T), shape.rows, parallelism);
  core::run_bandwidth_split(*state, plan.workers, shape.rows, 1,
                            [&](std::size_t begin, std::size_t end) {
                              for (std::size_t r = begin; r < end; ++r) row(r);
                            });
  return {};
}

// The small call, every check passed as integer tests: softmax_general's
// three passes over the caller's one block.
template <class T>
Status softmax_impl(const Context& context, bool log, std::int64_t rows, std::int64_t cols,
                    const T* x, std::int64_t ldx, T* y, std::int64_t ldy,
                    Parallelism parallelism) {
  const detail::ContextState* state = context.state();
  if (one_block_row(state, rows, cols) &&
      reduce_detail::quick_valid_softmax(rows, cols, x, ldx, y, ldy, parallelism, sizeof(T))) {
    const core::ReduceSet<T>& set = set_of<T>(*state->table);
    if (set.max != nullptr && set.exp_sum != nullptr && set.divide != nullptr &&
        set.log_finish != nullptr && set.log != nullptr) {
      const auto n = static_cast<std::size_t>(cols);
      // A row of one vector in one call (the same bits).
      if (!log && set.softmax_short != nullptr && set.softmax_short(x, n, y)) return {};
      const T m = set.max(x, n);
      const T sum = set.exp_sum(x, n, m, log ? nullptr : y);
      if (log) {
        set.log_finish(x, n, m, set.log(sum), y);
      } else {
        set.divide(y, n, sum);
      }
      return {};
    }
  }
  return softmax_general(context, log, rows, cols, x, ldx, y, ldy, parallelism);
}

}  // namespace

const char* reduce_op_name(ReduceOp op) noexcept {
  switch (op) {
#define TESSERA_CASE_(name, id) \
  case ReduceOp::id:            \
    return #name;
    TESSERA_REDUCE_OPS(TESSERA_CASE_)
#undef TESSERA_CASE_
  }
  return "unknown";
}

Status try_reduce(const Context& context, ReduceOp op, std::int64_t rows, std::int64_t cols,
                  const float* x, std::int64_t ldx, float* out, Parallelism parallelism) {
  return reduce_impl(context, op, rows, cols, x, ldx, out, parallelism);
}
Status try_reduce(const Context& context, ReduceOp op, std::int64_t rows, std::int64_t cols,
                  const double* x, std::int64_t ldx, double* out, Parallelism parallelism) {
  return reduce_impl(context, op, rows, cols, x, ldx, out, parallelism);
}
Status try_argmax(const Context& context, std::int64_t rows, std::int64_t cols, const float* x,
                  std::int64_t ldx, std::int64_t* out, Parallelism parallelism) {
  return argmax_impl(context, rows, cols, x, ldx, out, parallelism);
}
Status try_argmax(const Context& context, std::int64_t rows, std::int64_t cols,
                  const double* x, std::int64_t ldx, std::int64_t* out,
                  Parallelism parallelism) {
  return argmax_impl(context, rows, cols, x, ldx, out, parallelism);
}
Status try_softmax(const Context& context, std::int64_t rows, std::int64_t cols, const float* x,
                   std::int64_t ldx, float* y, std::int64_t ldy, Parallelism parallelism) {
  return softmax_impl(context, false, rows, cols, x, ldx, y, ldy, parallelism);
}
Status try_softmax(const Context& context, std::int64_t rows, std::int64_t cols,
                   const double* x, std::int64_t ldx, double* y, std::int64_t ldy,
                   Parallelism parallelism) {
  return softmax_impl(context, false, rows, cols, x, ldx, y, ldy, parallelism);
}
Status try_log_softmax(const Context& context, std::int64_t rows, std::int64_t cols,
                       const float* x, std::int64_t ldx, float* y, std::int64_t ldy,
                       Parallelism parallelism) {
  return softmax_impl(context, true, rows, cols, x, ldx, y, ldy, parallelism);
}
Status try_log_softmax(const Context& context, std::int64_t rows, std::int64_t cols,
                       const double* x, std::int64_t ldx, double* y, std::int64_t ldy,
                       Parallelism parallelism) {
  return softmax_impl(context, true, rows, cols, x, ldx, y, ldy, parallelism);
}

}  // namespace tessera
