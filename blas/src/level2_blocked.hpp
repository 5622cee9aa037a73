// The level-2 bodies that run on tessera's kernels (real types, full
// storage). ?symv, ?trmv and ?trsv: the O(n^2) reads go through tessera's
// GEMV (dispatched SIMD kernels, the bandwidth resolver) in panels beside
// nb x nb diagonal blocks, which take level2.hpp's loops (O(n nb) of the
// work). ?ger is one GEMM of depth 1 and ?syr2 one ?syr2k of depth 1
// (level3.hpp: GEMMs on the triangle's rectangles), so they run on the
// GEMM's kernels and threads. The reference's loops work one element at a
// time, symv and trsv along a dependent chain: against OpenBLAS 0.3.21 on
// Zen 4 at n = 4000, one thread, they ran symv at 0.31-0.39x, trmv at
// 0.42-0.49x and trsv at 0.46-0.61x, and ger and syr2 never used a second
// thread (bench-blas_level2).
//
// Bits: for a given n and type a fixed sequence of GEMVs, GEMMs and loops
// (no block size depends on anything else), and tessera's GEMV and GEMM
// give the same bits for every worker count, so these routines do too.
// Their sums and products are associated differently from the
// reference's, within the testers' ratio, and the kernels multiply every
// element: where the reference skips a zero x(j) (trmv, trsv) or y(j)
// (ger), so that an Inf or NaN elsewhere meets no 0 * Inf, the kernels do
// not (as OpenBLAS's and BLIS's do not); trmv's and trsv's diagonal blocks
// keep the skip.
#pragma once

#include <algorithm>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "blas/src/disjoint.hpp"
#include "blas/src/level2.hpp"
#include "blas/src/level3.hpp"

namespace tessera::blas {

// Element i0 of a BLAS vector of n elements with increment inc, as the
// first element of its sub-vector [i0, i0 + len) in BLAS's convention (a
// negative increment's sub-vector starts at its highest address).
template <class T>
T* sub_vector(T* v, std::int64_t n, std::int64_t inc, std::int64_t i0, std::int64_t len) {
  const StridedVector<T> sv(v, n, inc);
  return &sv[inc < 0 ? i0 + len - 1 : i0];
}

// Columns per block: a panel of about 256 KiB, so the second GEMV finds it
// in the first one's cache, between 16 and 256 columns (multiples of 16).
inline std::int64_t sym_mv_block(std::int64_t n, std::size_t element) {
  const std::int64_t fit = static_cast<std::int64_t>((256 * 1024) / element) / std::max<std::int64_t>(n, 1);
  return std::clamp<std::int64_t>(fit / 16 * 16, 16, 256);
}

// ?symv: each column block's off-diagonal panel is two GEMVs, the panel
// times x's block into the rows beside it and its transpose times the rest
// of x into the block's rows.
template <class T>
Status sym_mv_full_blocked(bool upper, std::int64_t n, T alpha, const T* a, std::int64_t lda,
                           const T* x, std::int64_t incx, T beta, T* y, std::int64_t incy) {
  const std::int64_t nb = sym_mv_block(n, sizeof(T));
  if (n <= nb) {
    sym_mv(upper, false, false, n, n - 1, alpha, a, FullStorage{lda}, x, incx, beta, y, incy);
    return {};
  }
  if (alpha == T(0) && beta == T(1)) return {};
  scale_vector(n, beta, StridedVector<T>(y, n, incy));
  if (alpha == T(0)) return {};
  const auto xs = [&](std::int64_t i0, std::int64_t len) {
    return sub_vector(x, n, incx, i0, len);
  };
  const auto ys = [&](std::int64_t i0, std::int64_t len) {
    return sub_vector(y, n, incy, i0, len);
  };
  for (std::int64_t j0 = 0; j0 < n; j0 += nb) {
    const std::int64_t len = std::min(nb, n - j0);
    sym_mv(upper, false, false, len, len - 1, alpha, a + j0 + j0 * lda, FullStorage{lda},
           xs(j0, len), incx, T(1), ys(j0, len), incy);
    // The panel beside the diagonal block: rows [0, j0) above it (upper)
    // or [j0 + len, n) below it (lower), columns [j0, j0 + len).
    const std::int64_t p0 = upper ? 0 : j0 + len, rows = upper ? j0 : n - j0 - len;
    if (rows == 0) continue;
    const T* panel = a + p0 + j0 * lda;
    TESSERA_RETURN_IF_ERROR(gemv_disjoint(Layout::kColMajor, Transpose::kNo, rows, len, alpha,
                                          panel, lda, xs(j0, len), incx, T(1), ys(p0, rows),
                                          incy));
    TESSERA_RETURN_IF_ERROR(gemv_disjoint(Layout::kColMajor, Transpose::kYes, rows, len, alpha,
                                          panel, lda, xs(p0, rows), incx, T(1), ys(j0, len),
                                          incy));
  }
  return {};
}

// ?trmv (solve false: x := op(A) x) and ?trsv (solve true: x := op(A)^-1
// x) by blocks of kTriBlock elements of x. Block J's panel is the rest of
// its column block of A, above the diagonal block (upper) or below it
// (lower): whole columns, read in address order. For op(A) = A the panel
// times x's block goes into the other rows (trmv: x's block still the
// input, so before the diagonal block; trsv: solved, so after); for A^T
// the panel's transpose times the other rows goes into the block (trmv:
// after the diagonal block, the other rows still the input; trsv: before,
// the other rows solved). The order of the blocks makes "still the input"
// and "solved" true. A fixed block: each panel is read once, so its size
// only trades GEMV calls against the diagonal blocks' loops.
inline constexpr std::int64_t kTriBlock = 64;

template <class T>
Status tri_full_blocked(bool solve, bool upper, bool transpose, bool unit, std::int64_t n,
                        const T* a, std::int64_t lda, T* x, std::int64_t incx) {
  const auto diagonal = [&](std::int64_t j0, std::int64_t len, T* xj) {
    if (solve) {
      tri_sv(upper, transpose, false, unit, len, len - 1, a + j0 + j0 * lda, FullStorage{lda}, xj,
             incx);
    } else {
      tri_mv(upper, transpose, false, unit, len, len - 1, a + j0 + j0 * lda, FullStorage{lda}, xj,
             incx);
    }
  };
  if (n <= kTriBlock) {
    diagonal(0, n, x);
    return {};
  }
  const auto xs = [&](std::int64_t i0, std::int64_t len) {
    return sub_vector(x, n, incx, i0, len);
  };
  const std::int64_t blocks = (n + kTriBlock - 1) / kTriBlock;
  const bool top_down = (upper != transpose) != solve;
  const bool panel_first = solve == transpose;
  const T alpha = solve ? T(-1) : T(1);
  for (std::int64_t s = 0; s < blocks; ++s) {
    const std::int64_t b = top_down ? s : blocks - 1 - s;
    const std::int64_t j0 = b * kTriBlock, len = std::min(kTriBlock, n - j0), j1 = j0 + len;
    const std::int64_t o0 = upper ? 0 : j1, olen = upper ? j0 : n - j1;
    const T* panel = a + o0 + j0 * lda;
    const auto apply_panel = [&]() -> Status {
      if (olen == 0) return {};
      if (transpose) {
        return gemv_disjoint(Layout::kColMajor, Transpose::kYes, olen, len, alpha, panel, lda,
                             xs(o0, olen), incx, T(1), xs(j0, len), incx);
      }
      return gemv_disjoint(Layout::kColMajor, Transpose::kNo, olen, len, alpha, panel, lda,
                           xs(j0, len), incx, T(1), xs(o0, olen), incx);
    };
    if (panel_first) TESSERA_RETURN_IF_ERROR(apply_panel());
    diagonal(j0, len, xs(j0, len));
    if (!panel_first) TESSERA_RETURN_IF_ERROR(apply_panel());
  }
  return {};
}

// The ?trmv / ?tbmv / ?tpmv / ?trsv / ?tbsv / ?tpsv body for any storage:
// full storage of a real type by blocks, everything else by the
// reference's loops.
template <class T, class Storage>
void triangular_body(const char* routine, bool solve, bool upper, bool transpose, bool conj,
                     bool unit, std::int64_t n, std::int64_t k, const T* a, Storage storage, T* x,
                     std::int64_t incx) {
  if constexpr (std::is_floating_point_v<T> && std::is_same_v<Storage, FullStorage>) {
    const Status s = tri_full_blocked(solve, upper, transpose, unit, n, a, storage.ld, x, incx);
    if (!s.ok()) report_failure(routine, s);
  } else if (solve) {
    tri_sv(upper, transpose, conj, unit, n, k, a, storage, x, incx);
  } else {
    tri_mv(upper, transpose, conj, unit, n, k, a, storage, x, incx);
  }
}

// The full-storage ?symv / ?hemv body: real types by blocks, complex ones
// (chemv, zhemv and the CBLAS row-major forms' conjugated views) by the
// reference's loop. A failure of the GEMV (out of memory for a copy) goes
// to report_failure under `routine`.
template <class T>
void sym_mv_full(const char* routine, bool upper, bool hermitian, bool conj, std::int64_t n,
                 T alpha, const T* a, std::int64_t lda, const T* x, std::int64_t incx, T beta,
                 T* y, std::int64_t incy) {
  if constexpr (std::is_floating_point_v<T>) {
    const Status s = sym_mv_full_blocked(upper, n, alpha, a, lda, x, incx, beta, y, incy);
    if (!s.ok()) report_failure(routine, s);
  } else {
    sym_mv(upper, hermitian, conj, n, n - 1, alpha, a, FullStorage{lda}, x, incx, beta, y, incy);
  }
}

// A BLAS vector as GEMM can read it with a positive stride: itself, or for
// a negative increment a contiguous copy in its logical order.
template <class T>
const T* forward_vector(const T* v, std::int64_t n, std::int64_t* inc, std::vector<T>* copy) {
  if (*inc > 0) return v;
  const StridedVector<const T> sv(v, n, *inc);
  copy->resize(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) (*copy)[static_cast<std::size_t>(i)] = sv[i];
  *inc = 1;
  return copy->data();
}

// ?ger / ?geru / ?gerc: A (m x n, column-major) += alpha x y^T, y (or, for
// a row-major gerc, x) conjugated when asked. Real: one GEMM of depth 1, x
// read as a 1 x m matrix with leading dimension incx (transposed), y as
// 1 x n with incy.
template <class T>
void ger_body(const char* routine, std::int64_t m, std::int64_t n, T alpha, const T* x,
              std::int64_t incx, bool conj_x, const T* y, std::int64_t incy, bool conj_y, T* a,
              std::int64_t lda) {
  if constexpr (std::is_floating_point_v<T>) {
    if (m == 0 || n == 0 || alpha == T(0)) return;
    std::vector<T> x_copy, y_copy;
    x = forward_vector(x, m, &incx, &x_copy);
    y = forward_vector(y, n, &incy, &y_copy);
    const Status s = gemm_disjoint(Layout::kColMajor, Transpose::kYes, Transpose::kNo, m, n,
                                   std::int64_t{1}, alpha, x, incx, y, incy, T(1), a, lda);
    if (!s.ok()) report_failure(routine, s);
  } else {
    ger_update(m, n, alpha, x, incx, conj_x, y, incy, conj_y, a, lda);
  }
}

// ?syr2 / ?her2 on full storage: real, syr2k of depth 1 (x and y as 1 x n
// matrices, transposed); complex, the reference's loop.
template <class T>
void sym_r2_full(const char* routine, bool upper, bool hermitian, bool conj, std::int64_t n,
                 T alpha, const T* x, std::int64_t incx, const T* y, std::int64_t incy, T* a,
                 std::int64_t lda) {
  if constexpr (std::is_floating_point_v<T>) {
    if (n == 0 || alpha == T(0)) return;
    std::vector<T> x_copy, y_copy;
    x = forward_vector(x, n, &incx, &x_copy);
    y = forward_vector(y, n, &incy, &y_copy);
    syr2k_colmajor(routine, false, upper ? 'U' : 'L', 'T', n, std::int64_t{1}, alpha, x, incx, y,
                   incy, T(1), a, lda);
  } else {
    sym_r2(upper, hermitian, conj, n, alpha, x, incx, y, incy, a, FullStorage{lda});
  }
}

}  // namespace tessera::blas
