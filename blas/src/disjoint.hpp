// BLAS callers pass blocks of one matrix as separate operands: LAPACK's
// blocked factorizations update C = A(j:n, j:j+jb) from A(j:n, 0:j) and
// A(j:j+jb, 0:j), whose elements are disjoint but whose address ranges
// interleave (they share columns of the same array). The BLAS allows that;
// tessera's GEMM and GEMV refuse any input whose address range meets the
// output's (they cannot tell interleaved from aliased cheaply, and their
// packing may read an input after C was written). So the BLAS layer gives
// such an input a compact copy first: O(mk) or O(n) next to the product.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <vector>

#include "blas/src/blas_args.hpp"
#include "tessera/blas1.hpp"
#include "tessera/gemm.hpp"

namespace tessera::blas {

// The byte range [begin, end) an operand occupies.
struct Footprint {
  std::uintptr_t begin, end;
};

inline bool overlap(Footprint x, Footprint y) { return x.begin < y.end && y.begin < x.end; }

// A rows x cols matrix stored in `layout` with leading dimension ld.
template <class T>
Footprint matrix_footprint(Layout layout, std::int64_t rows, std::int64_t cols, std::int64_t ld,
                           const T* p) {
  const auto begin = reinterpret_cast<std::uintptr_t>(p);
  if (rows <= 0 || cols <= 0) return {begin, begin};
  const std::int64_t lines = layout == Layout::kColMajor ? cols : rows;
  const std::int64_t line = layout == Layout::kColMajor ? rows : cols;
  return {begin, begin + static_cast<std::uintptr_t>(((lines - 1) * ld + line) *
                                                     static_cast<std::int64_t>(sizeof(T)))};
}

// n elements with increment inc (from the lowest address, whatever inc's sign).
template <class T>
Footprint vector_footprint(std::int64_t n, std::int64_t inc, const T* p) {
  const auto begin = reinterpret_cast<std::uintptr_t>(p);
  if (n <= 0) return {begin, begin};
  const std::int64_t span = (n - 1) * std::llabs(inc) + 1;
  return {begin,
          begin + static_cast<std::uintptr_t>(span * static_cast<std::int64_t>(sizeof(T)))};
}

// A compact copy of a stored rows x cols matrix, same layout, leading
// dimension rows (column-major) or cols (row-major).
template <class T>
std::vector<T> compact_copy(Layout layout, std::int64_t rows, std::int64_t cols, const T* p,
                            std::int64_t ld) {
  const std::int64_t lines = layout == Layout::kColMajor ? cols : rows;
  const std::int64_t line = layout == Layout::kColMajor ? rows : cols;
  std::vector<T> out(static_cast<std::size_t>(lines * line));
  for (std::int64_t l = 0; l < lines; ++l) {
    for (std::int64_t i = 0; i < line; ++i) {
      out[static_cast<std::size_t>(l * line + i)] = p[l * ld + i];
    }
  }
  return out;
}

// tessera's GEMM with A and/or B replaced by compact copies (the inputs
// that share C's address range). Out of line: the copies' vectors and
// their destructors stay off the path of the calls that need none.
template <class T>
[[gnu::noinline]] Status gemm_with_copies(Layout layout, Transpose ta, Transpose tb,
                                          std::int64_t m, std::int64_t n, std::int64_t k,
                                          T alpha, const T* a, std::int64_t lda, bool copy_a,
                                          const T* b, std::int64_t ldb, bool copy_b, T beta,
                                          T* c, std::int64_t ldc) {
  std::vector<T> a_copy, b_copy;
  // A is stored m x k, or k x m when transposed; B k x n or n x k.
  const std::int64_t ar = ta == Transpose::kNo ? m : k, ac = ta == Transpose::kNo ? k : m;
  const std::int64_t br = tb == Transpose::kNo ? k : n, bc = tb == Transpose::kNo ? n : k;
  if (copy_a) {
    a_copy = compact_copy(layout, ar, ac, a, lda);
    a = a_copy.data();
    lda = layout == Layout::kColMajor ? ar : ac;
  }
  if (copy_b) {
    b_copy = compact_copy(layout, br, bc, b, ldb);
    b = b_copy.data();
    ldb = layout == Layout::kColMajor ? br : bc;
  }
  return try_gemm(blas_context(), layout, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

// tessera's GEMM, with an input that shares C's address range copied first.
template <class T>
Status gemm_disjoint(Layout layout, Transpose ta, Transpose tb, std::int64_t m, std::int64_t n,
                     std::int64_t k, T alpha, const T* a, std::int64_t lda, const T* b,
                     std::int64_t ldb, T beta, T* c, std::int64_t ldc) {
  // Also when alpha is 0: tessera's GEMM checks its operands whether or
  // not it reads them, and the BLAS allows any A and B then.
  if (m > 0 && n > 0) {
    const Footprint fc = matrix_footprint(layout, m, n, ldc, c);
    const std::int64_t ar = ta == Transpose::kNo ? m : k, ac = ta == Transpose::kNo ? k : m;
    const std::int64_t br = tb == Transpose::kNo ? k : n, bc = tb == Transpose::kNo ? n : k;
    const bool copy_a = overlap(matrix_footprint(layout, ar, ac, lda, a), fc);
    const bool copy_b = overlap(matrix_footprint(layout, br, bc, ldb, b), fc);
    if (copy_a || copy_b) {
      return gemm_with_copies(layout, ta, tb, m, n, k, alpha, a, lda, copy_a, b, ldb, copy_b,
                              beta, c, ldc);
    }
  }
  return try_gemm(blas_context(), layout, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

// tessera's GEMV with A and/or x replaced by compact copies; out of line,
// as gemm_with_copies.
template <class T>
[[gnu::noinline]] Status gemv_with_copies(Layout layout, Transpose t, std::int64_t m,
                                          std::int64_t n, T alpha, const T* a, std::int64_t lda,
                                          bool copy_a, const T* x, std::int64_t incx,
                                          bool copy_x, T beta, T* y, std::int64_t incy) {
  std::vector<T> a_copy, x_copy;
  if (copy_a) {
    a_copy = compact_copy(layout, m, n, a, lda);
    a = a_copy.data();
    lda = layout == Layout::kColMajor ? m : n;
  }
  if (copy_x) {
    // Logical order kept: a negative increment's first element is at the
    // highest address, and the copy walks it the same way.
    const std::int64_t lenx = t == Transpose::kNo ? n : m;
    x_copy.resize(static_cast<std::size_t>(lenx));
    const T* first = incx < 0 ? x + (lenx - 1) * -incx : x;
    for (std::int64_t i = 0; i < lenx; ++i) x_copy[static_cast<std::size_t>(i)] = first[i * incx];
    x = x_copy.data();
    incx = 1;
  }
  return try_gemv(blas_context(), layout, t, m, n, alpha, a, lda, x, incx, beta, y, incy);
}

// tessera's GEMV, with A or x copied first when it shares y's address range.
template <class T>
Status gemv_disjoint(Layout layout, Transpose t, std::int64_t m, std::int64_t n, T alpha,
                     const T* a, std::int64_t lda, const T* x, std::int64_t incx, T beta, T* y,
                     std::int64_t incy) {
  const std::int64_t lenx = t == Transpose::kNo ? n : m, leny = t == Transpose::kNo ? m : n;
  const Footprint fy = vector_footprint(leny, incy, y);
  const bool copy_a = overlap(matrix_footprint(layout, m, n, lda, a), fy);
  const bool copy_x = overlap(vector_footprint(lenx, incx, x), fy);
  if (copy_a || copy_x) {
    return gemv_with_copies(layout, t, m, n, alpha, a, lda, copy_a, x, incx, copy_x, beta, y,
                            incy);
  }
  return try_gemv(blas_context(), layout, t, m, n, alpha, a, lda, x, incx, beta, y, incy);
}

}  // namespace tessera::blas
