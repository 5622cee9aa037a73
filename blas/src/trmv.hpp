// TRMV, x := op(A) x with A n x n triangular (column-major, lda), as the
// Fortran BLAS defines it: arguments already checked, options upper case
// ('U'/'L', 'N'/'T'/'C', 'N'/'U'). In place, in the reference's order (the
// column form for op(A) = A, which skips a zero x_j as the reference does,
// so an Inf in A meets no 0 * Inf; dot products down the columns for A^T).
// O(n^2) on the calling thread: a matrix-vector product that reads each
// element of the triangle once.
#pragma once

#include <cstdint>

namespace tessera::blas {

template <class T>
void trmv_colmajor(char uplo, char trans, char diag, std::int64_t n, const T* a,
                   std::int64_t lda, T* x, std::int64_t incx) {
  if (n == 0) return;
  const bool unit = diag == 'U';
  const std::int64_t kx = incx < 0 ? (n - 1) * -incx : 0;
  const auto at = [&](std::int64_t i) -> T& { return x[kx + i * incx]; };
  const auto elem = [&](std::int64_t i, std::int64_t j) { return a[i + j * lda]; };
  if (trans == 'N') {
    if (uplo == 'U') {
      // x_i = sum_{j >= i} A(i,j) x_j: column j adds into the rows above it,
      // which no later column reads.
      for (std::int64_t j = 0; j < n; ++j) {
        const T t = at(j);
        if (t == T(0)) continue;
        for (std::int64_t i = 0; i < j; ++i) at(i) += t * elem(i, j);
        if (!unit) at(j) *= elem(j, j);
      }
    } else {
      for (std::int64_t j = n - 1; j >= 0; --j) {
        const T t = at(j);
        if (t == T(0)) continue;
        for (std::int64_t i = n - 1; i > j; --i) at(i) += t * elem(i, j);
        if (!unit) at(j) *= elem(j, j);
      }
    }
    return;
  }
  if (uplo == 'U') {
    // x_j = sum_{i <= j} A(i,j) x_i: from the last j, whose inputs above it
    // are still the original values.
    for (std::int64_t j = n - 1; j >= 0; --j) {
      T t = at(j);
      if (!unit) t *= elem(j, j);
      for (std::int64_t i = j - 1; i >= 0; --i) t += elem(i, j) * at(i);
      at(j) = t;
    }
  } else {
    for (std::int64_t j = 0; j < n; ++j) {
      T t = at(j);
      if (!unit) t *= elem(j, j);
      for (std::int64_t i = j + 1; i < n; ++i) t += elem(i, j) * at(i);
      at(j) = t;
    }
  }
}

}  // namespace tessera::blas
