// SYMM and SYRK over tessera's GEMM (level3.hpp).
//
// SYMM expands the referenced triangle of A into a full symmetric copy
// (na x na, na = m or n: O(na^2) work and memory next to the O(na^2 n)
// product) and runs one GEMM, so the product has the GEMM's blocking and
// threads.
//
// SYRK halves C's triangle recursively: the rectangle between the halves
// is a plain block of C, updated by one GEMM in place (depth k, sides n/2,
// n/4, ...: large products); diagonal blocks of at most kBlock are computed
// by GEMM into a scratch square, of which only the `uplo` triangle is
// merged into C. The extra work is the other half of those blocks,
// kBlock / n of the total.
#include <algorithm>
#include <memory>
#include <new>
#include <string>

#include "blas/src/blas_args.hpp"
#include "blas/src/level3.hpp"
#include "tessera/gemm.hpp"

namespace tessera::blas {
namespace {

constexpr std::int64_t kBlock = 192;

template <class T>
std::unique_ptr<T[]> scratch(const char* routine, std::int64_t elements) {
  std::unique_ptr<T[]> p(new (std::nothrow) T[static_cast<std::size_t>(elements)]);
  if (p == nullptr) {
    report_failure(routine, Status(StatusCode::kOutOfMemory,
                                   "no memory for a " + std::to_string(elements) +
                                       "-element scratch matrix"));
  }
  return p;
}

// C = beta C on the whole m x n (beta == 0: zeros, C not read).
template <class T>
void scale(std::int64_t m, std::int64_t n, T beta, T* c, std::int64_t ldc) {
  for (std::int64_t j = 0; j < n; ++j) {
    T* col = c + j * ldc;
    for (std::int64_t i = 0; i < m; ++i) col[i] = beta == T(0) ? T(0) : beta * col[i];
  }
}

// The same on the `uplo` triangle of the n x n C.
template <class T>
void scale_triangle(char uplo, std::int64_t n, T beta, T* c, std::int64_t ldc) {
  for (std::int64_t j = 0; j < n; ++j) {
    const std::int64_t i0 = uplo == 'U' ? 0 : j, i1 = uplo == 'U' ? j + 1 : n;
    T* col = c + j * ldc;
    for (std::int64_t i = i0; i < i1; ++i) col[i] = beta == T(0) ? T(0) : beta * col[i];
  }
}

}  // namespace

template <class T>
void symm_colmajor(const char* routine, char side, char uplo, std::int64_t m, std::int64_t n,
                   T alpha, const T* a, std::int64_t lda, const T* b, std::int64_t ldb, T beta,
                   T* c, std::int64_t ldc) {
  if (m == 0 || n == 0 || (alpha == T(0) && beta == T(1))) return;
  if (alpha == T(0)) {
    scale(m, n, beta, c, ldc);
    return;
  }
  const std::int64_t na = side == 'L' ? m : n;
  const std::unique_ptr<T[]> full = scratch<T>(routine, na * na);
  if (full == nullptr) return;
  for (std::int64_t j = 0; j < na; ++j) {
    const std::int64_t i0 = uplo == 'U' ? 0 : j, i1 = uplo == 'U' ? j + 1 : na;
    for (std::int64_t i = i0; i < i1; ++i) {
      const T v = a[i + j * lda];
      full[i + j * na] = v;
      full[j + i * na] = v;
    }
  }
  const Status s =
      side == 'L'
          ? try_gemm(blas_context(), Layout::kColMajor, Transpose::kNo, Transpose::kNo, m, n, m,
                     alpha, full.get(), na, b, ldb, beta, c, ldc)
          : try_gemm(blas_context(), Layout::kColMajor, Transpose::kNo, Transpose::kNo, m, n, n,
                     alpha, b, ldb, full.get(), na, beta, c, ldc);
  if (!s.ok()) report_failure(routine, s);
}

template <class T>
void syrk_colmajor(const char* routine, char uplo, char trans, std::int64_t n, std::int64_t k,
                   T alpha, const T* a, std::int64_t lda, T beta, T* c, std::int64_t ldc) {
  if (n == 0 || ((alpha == T(0) || k == 0) && beta == T(1))) return;
  if (alpha == T(0) || k == 0) {
    scale_triangle(uplo, n, beta, c, ldc);
    return;
  }
  const bool no_trans = trans == 'N';
  // Rows i0.. of op(A) (n x k): A's rows (no transpose) or columns.
  const auto rows = [&](std::int64_t i0) { return no_trans ? a + i0 : a + i0 * lda; };
  const Transpose left = no_trans ? Transpose::kNo : Transpose::kYes;
  const Transpose right = no_trans ? Transpose::kYes : Transpose::kNo;
  const std::int64_t nb = std::min(kBlock, n);
  const std::unique_ptr<T[]> diag = scratch<T>(routine, nb * nb);
  if (diag == nullptr) return;
  // C[j0, j0+w)^2's triangle: a diagonal block of at most kBlock through
  // the scratch square; a larger one split in two, the two halves' own
  // triangles recursively and the rectangle between them (C12 above the
  // diagonal, C21 below) by one GEMM.
  const auto block = [&](const auto& self, std::int64_t j0, std::int64_t w) -> Status {
    if (w > kBlock) {
      const std::int64_t h = std::max(kBlock, (w / 2) / kBlock * kBlock);
      TESSERA_RETURN_IF_ERROR(self(self, j0, h));
      const std::int64_t r0 = uplo == 'U' ? j0 : j0 + h, c0 = uplo == 'U' ? j0 + h : j0;
      const std::int64_t rh = uplo == 'U' ? h : w - h, cw = uplo == 'U' ? w - h : h;
      TESSERA_RETURN_IF_ERROR(try_gemm(blas_context(), Layout::kColMajor, left, right, rh, cw,
                                       k, alpha, rows(r0), lda, rows(c0), lda, beta,
                                       c + r0 + c0 * ldc, ldc));
      return self(self, j0 + h, w - h);
    }
    TESSERA_RETURN_IF_ERROR(try_gemm(blas_context(), Layout::kColMajor, left, right, w, w, k,
                                     T(1), rows(j0), lda, rows(j0), lda, T(0), diag.get(), w));
    for (std::int64_t j = 0; j < w; ++j) {
      const std::int64_t i0 = uplo == 'U' ? 0 : j, i1 = uplo == 'U' ? j + 1 : w;
      T* col = c + j0 + (j0 + j) * ldc;
      for (std::int64_t i = i0; i < i1; ++i) {
        const T prod = alpha * diag[i + j * w];
        col[i] = beta == T(0) ? prod : prod + beta * col[i];
      }
    }
    return {};
  };
  const Status s = block(block, 0, n);
  if (!s.ok()) report_failure(routine, s);
}

template void symm_colmajor<float>(const char*, char, char, std::int64_t, std::int64_t, float,
                                   const float*, std::int64_t, const float*, std::int64_t, float,
                                   float*, std::int64_t);
template void symm_colmajor<double>(const char*, char, char, std::int64_t, std::int64_t, double,
                                    const double*, std::int64_t, const double*, std::int64_t,
                                    double, double*, std::int64_t);
template void syrk_colmajor<float>(const char*, char, char, std::int64_t, std::int64_t, float,
                                   const float*, std::int64_t, float, float*, std::int64_t);
template void syrk_colmajor<double>(const char*, char, char, std::int64_t, std::int64_t, double,
                                    const double*, std::int64_t, double, double*, std::int64_t);

}  // namespace tessera::blas
