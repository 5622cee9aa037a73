// dot and gemv drivers: validate every argument (design.md §Bad input),
// resolve BLAS increments to a pointer at element 0 plus a signed stride,
// pick a worker count with the bandwidth resolver (design.md §Bandwidth
// resolver), then run the context's kernels on a split that cannot change a
// bit (design.md §Reproducibility).
#include <algorithm>
#include <cstdlib>
#include <new>
#include <type_traits>

#include "core/src/base/bandwidth_split.hpp"
#include "core/src/base/context_state.hpp"
#include "core/src/base/validate.hpp"
#include "core/src/blas1/blas1_validate.hpp"
#include "tessera/blas1.hpp"
#include "tessera/half.hpp"

namespace tessera {
namespace {

template <class T>
const core::Blas1Set<T>& set_of(const core::KernelTable& table) {
  if constexpr (sizeof(T) == 4) {
    return table.blas1->f32;
  } else {
    return table.blas1->f64;
  }
}

// BLAS: element 0 of a vector walked backwards is its last in memory.
template <class T>
T* element0(T* p, std::int64_t len, std::int64_t inc) {
  return inc >= 0 || len == 0 ? p : p + (len - 1) * -inc;
}

// Scratch for a packed vector: on the stack when small, else the heap.
template <class T>
class Scratch {
 public:
  explicit Scratch(std::size_t n) {
    if (n <= kInline) {
      data_ = inline_;
    } else {
      heap_ = static_cast<T*>(::operator new(n * sizeof(T), std::nothrow));
      data_ = heap_;
    }
  }
  ~Scratch() { ::operator delete(heap_); }
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;
  T* data() const { return data_; }

 private:
  static constexpr std::size_t kInline = 512;
  T inline_[kInline];
  T* heap_ = nullptr;
  T* data_ = nullptr;
};

// The partials of dot's blocks [begin, end) into out[0, end - begin): whole
// contiguous blocks through the kernel that reads several side by side, the
// rest (strided, or the last, short block) one at a time. Same bits either
// way (blas1_kernel.hpp).
// Set: a Blas1Set<T> over elements E = T, or a Blas1HalfSet over the
// 16-bit formats' bits (T = float).
template <class Set, class E, class T>
void block_partials(const Set& set, const E* x0, std::int64_t incx, const E* y0,
                    std::int64_t incy, std::size_t len, std::size_t begin, std::size_t end,
                    T* out) {
  constexpr std::size_t kB = core::kDotBlock;
  std::size_t b = begin;
  const std::size_t whole_end = std::min(end, len / kB);
  if (incx == 1 && incy == 1 && set.dot_blocks != nullptr && b < whole_end) {
    set.dot_blocks(x0 + b * kB, y0 + b * kB, whole_end - b, out);
    b = whole_end;
  }
  for (; b < end; ++b) {
    const auto off = static_cast<std::ptrdiff_t>(b * kB);
    out[b - begin] =
        set.dot(x0 + off * incx, incx, y0 + off * incy, incy, std::min(kB, len - b * kB));
  }
}

// dot over `workers`: the block partials land in one array and are added in
// block order whoever computed them. Out of line: its scratch would
// otherwise sit in the frame of every small call.
// Set and E as for block_partials.
template <class Set, class E, class T>
[[gnu::noinline]] Status dot_parallel(const detail::ContextState& state, int workers,
                                      const Set& set, const E* x0, std::int64_t incx,
                                      const E* y0, std::int64_t incy, std::size_t len, T* result) {
  const std::size_t blocks = (len + core::kDotBlock - 1) / core::kDotBlock;
  Scratch<T> partials(blocks);
  if (partials.data() == nullptr) {
    return Status(StatusCode::kOutOfMemory, "dot: cannot allocate the block partials");
  }
  T* p = partials.data();
  core::run_bandwidth_split(state, workers, blocks, 1, [&](std::size_t begin, std::size_t end) {
    block_partials(set, x0, incx, y0, incy, len, begin, end, p + begin);
  });
  T sum = p[0];
  for (std::size_t b = 1; b < blocks; ++b) sum += p[b];
  *result = sum;
  return {};
}

// Every dot that dot_impl's small-call path does not take, errors included;
// out of line, so that the small path's frame holds none of it.
template <class T>
[[gnu::noinline]] Status dot_general(const Context& context, std::int64_t n, const T* x,
                                     std::int64_t incx, const T* y, std::int64_t incy, T* result,
                                     Parallelism parallelism) {
  const detail::ContextState* state = context.state();
  if (state == nullptr) TESSERA_RETURN_IF_ERROR(detail::context_state(context, &state));
  if (!blas1_detail::quick_valid_dot(n, x, incx, y, incy, result, parallelism, sizeof(T))) {
    TESSERA_RETURN_IF_ERROR(
        blas1_detail::check_dot(n, x, incx, y, incy, result, parallelism, sizeof(T)));
  }
  const core::Blas1Set<T>& set = set_of<T>(*state->table);
  const T* x0 = element0(x, n, incx);
  const T* y0 = element0(y, n, incy);
  if (state->table->family == KernelFamily::kNaive) {
    if (set.naive_dot == nullptr) return Status::internal("naive table has no dot");
    *result = set.naive_dot(n, x0, incx, y0, incy);
    return {};
  }
  if (set.dot == nullptr) return Status::internal("kernel table has no dot");
  if (n == 0) {
    *result = T(0);
    return {};
  }
  const std::size_t len = static_cast<std::size_t>(n);
  const std::size_t blocks = (len + core::kDotBlock - 1) / core::kDotBlock;
  const core::BandwidthPlan plan =
      core::plan_bandwidth_workers(*state, 2 * len * sizeof(T), blocks, parallelism);
  if (plan.workers > 1)
    return dot_parallel(*state, plan.workers, set, x0, incx, y0, incy, len, result);
  if (blocks == 1) {
    *result = set.dot(x0, incx, y0, incy, len);
    return {};
  }
  // The partials are added in block order, as dot_parallel adds them; a
  // few dozen at a time on the stack.
  constexpr std::size_t kChunk = 32;
  T part[kChunk];
  T sum{};
  for (std::size_t b = 0; b < blocks; b += kChunk) {
    const std::size_t end = std::min(blocks, b + kChunk);
    block_partials(set, x0, incx, y0, incy, len, b, end, part);
    for (std::size_t i = 0; i < end - b; ++i) sum = b + i == 0 ? part[0] : sum + part[i];
  }
  *result = sum;
  return {};
}

// The small call (issue 41): one block on an optimized level, every check
// passed as integer tests. One block is one job, so any plan runs it on the
// caller: the one kernel call dot_general would make, so the same bits.
template <class T>
Status dot_impl(const Context& context, std::int64_t n, const T* x, std::int64_t incx,
                const T* y, std::int64_t incy, T* result, Parallelism parallelism) {
  const detail::ContextState* state = context.state();
  if (state != nullptr && n > 0 && static_cast<std::uint64_t>(n) <= core::kDotBlock &&
      state->table->family != KernelFamily::kNaive &&
      blas1_detail::quick_valid_dot(n, x, incx, y, incy, result, parallelism, sizeof(T))) {
    const core::Blas1Set<T>& set = set_of<T>(*state->table);
    if (set.dot != nullptr) {
      *result = set.dot(element0(x, n, incx), incx, element0(y, n, incy), incy,
                        static_cast<std::size_t>(n));
      return {};
    }
  }
  return dot_general(context, n, x, incx, y, incy, result, parallelism);
}

// y[i] = alpha * t[i] + beta * y[i] (beta == 0: y not read), same arithmetic
// for every element.
template <class T>
void apply_epilogue(const T* t, std::size_t rows, T alpha, T beta, T* y, std::ptrdiff_t incy) {
  if (beta == T(0)) {
    for (std::size_t i = 0; i < rows; ++i) y[static_cast<std::ptrdiff_t>(i) * incy] = alpha * t[i];
  } else {
    for (std::size_t i = 0; i < rows; ++i) {
      T& yi = y[static_cast<std::ptrdiff_t>(i) * incy];
      yi = alpha * t[i] + beta * yi;
    }
  }
}

// A's elements as the kernels read them: T itself, or a half format's bits.
template <class T, class AT>
using AElem = std::conditional_t<std::is_same_v<T, AT>, T, std::uint16_t>;

// The naive family's gemv of a half-format A: A's stored span (count
// elements) widened by the naive conversions (double arithmetic) into out,
// for its f32 gemv.
template <class AT>
void widen_for_naive(const core::KernelTable& table, const std::uint16_t* a, std::size_t count,
                     float* out) {
  const core::WidenFn widen =
      std::is_same_v<AT, bf16> ? table.half->bf16_to_f32 : table.half->f16_to_f32;
  widen(a, out, count);
}

// y[i] for rows [begin, end) of op(A) (rows form: A's row i contiguous;
// else A's column i): the kernel on kGemvRowChunk rows at a time, then the
// epilogue. Every worker count computes a row the same way.
template <class T, class AE, class KernelFn>
void gemv_row_range(KernelFn kernel, bool rows_form, const AE* a, std::size_t ulda,
                    std::size_t udepth, const T* xc, T alpha, T beta, T* y0,
                    std::ptrdiff_t incy, std::size_t begin, std::size_t end) {
  T sums[core::kGemvRowChunk];
  for (std::size_t i = begin; i < end; i += core::kGemvRowChunk) {
    const std::size_t count = std::min(core::kGemvRowChunk, end - i);
    const AE* ai = rows_form ? a + i * ulda : a + i;
    kernel(ai, ulda, count, udepth, xc, sums);
    apply_epilogue(sums, count, alpha, beta, y0 + static_cast<std::ptrdiff_t>(i) * incy, incy);
  }
}

// Every gemv that gemv_impl's small-call path does not take, errors
// included; out of line, so that the small path's frame holds none of it.
template <class T, class AT = T>
[[gnu::noinline]] Status gemv_general(const Context& context, Layout layout, Transpose trans,
                                      std::int64_t m, std::int64_t n, T alpha, const AT* a_in,
                                      std::int64_t lda, const T* x, std::int64_t incx, T beta,
                                      T* y, std::int64_t incy, Parallelism parallelism) {
  using AE = AElem<T, AT>;
  constexpr bool kHalfA = !std::is_same_v<AE, T>;
  const AE* a = reinterpret_cast<const AE*>(a_in);
  const detail::ContextState* state = context.state();
  if (state == nullptr) TESSERA_RETURN_IF_ERROR(detail::context_state(context, &state));
  if (!blas1_detail::quick_valid_gemv(layout, trans, m, n, a, lda, x, incx, y, incy, parallelism,
                                      sizeof(T), sizeof(AE))) {
    TESSERA_RETURN_IF_ERROR(blas1_detail::check_gemv(layout, trans, m, n, a, lda, x, incx, y, incy,
                                                     parallelism, sizeof(T), sizeof(AE)));
  }
  const core::Blas1Set<T>& set = set_of<T>(*state->table);
  const bool no_trans = trans == Transpose::kNo;
  const std::int64_t rows = no_trans ? m : n;  // y's length
  const std::int64_t depth = no_trans ? n : m;  // x's length
  // BLAS quick return: nothing to do, y untouched.
  if (m == 0 || n == 0 || (alpha == T(0) && beta == T(1))) return {};
  const T* x0 = element0(x, depth, incx);
  T* y0 = element0(y, rows, incy);
  if (state->table->family == KernelFamily::kNaive) {
    if (set.naive_gemv == nullptr) return Status::internal("naive table has no gemv");
    core::GemvProblem<T> pr;
    if constexpr (kHalfA) {
      const std::int64_t outer = layout == Layout::kRowMajor ? m : n;
      const std::int64_t inner = layout == Layout::kRowMajor ? n : m;
      const auto span = static_cast<std::size_t>((outer - 1) * lda + inner);
      Scratch<float> widened(span);
      if (widened.data() == nullptr) {
        return Status(StatusCode::kOutOfMemory, "gemv: cannot allocate the widened a");
      }
      widen_for_naive<AT>(*state->table, a, span, widened.data());
      return gemv_general<T>(context, layout, trans, m, n, alpha, widened.data(), lda, x, incx,
                             beta, y, incy, parallelism);
    } else {
      pr.a = a;
    }
    pr.m = rows, pr.k = depth, pr.alpha = alpha, pr.x = x0, pr.incx = incx;
    pr.beta = beta, pr.y = y0, pr.incy = incy;
    const bool rows_form = (layout == Layout::kRowMajor) == no_trans;
    pr.rs = rows_form ? lda : 1;
    pr.cs = rows_form ? 1 : lda;
    set.naive_gemv(pr);
    return {};
  }
  // The kernels of A's format: the f32 arithmetic, A widened as it loads.
  using KernelFn = void (*)(const AE*, std::size_t, std::size_t, std::size_t, const T*, T*);
  KernelFn rows_kernel = nullptr, cols_kernel = nullptr;
  if constexpr (kHalfA) {
    const core::Blas1HalfSet& half_set =
        std::is_same_v<AT, bf16> ? state->table->blas1->bf16 : state->table->blas1->f16;
    rows_kernel = half_set.rows;
    cols_kernel = half_set.cols;
  } else {
    rows_kernel = set.gemv_rows;
    cols_kernel = set.gemv_cols;
  }
  if (rows_kernel == nullptr || cols_kernel == nullptr) {
    return Status::internal("kernel table has no gemv");
  }
  // alpha == 0: y = beta * y, A and x unread (as BLAS).
  if (alpha == T(0)) {
    for (std::int64_t i = 0; i < rows; ++i) {
      T& yi = y0[i * incy];
      yi = beta == T(0) ? T(0) : beta * yi;
    }
    return {};
  }
  // Row i of op(A) is contiguous (rows form) or column j of op(A) is.
  const bool rows_form = (layout == Layout::kRowMajor) == no_trans;
  const KernelFn kernel = rows_form ? rows_kernel : cols_kernel;
  const std::size_t panel = rows_form ? set.gemv_rows_panel : set.gemv_cols_panel;
  const std::size_t ulda = static_cast<std::size_t>(lda);
  const std::size_t urows = static_cast<std::size_t>(rows);
  const std::size_t udepth = static_cast<std::size_t>(depth);

  // The kernels read x contiguously: a strided x is packed once.
  const T* xc = x0;
  Scratch<T> packed(incx == 1 ? 0 : udepth);
  if (incx != 1) {
    if (packed.data() == nullptr) {
      return Status(StatusCode::kOutOfMemory, "gemv: cannot allocate the packed x");
    }
    for (std::size_t p = 0; p < udepth; ++p) {
      packed.data()[p] = x0[static_cast<std::ptrdiff_t>(p) * incx];
    }
    xc = packed.data();
  }

  const std::uint64_t bytes = urows * udepth * sizeof(AE) + (udepth + 2 * urows) * sizeof(T);
  const std::uint64_t jobs = (urows + panel - 1) / panel;
  const core::BandwidthPlan plan = core::plan_bandwidth_workers(*state, bytes, jobs, parallelism);
  auto rows_of_y = [&](std::size_t begin, std::size_t end) {
    gemv_row_range(kernel, rows_form, a, ulda, udepth, xc, alpha, beta, y0,
                   static_cast<std::ptrdiff_t>(incy), begin, end);
  };
  // One worker runs rows_of_y here, not through the executor (a small
  // call's fixed cost); rows are computed the same way either way.
  core::run_bandwidth_split(*state, plan.workers, urows, panel, rows_of_y);
  return {};
}

// The small call (issue 41): f32 or f64 A on an optimized level, x
// contiguous, alpha != 0, every check passed as integer tests, and bytes
// the bandwidth resolver keeps on one worker: gemv_row_range over every
// row on the caller, as gemv_general's one-worker plan runs it.
template <class T, class AT = T>
Status gemv_impl(const Context& context, Layout layout, Transpose trans, std::int64_t m,
                 std::int64_t n, T alpha, const AT* a, std::int64_t lda, const T* x,
                 std::int64_t incx, T beta, T* y, std::int64_t incy, Parallelism parallelism) {
  if constexpr (std::is_same_v<T, AT>) {
    const detail::ContextState* state = context.state();
    if (state != nullptr && state->table->family != KernelFamily::kNaive && m > 0 && n > 0 &&
        alpha != T(0) && incx == 1 &&
        blas1_detail::quick_valid_gemv(layout, trans, m, n, a, lda, x, incx, y, incy,
                                       parallelism, sizeof(T), sizeof(T))) {
      const core::Blas1Set<T>& set = set_of<T>(*state->table);
      const bool no_trans = trans == Transpose::kNo;
      const bool rows_form = (layout == Layout::kRowMajor) == no_trans;
      const auto kernel = rows_form ? set.gemv_rows : set.gemv_cols;
      const auto rows = static_cast<std::size_t>(no_trans ? m : n);
      const auto depth = static_cast<std::size_t>(no_trans ? n : m);
      const std::uint64_t bytes = rows * depth * sizeof(T) + (depth + 2 * rows) * sizeof(T);
      if (set.gemv_rows != nullptr && set.gemv_cols != nullptr &&
          (core::bandwidth_serial(bytes, parallelism, state->parallel_facts, state->knobs) ||
           state->nested_call())) {
        // A unit-stride y of the rows form: the kernel writes y itself
        // (the same bits as the kernel and epilogue below).
        if (rows_form && incy == 1 && set.gemv_rows_y != nullptr) {
          set.gemv_rows_y(a, static_cast<std::size_t>(lda), rows, depth, x, alpha, beta, y);
          return {};
        }
        gemv_row_range(kernel, rows_form, a, static_cast<std::size_t>(lda), depth, x, alpha, beta,
                       element0(y, static_cast<std::int64_t>(rows), incy),
                       static_cast<std::ptrdiff_t>(incy), 0, rows);
        return {};
      }
    }
  }
  return gemv_general<T, AT>(context, layout, trans, m, n, alpha, a, lda, x, incx, beta, y, incy,
                             parallelism);
}

// n elements of a 16-bit vector (element i at x0[i * inc]) widened into
// out[0, n), for the naive family: contiguous through its kernel, strided
// gathered first.
void widen_vector(const std::uint16_t* x0, std::int64_t inc, std::size_t n, core::WidenFn widen,
                  std::uint16_t* gather, float* out) {
  if (inc == 1) {
    widen(x0, out, n);
    return;
  }
  for (std::size_t i = 0; i < n; ++i) gather[i] = x0[static_cast<std::ptrdiff_t>(i) * inc];
  widen(gather, out, n);
}

// dot of two 16-bit vectors: dot's partition into kDotBlock blocks, each
// block's partial from the level's half set (the f32 kernels with x and y
// widened as they are loaded), added in block order as dot_impl adds them:
// the bits of try_dot on the widened vectors, for every worker count.
template <class H>
Status half_dot_impl(const Context& context, std::int64_t n, const H* x, std::int64_t incx,
                     const H* y, std::int64_t incy, float* result, Parallelism parallelism) {
  const detail::ContextState* state = nullptr;
  TESSERA_RETURN_IF_ERROR(detail::context_state(context, &state));
  TESSERA_RETURN_IF_ERROR(
      blas1_detail::check_dot(n, x, incx, y, incy, result, parallelism, sizeof(H)));
  constexpr bool kBf16 = std::is_same_v<H, bf16>;
  const auto* x0 = reinterpret_cast<const std::uint16_t*>(element0(x, n, incx));
  const auto* y0 = reinterpret_cast<const std::uint16_t*>(element0(y, n, incy));
  const auto len = static_cast<std::size_t>(n);
  if (state->table->family == KernelFamily::kNaive) {
    // Both vectors widened whole (the family's conversions), then its f32 dot.
    const core::Blas1Set<float>& set = state->table->blas1->f32;
    if (set.naive_dot == nullptr) return Status::internal("naive table has no dot");
    const core::WidenFn widen = kBf16 ? state->table->half->bf16_to_f32 : state->table->half->f16_to_f32;
    Scratch<float> wx(len), wy(len);
    Scratch<std::uint16_t> gather(len);
    if (wx.data() == nullptr || wy.data() == nullptr || gather.data() == nullptr) {
      return Status(StatusCode::kOutOfMemory, "dot: cannot allocate the widened vectors");
    }
    widen_vector(x0, incx, len, widen, gather.data(), wx.data());
    widen_vector(y0, incy, len, widen, gather.data(), wy.data());
    *result = set.naive_dot(n, wx.data(), 1, wy.data(), 1);
    return {};
  }
  const core::Blas1HalfSet& set = kBf16 ? state->table->blas1->bf16 : state->table->blas1->f16;
  if (set.dot == nullptr) return Status::internal("kernel table has no half-precision dot");
  if (n == 0) {
    *result = 0.0f;
    return {};
  }
  // dot_parallel on one worker too: its partials and their block-order
  // sum are what dot_impl computes on any number of workers.
  const std::size_t blocks = (len + core::kDotBlock - 1) / core::kDotBlock;
  const core::BandwidthPlan plan =
      core::plan_bandwidth_workers(*state, 2 * len * sizeof(H), blocks, parallelism);
  return dot_parallel(*state, plan.workers, set, x0, incx, y0, incy, len, result);
}

}  // namespace

Status try_dot(const Context& context, std::int64_t n, const f16* x, std::int64_t incx,
               const f16* y, std::int64_t incy, float* result, Parallelism parallelism) {
  return half_dot_impl(context, n, x, incx, y, incy, result, parallelism);
}
Status try_dot(const Context& context, std::int64_t n, const bf16* x, std::int64_t incx,
               const bf16* y, std::int64_t incy, float* result, Parallelism parallelism) {
  return half_dot_impl(context, n, x, incx, y, incy, result, parallelism);
}

Status try_dot(const Context& context, std::int64_t n, const float* x, std::int64_t incx,
               const float* y, std::int64_t incy, float* result, Parallelism parallelism) {
  return dot_impl(context, n, x, incx, y, incy, result, parallelism);
}
Status try_dot(const Context& context, std::int64_t n, const double* x, std::int64_t incx,
               const double* y, std::int64_t incy, double* result, Parallelism parallelism) {
  return dot_impl(context, n, x, incx, y, incy, result, parallelism);
}

Status try_gemv(const Context& context, Layout layout, Transpose trans, std::int64_t m,
                std::int64_t n, float alpha, const float* a, std::int64_t lda, const float* x,
                std::int64_t incx, float beta, float* y, std::int64_t incy,
                Parallelism parallelism) {
  return gemv_impl(context, layout, trans, m, n, alpha, a, lda, x, incx, beta, y, incy,
                   parallelism);
}
Status try_gemv(const Context& context, Layout layout, Transpose trans, std::int64_t m,
                std::int64_t n, double alpha, const double* a, std::int64_t lda,
                const double* x, std::int64_t incx, double beta, double* y,
                std::int64_t incy, Parallelism parallelism) {
  return gemv_impl(context, layout, trans, m, n, alpha, a, lda, x, incx, beta, y, incy,
                   parallelism);
}

Status try_gemv(const Context& context, Layout layout, Transpose trans, std::int64_t m,
                std::int64_t n, float alpha, const f16* a, std::int64_t lda, const float* x,
                std::int64_t incx, float beta, float* y, std::int64_t incy,
                Parallelism parallelism) {
  return gemv_impl(context, layout, trans, m, n, alpha, a, lda, x, incx, beta, y, incy,
                   parallelism);
}
Status try_gemv(const Context& context, Layout layout, Transpose trans, std::int64_t m,
                std::int64_t n, float alpha, const bf16* a, std::int64_t lda, const float* x,
                std::int64_t incx, float beta, float* y, std::int64_t incy,
                Parallelism parallelism) {
  return gemv_impl(context, layout, trans, m, n, alpha, a, lda, x, incx, beta, y, incy,
                   parallelism);
}

}  // namespace tessera
