// The kernel-table entries of dot and gemv (one Blas1Set per dtype), and the
// constants that fix their operation order. Kernels see contiguous,
// validated operands; strides, alpha/beta and the split across workers are
// the driver's (blas1_api.cc).
#pragma once

#include <cstddef>
#include <cstdint>

namespace tessera::core {

// dot's fixed partition (design.md §Reproducibility): the driver cuts [0, n) into blocks of
// kDotBlock elements whatever the worker count and ISA, each block's partial
// sum comes from one kernel call, and the partials are added in block order.
// 4096 elements (16 KiB of f32 per operand) keeps the per-block reduction
// and the partials array negligible while giving 10^7 elements ~2400 blocks
// to share out. It is a multiple of every kernel's unroll (4 vectors of up to
// 16 lanes), so no block ends inside a vector step.
inline constexpr std::size_t kDotBlock = 4096;

// Strided operands are gathered into chunks of this many elements; a multiple
// of every unroll (4 x 16 lanes), so a gathered block runs the same vector
// steps, in the same order, as a contiguous one: strides never change a bit.
inline constexpr std::size_t kDotGatherChunk = 256;

// gemv's driver hands a kernel at most this many output rows per call (its
// scratch lives on the stack: 8 KiB of f64).
inline constexpr std::size_t kGemvRowChunk = 1024;

// Partial dot of one block: sum_i x[i*incx] * y[i*incy], i < n <= kDotBlock.
// x and y point at element 0; a stride may be negative.
template <class T>
using DotBlockFn = T (*)(const T* x, std::ptrdiff_t incx, const T* y,
                         std::ptrdiff_t incy, std::size_t n);

// dot's partials of `blocks` whole, contiguous blocks of kDotBlock elements
// starting at x and y: partials[b] is exactly what DotBlockFn returns for
// block b. A kernel may read several blocks side by side (more streams in
// flight); the bits are the same.
template <class T>
using DotBlocksFn = void (*)(const T* x, const T* y, std::size_t blocks, T* partials);

// gemv kernels write raw sums (no alpha, beta) for `rows` output rows:
//   rows form:    out[i] = sum_{p<k} a[i*lda + p] * x[p]   (A's rows are dots)
//   columns form: out[i] = sum_{j<k} a[i + j*lda] * x[j]   (A's columns are axpys)
// x is contiguous. Each out[i] is computed by the same operation sequence
// whichever call, panel or position it falls in.
template <class T>
using GemvKernelFn = void (*)(const T* a, std::size_t lda, std::size_t rows,
                              std::size_t k, const T* x, T* out);

// The rows form with the driver's epilogue, for a y of unit stride (the
// small-call path's whole gemv): y[i] = alpha * s_i, or alpha * s_i +
// beta * y[i] when beta != 0, s_i what GemvKernelFn's rows form writes, the
// epilogue's products and sum rounded one by one as the driver's are. So y
// has the bits of the rows kernel followed by the driver's epilogue.
template <class T>
using GemvRowsYFn = void (*)(const T* a, std::size_t lda, std::size_t rows, std::size_t k,
                             const T* x, T alpha, T beta, T* y);

// The whole problem for the naive family: y[i*incy] = alpha * sum_p
// op(A)(i, p) * x[p*incx] + beta * y[i*incy], op(A)(i, p) at a[i*rs + p*cs].
// x and y point at element 0 (negative increments already resolved).
template <class T>
struct GemvProblem {
  std::int64_t m = 0, k = 0;
  T alpha{};
  const T* a = nullptr;
  std::int64_t rs = 0, cs = 0;
  const T* x = nullptr;
  std::int64_t incx = 1;
  T beta{};
  T* y = nullptr;
  std::int64_t incy = 1;
};

template <class T>
using NaiveDotFn = T (*)(std::int64_t n, const T* x, std::int64_t incx, const T* y,
                         std::int64_t incy);
template <class T>
using NaiveGemvFn = void (*)(const GemvProblem<T>& problem);

template <class T>
struct Blas1Set {
  // Optimized family.
  DotBlockFn<T> dot = nullptr;
  DotBlocksFn<T> dot_blocks = nullptr;
  GemvKernelFn<T> gemv_rows = nullptr;
  GemvKernelFn<T> gemv_cols = nullptr;
  GemvRowsYFn<T> gemv_rows_y = nullptr;
  // Output rows per register panel: the driver splits rows on multiples of it.
  std::size_t gemv_rows_panel = 1;
  std::size_t gemv_cols_panel = 1;
  // Naive family: the whole problem, serially.
  NaiveDotFn<T> naive_dot = nullptr;
  NaiveGemvFn<T> naive_gemv = nullptr;
};

// gemv with A in a half format (f16 or bf16, its 16-bit values), x and out
// f32: the f32 kernels' arithmetic on A's values widened as they are
// loaded, so out has the bits of the f32 kernel on the widened A. Panels
// as the f32 set's.
using GemvHalfKernelFn = void (*)(const std::uint16_t* a, std::size_t lda, std::size_t rows,
                                  std::size_t k, const float* x, float* out);
// dot of two f16 (or two bf16) vectors: the f32 set's dot and dot_blocks
// with x and y widened as they are loaded, so every partial is the f32
// set's on the widened vectors.
using DotHalfBlockFn = float (*)(const std::uint16_t* x, std::ptrdiff_t incx,
                                 const std::uint16_t* y, std::ptrdiff_t incy, std::size_t n);
using DotHalfBlocksFn = void (*)(const std::uint16_t* x, const std::uint16_t* y,
                                 std::size_t blocks, float* partials);
struct Blas1HalfSet {
  GemvHalfKernelFn rows = nullptr;
  GemvHalfKernelFn cols = nullptr;
  DotHalfBlockFn dot = nullptr;
  DotHalfBlocksFn dot_blocks = nullptr;
};

struct Blas1Kernels {
  Blas1Set<float> f32;
  Blas1Set<double> f64;
  Blas1HalfSet f16;  // null in the naive family (its drivers widen first)
  Blas1HalfSet bf16;
};

}  // namespace tessera::core
