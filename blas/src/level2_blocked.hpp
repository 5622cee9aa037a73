// The level-2 bodies that run on tessera's GEMV (real types, full
// storage): the O(n^2) reads of ?symv, ?trmv and ?trsv go through the
// dispatched SIMD kernels and the bandwidth resolver in panels beside
// nb x nb diagonal blocks, which take level2.hpp's loops (O(n nb) of the
// work). The reference's single loop over columns works one element at a
// time along a dependent chain: measured against OpenBLAS 0.3.21 on Zen 4
// at n = 4000, one thread, it ran symv at 0.31-0.39x, trmv at 0.42-0.49x
// and trsv at 0.46-0.61x (bench-blas_level2).
//
// Bits: for a given n and type a fixed sequence of GEMVs and loops (the
// block size depends on nothing else), and tessera's GEMV gives the same
// bits for every worker count, so these routines do too. Their sums are
// associated differently from the reference's, within the testers' ratio,
// and the panels multiply every element: where the reference skips a zero
// x(j) in trmv and trsv (so an Inf in A meets no 0 * Inf), a panel's GEMV
// does not (as OpenBLAS's and BLIS's kernels do not); the diagonal blocks
// keep the skip.
#pragma once

#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "blas/src/disjoint.hpp"
#include "blas/src/level2.hpp"

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

}  // namespace tessera::blas
