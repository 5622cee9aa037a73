// The level-2 BLAS bodies, once for every type (s, d, c, z) and storage
// (full, band, packed: level2_storage.hpp), column-major as Fortran
// defines them, arguments already checked:
//   band_mv   y := alpha op(A) x + beta y          gemv (complex), gbmv
//   sym_mv    y := alpha A x + beta y, A = A^T/A^H  symv, sbmv, spmv, hemv, hbmv, hpmv
//   tri_mv    x := op(A) x, A triangular           trmv, tbmv, tpmv
//   tri_sv    x := op(A)^-1 x                      trsv, tbsv, tpsv
//   ger_update A := alpha x y^T + A                ger, geru, gerc
//   sym_r     A := alpha x x^T/x^H + A             syr, spr, her, hpr
//   sym_r2    A := alpha x y^H + conj(alpha) y x^H + A (or the ^T form)
//                                                  syr2, spr2, her2, hpr2
//
// op(A) is A, A^T or A^H; `conj` conjugates every element of A (or of the
// vectors, for the updates) as it is read. Together they give the CBLAS
// row-major calls without the copies the reference CBLAS makes: a
// row-major matrix is its transpose in column-major, and for a Hermitian
// one that transpose is its conjugate (cblas_level2.cc).
//
// Each body follows the reference's loop order and its special cases (y
// set to zero, not scaled, when beta is 0; a zero x_j skipped in the
// column forms, so an Inf in A meets no 0 * Inf; the imaginary part of a
// Hermitian diagonal ignored on input and zeroed on output). They run on
// the calling thread; the loops along a column are left to the compiler's
// vectoriser.
#pragma once

#include <cstdint>

#include "blas/src/level2_storage.hpp"
#include "blas/src/scalar.hpp"

namespace tessera::blas {

// y := beta y over len elements (beta == 0 writes zeros).
template <class T>
void scale_vector(std::int64_t len, T beta, StridedVector<T> y) {
  if (beta == T(1)) return;
  if (beta == T(0)) {
    for (std::int64_t i = 0; i < len; ++i) y[i] = T(0);
  } else {
    for (std::int64_t i = 0; i < len; ++i) y[i] *= beta;
  }
}

// A is m x n with `below` sub- and `above` super-diagonals (m - 1 and
// n - 1 for a full matrix).
template <class T, class Storage>
void band_mv(bool transpose, bool conj, std::int64_t m, std::int64_t n, std::int64_t below,
             std::int64_t above, T alpha, const T* a, Storage at, const T* xp, std::int64_t incx,
             T beta, T* yp, std::int64_t incy) {
  if (m == 0 || n == 0 || (alpha == T(0) && beta == T(1))) return;
  const std::int64_t lenx = transpose ? m : n, leny = transpose ? n : m;
  StridedVector<const T> x(xp, lenx, incx);
  StridedVector<T> y(yp, leny, incy);
  scale_vector(leny, beta, y);
  if (alpha == T(0)) return;
  for (std::int64_t j = 0; j < n; ++j) {
    const RowRange r = band_rows(j, m, below, above);
    if (!transpose) {
      const T t = alpha * x[j];
      for (std::int64_t i = r.first; i <= r.last; ++i) y[i] += t * conj_if(a[at(i, j)], conj);
    } else {
      T t = T(0);
      for (std::int64_t i = r.first; i <= r.last; ++i) t += conj_if(a[at(i, j)], conj) * x[i];
      y[j] += alpha * t;
    }
  }
}

// A is n x n symmetric (or Hermitian), its `upper` or lower triangle
// stored with k off-diagonals (n - 1 for a full or packed triangle).
template <class T, class Storage>
void sym_mv(bool upper, bool hermitian, bool conj, std::int64_t n, std::int64_t k, T alpha,
            const T* a, Storage at, const T* xp, std::int64_t incx, T beta, T* yp,
            std::int64_t incy) {
  if (n == 0 || (alpha == T(0) && beta == T(1))) return;
  StridedVector<const T> x(xp, n, incx);
  StridedVector<T> y(yp, n, incy);
  scale_vector(n, beta, y);
  if (alpha == T(0)) return;
  // The stored element, and its mirror image across the diagonal.
  const auto elem = [&](std::int64_t i, std::int64_t j) { return conj_if(a[at(i, j)], conj); };
  const auto mirror = [&](T v) { return conj_if(v, hermitian); };
  const auto diag = [&](std::int64_t j) {
    const T d = a[at(j, j)];
    return hermitian ? T(real_part(d)) : d;
  };
  for (std::int64_t j = 0; j < n; ++j) {
    const T t1 = alpha * x[j];
    T t2 = T(0);
    const RowRange r = upper ? band_rows(j, n, 0, k) : band_rows(j, n, k, 0);
    if (upper) {
      for (std::int64_t i = r.first; i < j; ++i) {
        const T v = elem(i, j);
        y[i] += t1 * v;
        t2 += mirror(v) * x[i];
      }
      y[j] += t1 * diag(j) + alpha * t2;
    } else {
      y[j] += t1 * diag(j);
      for (std::int64_t i = j + 1; i <= r.last; ++i) {
        const T v = elem(i, j);
        y[i] += t1 * v;
        t2 += mirror(v) * x[i];
      }
      y[j] += alpha * t2;
    }
  }
}

// A is n x n triangular, `upper` or lower, with k off-diagonals.
template <class T, class Storage>
void tri_mv(bool upper, bool transpose, bool conj, bool unit, std::int64_t n, std::int64_t k,
            const T* a, Storage at, T* xp, std::int64_t incx) {
  if (n == 0) return;
  StridedVector<T> x(xp, n, incx);
  const auto elem = [&](std::int64_t i, std::int64_t j) { return conj_if(a[at(i, j)], conj); };
  if (!transpose) {
    // x_i = sum_j A(i,j) x_j, column by column: column j adds into rows
    // that no later column reads as an input.
    for (std::int64_t s = 0; s < n; ++s) {
      const std::int64_t j = upper ? s : n - 1 - s;
      const T t = x[j];
      if (t == T(0)) continue;
      if (upper) {
        for (std::int64_t i = band_rows(j, n, 0, k).first; i < j; ++i) x[i] += t * elem(i, j);
      } else {
        for (std::int64_t i = band_rows(j, n, k, 0).last; i > j; --i) x[i] += t * elem(i, j);
      }
      if (!unit) x[j] *= elem(j, j);
    }
    return;
  }
  // x_j = sum_i A(i,j) x_i, from the end whose inputs are still original.
  for (std::int64_t s = 0; s < n; ++s) {
    const std::int64_t j = upper ? n - 1 - s : s;
    T t = x[j];
    if (!unit) t *= elem(j, j);
    if (upper) {
      for (std::int64_t i = j - 1; i >= band_rows(j, n, 0, k).first; --i) t += elem(i, j) * x[i];
    } else {
      const std::int64_t last = band_rows(j, n, k, 0).last;
      for (std::int64_t i = j + 1; i <= last; ++i) t += elem(i, j) * x[i];
    }
    x[j] = t;
  }
}

template <class T, class Storage>
void tri_sv(bool upper, bool transpose, bool conj, bool unit, std::int64_t n, std::int64_t k,
            const T* a, Storage at, T* xp, std::int64_t incx) {
  if (n == 0) return;
  StridedVector<T> x(xp, n, incx);
  const auto elem = [&](std::int64_t i, std::int64_t j) { return conj_if(a[at(i, j)], conj); };
  if (!transpose) {
    // Back (upper) or forward (lower) substitution by columns: x_j is
    // final once the columns after (before) it have been subtracted.
    for (std::int64_t s = 0; s < n; ++s) {
      const std::int64_t j = upper ? n - 1 - s : s;
      if (x[j] == T(0)) continue;
      if (!unit) x[j] /= elem(j, j);
      const T t = x[j];
      if (upper) {
        for (std::int64_t i = j - 1; i >= band_rows(j, n, 0, k).first; --i) x[i] -= t * elem(i, j);
      } else {
        const std::int64_t last = band_rows(j, n, k, 0).last;
        for (std::int64_t i = j + 1; i <= last; ++i) x[i] -= t * elem(i, j);
      }
    }
    return;
  }
  // op(A) = A^T or A^H: x_j from the dot product of column j with the
  // solved part.
  for (std::int64_t s = 0; s < n; ++s) {
    const std::int64_t j = upper ? s : n - 1 - s;
    T t = x[j];
    if (upper) {
      for (std::int64_t i = band_rows(j, n, 0, k).first; i < j; ++i) t -= elem(i, j) * x[i];
    } else {
      for (std::int64_t i = band_rows(j, n, k, 0).last; i > j; --i) t -= elem(i, j) * x[i];
    }
    if (!unit) t /= elem(j, j);
    x[j] = t;
  }
}

// A (m x n, column-major) += alpha x y^T, x and y each conjugated as read
// when asked (gerc conjugates y; a row-major gerc, its x).
template <class T>
void ger_update(std::int64_t m, std::int64_t n, T alpha, const T* xp, std::int64_t incx,
                bool conj_x, const T* yp, std::int64_t incy, bool conj_y, T* a,
                std::int64_t lda) {
  if (m == 0 || n == 0 || alpha == T(0)) return;
  StridedVector<const T> x(xp, m, incx), y(yp, n, incy);
  for (std::int64_t j = 0; j < n; ++j) {
    if (y[j] == T(0)) continue;
    const T t = alpha * conj_if(y[j], conj_y);
    T* column = a + j * lda;
    for (std::int64_t i = 0; i < m; ++i) column[i] += conj_if(x[i], conj_x) * t;
  }
}

// A += alpha x x^T (syr, spr) or alpha x x^H (her, hpr; alpha real), on
// the stored triangle; `conj` conjugates x as it is read.
template <class T, class Storage>
void sym_r(bool upper, bool hermitian, bool conj, std::int64_t n, T alpha, const T* xp,
           std::int64_t incx, T* a, Storage at) {
  if (n == 0 || alpha == T(0)) return;
  StridedVector<const T> x(xp, n, incx);
  const auto xv = [&](std::int64_t i) { return conj_if(x[i], conj); };
  for (std::int64_t j = 0; j < n; ++j) {
    const T xj = xv(j);
    T& d = a[at(j, j)];
    if (xj == T(0)) {
      if (hermitian) d = T(real_part(d));
      continue;
    }
    const T t = alpha * conj_if(xj, hermitian);
    const std::int64_t first = upper ? 0 : j + 1, last = upper ? j - 1 : n - 1;
    for (std::int64_t i = first; i <= last; ++i) a[at(i, j)] += xv(i) * t;
    d = hermitian ? T(real_part(d) + real_part(xj * t)) : d + xj * t;
  }
}

// A += alpha x y^T + alpha y x^T (syr2, spr2) or alpha x y^H +
// conj(alpha) y x^H (her2, hpr2), on the stored triangle.
template <class T, class Storage>
void sym_r2(bool upper, bool hermitian, bool conj, std::int64_t n, T alpha, const T* xp,
            std::int64_t incx, const T* yp, std::int64_t incy, T* a, Storage at) {
  if (n == 0 || alpha == T(0)) return;
  StridedVector<const T> x(xp, n, incx), y(yp, n, incy);
  const auto xv = [&](std::int64_t i) { return conj_if(x[i], conj); };
  const auto yv = [&](std::int64_t i) { return conj_if(y[i], conj); };
  for (std::int64_t j = 0; j < n; ++j) {
    const T xj = xv(j), yj = yv(j);
    T& d = a[at(j, j)];
    if (xj == T(0) && yj == T(0)) {
      if (hermitian) d = T(real_part(d));
      continue;
    }
    const T t1 = alpha * conj_if(yj, hermitian);
    const T t2 = conj_if(alpha * xj, hermitian);
    const std::int64_t first = upper ? 0 : j + 1, last = upper ? j - 1 : n - 1;
    for (std::int64_t i = first; i <= last; ++i) a[at(i, j)] += xv(i) * t1 + yv(i) * t2;
    const T update = xj * t1 + yj * t2;
    d = hermitian ? T(real_part(d) + real_part(update)) : d + update;
  }
}

}  // namespace tessera::blas
