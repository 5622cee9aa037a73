// SYMM/HEMM, SYRK/HERK and SYR2K/HER2K over the level-3 GEMM (level3.hpp).
//
// SYMM expands the referenced triangle of A into a full symmetric (or
// Hermitian) copy (na x na, na = m or n: O(na^2) work and memory next to
// the O(na^2 n) product) and runs one GEMM, so the product has the GEMM's
// blocking and threads.
//
// SYRK and SYR2K halve C's triangle recursively: the rectangle between the
// halves is a plain block of C, updated in place by one GEMM (two for
// SYR2K) of depth k and sides n/2, n/4, ...: large products; diagonal
// blocks of at most kBlock are computed by GEMM into a scratch square, of
// which only the `uplo` triangle is merged into C. The extra work is the
// other half of those blocks, kBlock / n of the total.
//
// kBlock swept on Zen 4 (n = 1000, one thread, dsyrk, dsyr2k, zsyrk,
// zsyr2k, zherk, zher2k against OpenBLAS side by side, 3 rounds): 192
// 0.74-0.84x, 128 0.79-0.93x, 96 0.83-0.93x, 64 0.85-0.92x, 32 0.87-1.00x,
// 16 0.90-1.00x. The deep (depth k) GEMMs of narrow rectangles near the
// diagonal run close to the large ones' rate, while every diagonal block
// computes its other half for nothing; 32 keeps that waste at 3% of the
// flops at n = 1000. Checked on Zen 4 only.
#include <algorithm>
#include <memory>
#include <new>
#include <string>

#include "blas/src/blas_args.hpp"
#include "blas/src/level3.hpp"
#include "blas/src/level3_gemm.hpp"
#include "blas/src/scalar.hpp"

namespace tessera::blas {
namespace {

constexpr std::int64_t kBlock = 32;  // the sweep above

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

// The new value of an element of C's triangle: update + beta C, where a
// Hermitian C's diagonal keeps only real parts (the reference's
// BETA*REAL(C(J,J)) + REAL(update)).
template <class T>
T merged(T update, T beta, T old, bool real_diagonal) {
  if (real_diagonal) {
    const real_of<T> base = beta == T(0) ? real_of<T>(0) : real_part(beta) * real_part(old);
    return T(base + real_part(update));
  }
  return beta == T(0) ? update : update + beta * old;
}

// beta C on the `uplo` triangle of the n x n C.
template <class T>
void scale_triangle(bool hermitian, char uplo, std::int64_t n, T beta, T* c, std::int64_t ldc) {
  for (std::int64_t j = 0; j < n; ++j) {
    const std::int64_t i0 = uplo == 'U' ? 0 : j, i1 = uplo == 'U' ? j + 1 : n;
    T* col = c + j * ldc;
    for (std::int64_t i = i0; i < i1; ++i) {
      col[i] = merged(T(0), beta, col[i], hermitian && i == j);
    }
  }
}

// C's `uplo` triangle := P + beta C, where product(r0, rh, c0, cw, beta,
// dst, ld) writes P[r0, r0+rh) x [c0, c0+cw) + beta dst into dst (P the
// full n x n update, alpha included).
template <class T, class Product>
Status triangle_update(bool hermitian, char uplo, std::int64_t n, T beta, T* c, std::int64_t ldc,
                       T* diag, const Product& product) {
  // C[j0, j0+w)^2's triangle: a diagonal block of at most kBlock through
  // the scratch square; a larger one split in two, the two halves' own
  // triangles recursively and the rectangle between them (C12 above the
  // diagonal, C21 below) in place.
  const auto block = [&](const auto& self, std::int64_t j0, std::int64_t w) -> Status {
    if (w > kBlock) {
      const std::int64_t h = std::max(kBlock, (w / 2) / kBlock * kBlock);
      TESSERA_RETURN_IF_ERROR(self(self, j0, h));
      const std::int64_t r0 = uplo == 'U' ? j0 : j0 + h, c0 = uplo == 'U' ? j0 + h : j0;
      const std::int64_t rh = uplo == 'U' ? h : w - h, cw = uplo == 'U' ? w - h : h;
      TESSERA_RETURN_IF_ERROR(product(r0, rh, c0, cw, beta, c + r0 + c0 * ldc, ldc));
      return self(self, j0 + h, w - h);
    }
    TESSERA_RETURN_IF_ERROR(product(j0, w, j0, w, T(0), diag, w));
    for (std::int64_t j = 0; j < w; ++j) {
      const std::int64_t i0 = uplo == 'U' ? 0 : j, i1 = uplo == 'U' ? j + 1 : w;
      T* col = c + j0 + (j0 + j) * ldc;
      for (std::int64_t i = i0; i < i1; ++i) {
        col[i] = merged(diag[i + j * w], beta, col[i], hermitian && i == j);
      }
    }
    return {};
  };
  return block(block, 0, n);
}

}  // namespace

template <class T>
void symm_colmajor(const char* routine, bool hermitian, char side, char uplo, std::int64_t m,
                   std::int64_t n, T alpha, const T* a, std::int64_t lda, const T* b,
                   std::int64_t ldb, T beta, T* c, std::int64_t ldc) {
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
      if (i == j) {
        full[i + j * na] = hermitian ? T(real_part(v)) : v;
      } else {
        full[i + j * na] = v;
        full[j + i * na] = conj_if(v, hermitian);
      }
    }
  }
  const Status s = side == 'L' ? level3_gemm(Layout::kColMajor, 'N', 'N', m, n, m, alpha,
                                             full.get(), na, b, ldb, beta, c, ldc)
                               : level3_gemm(Layout::kColMajor, 'N', 'N', m, n, n, alpha, b, ldb,
                                             full.get(), na, beta, c, ldc);
  if (!s.ok()) report_failure(routine, s);
}

// op(X) for syrk and syr2k: trans 'N' reads X (n x k) as it is, the
// others its (conjugate) transpose; rows(x, i0) is where row i0 of op(X)
// starts, and left/right the GEMM ops for op(X) op(Y)^T (^H).
struct RankKOps {
  char left, right;
  bool by_columns;  // op(X)'s rows are X's columns
};
inline RankKOps rank_k_ops(bool hermitian, char trans) {
  const char t = hermitian ? 'C' : 'T';
  return trans == 'N' ? RankKOps{'N', t, false} : RankKOps{t, 'N', true};
}

template <class T>
void syrk_colmajor(const char* routine, bool hermitian, char uplo, char trans, std::int64_t n,
                   std::int64_t k, T alpha, const T* a, std::int64_t lda, T beta, T* c,
                   std::int64_t ldc) {
  if (n == 0 || ((alpha == T(0) || k == 0) && beta == T(1))) return;
  if (alpha == T(0) || k == 0) {
    scale_triangle(hermitian, uplo, n, beta, c, ldc);
    return;
  }
  const RankKOps ops = rank_k_ops(hermitian, trans);
  const auto rows = [&](std::int64_t i0) { return ops.by_columns ? a + i0 * lda : a + i0; };
  const std::unique_ptr<T[]> diag = scratch<T>(routine, std::min(kBlock, n) * std::min(kBlock, n));
  if (diag == nullptr) return;
  const Status s = triangle_update(
      hermitian, uplo, n, beta, c, ldc, diag.get(),
      [&](std::int64_t r0, std::int64_t rh, std::int64_t c0, std::int64_t cw, T b, T* dst,
          std::int64_t ld) {
        return level3_gemm(Layout::kColMajor, ops.left, ops.right, rh, cw, k, alpha, rows(r0),
                           lda, rows(c0), lda, b, dst, ld);
      });
  if (!s.ok()) report_failure(routine, s);
}

template <class T>
void syr2k_colmajor(const char* routine, bool hermitian, char uplo, char trans, std::int64_t n,
                    std::int64_t k, T alpha, const T* a, std::int64_t lda, const T* b,
                    std::int64_t ldb, T beta, T* c, std::int64_t ldc) {
  if (n == 0 || ((alpha == T(0) || k == 0) && beta == T(1))) return;
  if (alpha == T(0) || k == 0) {
    scale_triangle(hermitian, uplo, n, beta, c, ldc);
    return;
  }
  const RankKOps ops = rank_k_ops(hermitian, trans);
  const auto rows = [&](const T* x, std::int64_t ld, std::int64_t i0) {
    return ops.by_columns ? x + i0 * ld : x + i0;
  };
  // The second product's alpha: conj(alpha) for her2k.
  const T alpha2 = conj_if(alpha, hermitian);
  const std::unique_ptr<T[]> diag = scratch<T>(routine, std::min(kBlock, n) * std::min(kBlock, n));
  if (diag == nullptr) return;
  const Status s = triangle_update(
      hermitian, uplo, n, beta, c, ldc, diag.get(),
      [&](std::int64_t r0, std::int64_t rh, std::int64_t c0, std::int64_t cw, T bt, T* dst,
          std::int64_t ld) -> Status {
        TESSERA_RETURN_IF_ERROR(level3_gemm(Layout::kColMajor, ops.left, ops.right, rh, cw, k,
                                            alpha, rows(a, lda, r0), lda, rows(b, ldb, c0), ldb,
                                            bt, dst, ld));
        return level3_gemm(Layout::kColMajor, ops.left, ops.right, rh, cw, k, alpha2,
                           rows(b, ldb, r0), ldb, rows(a, lda, c0), lda, T(1), dst, ld);
      });
  if (!s.ok()) report_failure(routine, s);
}

#define TESSERA_BLAS_LEVEL3_INSTANTIATE(T)                                                     \
  template void symm_colmajor<T>(const char*, bool, char, char, std::int64_t, std::int64_t, T, \
                                 const T*, std::int64_t, const T*, std::int64_t, T, T*,        \
                                 std::int64_t);                                                \
  template void syrk_colmajor<T>(const char*, bool, char, char, std::int64_t, std::int64_t, T, \
                                 const T*, std::int64_t, T, T*, std::int64_t);                 \
  template void syr2k_colmajor<T>(const char*, bool, char, char, std::int64_t, std::int64_t,   \
                                  T, const T*, std::int64_t, const T*, std::int64_t, T, T*,    \
                                  std::int64_t);
TESSERA_BLAS_LEVEL3_INSTANTIATE(float)
TESSERA_BLAS_LEVEL3_INSTANTIATE(double)
TESSERA_BLAS_LEVEL3_INSTANTIATE(c32)
TESSERA_BLAS_LEVEL3_INSTANTIATE(c64)
#undef TESSERA_BLAS_LEVEL3_INSTANTIATE

}  // namespace tessera::blas
