// dot and gemv kernel bodies, written once over a vector-traits type V
// (core/src/simd/vec_*.hpp) and instantiated in one file per ISA
// (core/src/isa/kernels_<isa>.cc). Operation order is part of the contract:
// it depends on V's lane count only, never on strides, panels or the caller's
// split, and uses only V::mul_add / V::add, so two backends with the same
// lanes and the same mul_add (SSE2 and SIMD128: multiply, then add) give the
// same bits.
#pragma once

#include <cstddef>

#include "core/src/blas1/blas1_kernel.hpp"

namespace tessera::core::blas1 {

// Horizontal sum in a fixed order: lane 0, then + lane 1, + lane 2, ...
template <class V>
inline typename V::Scalar reduce_lanes(typename V::Reg v) {
  typename V::Scalar lanes[V::kLanes];
  V::store(lanes, v);
  typename V::Scalar s = lanes[0];
  for (int l = 1; l < V::kLanes; ++l) s += lanes[l];
  return s;
}

// Four accumulators over contiguous x, y; len is a multiple of 4 vectors
// except on the last call of a block, which takes the remainder: single
// vectors into acc[0], then one zero-padded partial vector into acc[1].
template <class V>
inline void dot_accumulate(const typename V::Scalar* x, const typename V::Scalar* y,
                           std::size_t len, typename V::Reg acc[4]) {
  using T = typename V::Scalar;
  constexpr std::size_t kL = V::kLanes;
  std::size_t i = 0;
  for (; i + 4 * kL <= len; i += 4 * kL) {
    acc[0] = V::mul_add(V::load(x + i), V::load(y + i), acc[0]);
    acc[1] = V::mul_add(V::load(x + i + kL), V::load(y + i + kL), acc[1]);
    acc[2] = V::mul_add(V::load(x + i + 2 * kL), V::load(y + i + 2 * kL), acc[2]);
    acc[3] = V::mul_add(V::load(x + i + 3 * kL), V::load(y + i + 3 * kL), acc[3]);
  }
  for (; i + kL <= len; i += kL) acc[0] = V::mul_add(V::load(x + i), V::load(y + i), acc[0]);
  if (i < len) {
    T bx[kL] = {}, by[kL] = {};
    for (std::size_t l = 0; i + l < len; ++l) {
      bx[l] = x[i + l];
      by[l] = y[i + l];
    }
    acc[1] = V::mul_add(V::load(bx), V::load(by), acc[1]);
  }
}

template <class V>
typename V::Scalar dot_block(const typename V::Scalar* x, std::ptrdiff_t incx,
                             const typename V::Scalar* y, std::ptrdiff_t incy,
                             std::size_t n) {
  using T = typename V::Scalar;
  typename V::Reg acc[4] = {V::zero(), V::zero(), V::zero(), V::zero()};
  if (incx == 1 && incy == 1) {
    dot_accumulate<V>(x, y, n, acc);
  } else {
    // Gathered chunks are multiples of the unroll, so this is the contiguous
    // order exactly.
    T bx[kDotGatherChunk], by[kDotGatherChunk];
    for (std::size_t start = 0; start < n; start += kDotGatherChunk) {
      const std::size_t len = n - start < kDotGatherChunk ? n - start : kDotGatherChunk;
      const T* px = x + static_cast<std::ptrdiff_t>(start) * incx;
      const T* py = y + static_cast<std::ptrdiff_t>(start) * incy;
      for (std::size_t i = 0; i < len; ++i) {
        bx[i] = px[static_cast<std::ptrdiff_t>(i) * incx];
        by[i] = py[static_cast<std::ptrdiff_t>(i) * incy];
      }
      dot_accumulate<V>(bx, by, len, acc);
    }
  }
  return reduce_lanes<V>(V::add(V::add(acc[0], acc[1]), V::add(acc[2], acc[3])));
}

// Rows form, R rows at once sharing the loads of x. Each row has two
// accumulators (even and odd vector steps), a single trailing vector goes to
// the first and a zero-padded partial vector to the second: the same sequence
// for R = 4 and R = 1, so a row's bits do not depend on its panel.
template <class V, int R>
inline void rows_panel(const typename V::Scalar* a, std::size_t lda, std::size_t k,
                       const typename V::Scalar* x, typename V::Scalar* out) {
  using T = typename V::Scalar;
  using Reg = typename V::Reg;
  constexpr std::size_t kL = V::kLanes;
  Reg acc0[R], acc1[R];
  for (int r = 0; r < R; ++r) acc0[r] = acc1[r] = V::zero();
  std::size_t p = 0;
  for (; p + 2 * kL <= k; p += 2 * kL) {
    const Reg x0 = V::load(x + p), x1 = V::load(x + p + kL);
    for (int r = 0; r < R; ++r) {
      acc0[r] = V::mul_add(V::load(a + r * lda + p), x0, acc0[r]);
      acc1[r] = V::mul_add(V::load(a + r * lda + p + kL), x1, acc1[r]);
    }
  }
  if (p + kL <= k) {
    const Reg x0 = V::load(x + p);
    for (int r = 0; r < R; ++r) acc0[r] = V::mul_add(V::load(a + r * lda + p), x0, acc0[r]);
    p += kL;
  }
  if (p < k) {
    T bx[kL] = {};
    for (std::size_t l = 0; p + l < k; ++l) bx[l] = x[p + l];
    const Reg x0 = V::load(bx);
    for (int r = 0; r < R; ++r) {
      T ba[kL] = {};
      for (std::size_t l = 0; p + l < k; ++l) ba[l] = a[r * lda + p + l];
      acc1[r] = V::mul_add(V::load(ba), x0, acc1[r]);
    }
  }
  for (int r = 0; r < R; ++r) out[r] = reduce_lanes<V>(V::add(acc0[r], acc1[r]));
}

inline constexpr int kRowsPanel = 4;

template <class V>
void gemv_rows(const typename V::Scalar* a, std::size_t lda, std::size_t rows,
               std::size_t k, const typename V::Scalar* x, typename V::Scalar* out) {
  std::size_t i = 0;
  for (; i + kRowsPanel <= rows; i += kRowsPanel) {
    rows_panel<V, kRowsPanel>(a + i * lda, lda, k, x, out + i);
  }
  for (; i < rows; ++i) rows_panel<V, 1>(a + i * lda, lda, k, x, out + i);
}

// Columns form: every out[i] is acc = 0, then acc = mul_add(a(i, j), x[j], acc)
// for j = 0, 1, ..., k-1 in order. Full vectors of rows keep acc in `out`
// (L1: at most kGemvRowChunk elements) and take four columns per pass; the
// last partial vector of rows goes through a zero-padded register. Both are
// the same lane-wise sequence, so position never changes a bit.
template <class V>
void gemv_cols(const typename V::Scalar* a, std::size_t lda, std::size_t rows,
               std::size_t k, const typename V::Scalar* x, typename V::Scalar* out) {
  using T = typename V::Scalar;
  using Reg = typename V::Reg;
  constexpr std::size_t kL = V::kLanes;
  const std::size_t full = rows / kL * kL;
  for (std::size_t i = 0; i < full; i += kL) V::store(out + i, V::zero());
  std::size_t j = 0;
  for (; j + 4 <= k; j += 4) {
    const Reg x0 = V::set1(x[j]), x1 = V::set1(x[j + 1]);
    const Reg x2 = V::set1(x[j + 2]), x3 = V::set1(x[j + 3]);
    const T* c0 = a + j * lda;
    const T* c1 = c0 + lda;
    const T* c2 = c1 + lda;
    const T* c3 = c2 + lda;
    for (std::size_t i = 0; i < full; i += kL) {
      Reg acc = V::load(out + i);
      acc = V::mul_add(V::load(c0 + i), x0, acc);
      acc = V::mul_add(V::load(c1 + i), x1, acc);
      acc = V::mul_add(V::load(c2 + i), x2, acc);
      acc = V::mul_add(V::load(c3 + i), x3, acc);
      V::store(out + i, acc);
    }
  }
  for (; j < k; ++j) {
    const Reg xj = V::set1(x[j]);
    const T* c = a + j * lda;
    for (std::size_t i = 0; i < full; i += kL) {
      V::store(out + i, V::mul_add(V::load(c + i), xj, V::load(out + i)));
    }
  }
  if (full < rows) {
    Reg acc = V::zero();
    for (std::size_t jj = 0; jj < k; ++jj) {
      T ba[kL] = {};
      for (std::size_t l = 0; full + l < rows; ++l) ba[l] = a[jj * lda + full + l];
      acc = V::mul_add(V::load(ba), V::set1(x[jj]), acc);
    }
    T lanes[kL];
    V::store(lanes, acc);
    for (std::size_t l = 0; full + l < rows; ++l) out[full + l] = lanes[l];
  }
}

template <class V>
constexpr Blas1Set<typename V::Scalar> blas1_set() {
  Blas1Set<typename V::Scalar> s;
  s.dot = &dot_block<V>;
  s.gemv_rows = &gemv_rows<V>;
  s.gemv_cols = &gemv_cols<V>;
  s.gemv_rows_panel = kRowsPanel;
  s.gemv_cols_panel = V::kLanes;
  return s;
}

template <class F32, class F64>
constexpr Blas1Kernels blas1_kernels() {
  return {blas1_set<F32>(), blas1_set<F64>()};
}

}  // namespace tessera::core::blas1
