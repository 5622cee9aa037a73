// dot and gemv drivers: validate every argument (SPEC §7), resolve BLAS
// increments to a pointer at element 0 plus a signed stride, pick a worker
// count with the bandwidth resolver (SPEC §2.3), then run the context's
// kernels on a split that cannot change a bit (SPEC §3).
#include <algorithm>
#include <cstdlib>
#include <new>

#include "core/src/api/context_state.hpp"
#include "core/src/api/validate.hpp"
#include "core/src/blas1/blas1_validate.hpp"
#include "core/src/parallel/bandwidth_split.hpp"
#include "tessera/blas1.hpp"

namespace tessera {
namespace {

template <class T>
const core::Blas1Set<T>& set_of(const core::KernelTable& table) {
  if constexpr (sizeof(T) == 4) {
    return table.blas1.f32;
  } else {
    return table.blas1.f64;
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

template <class T>
Status dot_impl(const Context& context, std::int64_t n, const T* x, std::int64_t incx,
                const T* y, std::int64_t incy, T* result, Parallelism parallelism) {
  const detail::ContextState* state = nullptr;
  TESSERA_RETURN_IF_ERROR(detail::context_state(context, &state));
  TESSERA_RETURN_IF_ERROR(blas1_detail::check_dot(n, x, incx, y, incy, result, parallelism,
                                                  sizeof(T)));
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
  auto block = [&](std::size_t b) {
    const std::size_t begin = b * core::kDotBlock;
    const std::size_t count = std::min(core::kDotBlock, len - begin);
    const auto off = static_cast<std::ptrdiff_t>(begin);
    return set.dot(x0 + off * incx, incx, y0 + off * incy, incy, count);
  };
  const core::BandwidthPlan plan =
      core::plan_bandwidth_workers(*state, 2 * len * sizeof(T), blocks, parallelism);
  // The partials are added in block order whoever computed them.
  if (plan.workers <= 1) {
    T sum = block(0);
    for (std::size_t b = 1; b < blocks; ++b) sum += block(b);
    *result = sum;
    return {};
  }
  Scratch<T> partials(blocks);
  if (partials.data() == nullptr) {
    return Status(StatusCode::kOutOfMemory, "dot: cannot allocate the block partials");
  }
  T* p = partials.data();
  core::run_bandwidth_split(*state, plan.workers, blocks, 1,
                            [&](std::size_t begin, std::size_t end) {
    for (std::size_t b = begin; b < end; ++b) p[b] = block(b);
  });
  T sum = p[0];
  for (std::size_t b = 1; b < blocks; ++b) sum += p[b];
  *result = sum;
  return {};
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

template <class T>
Status gemv_impl(const Context& context, Layout layout, Transpose trans, std::int64_t m,
                 std::int64_t n, T alpha, const T* a, std::int64_t lda, const T* x,
                 std::int64_t incx, T beta, T* y, std::int64_t incy, Parallelism parallelism) {
  const detail::ContextState* state = nullptr;
  TESSERA_RETURN_IF_ERROR(detail::context_state(context, &state));
  TESSERA_RETURN_IF_ERROR(blas1_detail::check_gemv(layout, trans, m, n, a, lda, x, incx, y,
                                                   incy, parallelism, sizeof(T)));
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
    pr.m = rows, pr.k = depth, pr.alpha = alpha, pr.a = a, pr.x = x0, pr.incx = incx;
    pr.beta = beta, pr.y = y0, pr.incy = incy;
    const bool rows_form = (layout == Layout::kRowMajor) == no_trans;
    pr.rs = rows_form ? lda : 1;
    pr.cs = rows_form ? 1 : lda;
    set.naive_gemv(pr);
    return {};
  }
  if (set.gemv_rows == nullptr || set.gemv_cols == nullptr) {
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
  const core::GemvKernelFn<T> kernel = rows_form ? set.gemv_rows : set.gemv_cols;
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

  const std::uint64_t bytes = (urows * udepth + udepth + 2 * urows) * sizeof(T);
  const std::uint64_t jobs = (urows + panel - 1) / panel;
  const core::BandwidthPlan plan = core::plan_bandwidth_workers(*state, bytes, jobs, parallelism);
  core::run_bandwidth_split(*state, plan.workers, urows, panel,
                            [&](std::size_t begin, std::size_t end) {
    T sums[core::kGemvRowChunk];
    for (std::size_t i = begin; i < end; i += core::kGemvRowChunk) {
      const std::size_t count = std::min(core::kGemvRowChunk, end - i);
      const T* ai = rows_form ? a + i * ulda : a + i;
      kernel(ai, ulda, count, udepth, xc, sums);
      apply_epilogue(sums, count, alpha, beta, y0 + static_cast<std::ptrdiff_t>(i) * incy,
                     static_cast<std::ptrdiff_t>(incy));
    }
  });
  return {};
}

}  // namespace

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

}  // namespace tessera
