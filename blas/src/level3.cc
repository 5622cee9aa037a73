// SYMM/HEMM, SYRK/HERK and SYR2K/HER2K over the level-3 GEMM (level3.hpp).
//
// SYMM expands the referenced triangle of A into a full symmetric (or
// Hermitian) copy (na x na, na = m or n: O(na^2) work and memory next to
// the O(na^2 n) product) and runs one GEMM, so the product has the GEMM's
// blocking and threads.
//
// SYRK and SYR2K cut C's triangle as a binary tree of kBlock-wide
// diagonal blocks (triangle_update): the rectangle between two sibling
// halves is a plain block of C, updated in place by one GEMM (two for
// SYR2K) of depth k and sides n/2, n/4, ...: large products, the equal
// ones of a level batched; diagonal blocks of at most kBlock are computed
// by GEMM into a scratch square, of which only the `uplo` triangle is
// merged into C. The extra work is the other half of those blocks,
// kBlock / n of the total.
//
// kBlock swept on Zen 4 (n = 1000, one thread, dsyrk, dsyr2k, zsyrk,
// zsyr2k, zherk, zher2k against OpenBLAS side by side, 3 rounds): 192
// 0.74-0.84x, 128 0.79-0.93x, 96 0.83-0.93x, 64 0.85-0.92x, 32 0.87-1.00x,
// 16 0.90-1.00x. The deep (depth k) GEMMs of narrow rectangles near the
// diagonal run close to the large ones' rate, while every diagonal block
// computes its other half for nothing; 32 keeps that waste at 3% of the
// flops at n = 1000. Checked on Zen 4 only.
#include <algorithm>
#include <array>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "blas/src/blas_args.hpp"
#include "blas/src/complex_1m.hpp"
#include "blas/src/disjoint.hpp"
#include "blas/src/level3.hpp"
#include "blas/src/level3_gemm.hpp"
#include "blas/src/scalar.hpp"

namespace tessera::blas {
namespace {

constexpr std::int64_t kBlock = 32;  // the sweep above

// From this order up SYRK and SYR2K are triangle GEMMs (try_gemm_triangle)
// instead of the tree: one product over the whole of C, whose packed
// panels serve the diagonal's tiles as well as the others, and whose jobs
// are only the tiles that hold part of the triangle.
constexpr std::int64_t kTriangleGemmMinOrder = 256;

Triangle triangle_part(char uplo) { return uplo == 'U' ? Triangle::kUpper : Triangle::kLower; }

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

// C's `uplo` triangle := P + beta C, P the full n x n update (alpha
// included). product(r0, rh, c0, cw, count, step, beta, dst, ld,
// dst_stride) computes `count` blocks of P at once: block e is
// P[r0 + e step, +rh) x [c0 + e step, +cw), written (+ beta dst_e) into
// dst + e dst_stride.
//
// Every element of the triangle is one product's, so the order is free and
// equal blocks go together: C is cut into kBlock-wide diagonal blocks, and
// a run of 2^p of them is a perfect binary tree whose level s holds
// 2^p / 2s equal rectangles (s blocks square, in place) between sibling
// halves, one batched product per level; the columns past the largest
// such run get the rectangle beside it and the same cut. The diagonal
// blocks are one batched product into a scratch of n x kBlock, of which
// only the `uplo` triangles are merged into C. A batched product's plan
// hands whole blocks to workers where each is too small to split (the
// blocks near the diagonal), which single products would run on one
// worker.
template <class T, class Product>
Status triangle_update(bool hermitian, char uplo, std::int64_t n, T beta, T* c, std::int64_t ldc,
                       T* diag, const Product& product) {
  const bool upper = uplo == 'U';
  // The rectangle between [j0, j0+h) and [j0+h, j0+h+w2), `count` times
  // `step` apart along the diagonal: above it (upper) or below.
  const auto between = [&](std::int64_t j0, std::int64_t h, std::int64_t w2, std::int64_t count,
                           std::int64_t step) {
    const std::int64_t r0 = upper ? j0 : j0 + h, c0 = upper ? j0 + h : j0;
    const std::int64_t rh = upper ? h : w2, cw = upper ? w2 : h;
    return product(r0, rh, c0, cw, count, step, beta, c + r0 + c0 * ldc, ldc, step * (ldc + 1));
  };
  for (std::int64_t j0 = 0; n - j0 > kBlock;) {
    std::int64_t run = 1;  // diagonal blocks, a power of two
    while (2 * run * kBlock <= n - j0) run *= 2;
    for (std::int64_t s = run / 2; s >= 1; s /= 2) {
      TESSERA_RETURN_IF_ERROR(between(j0, s * kBlock, s * kBlock, run / (2 * s), 2 * s * kBlock));
    }
    const std::int64_t h = run * kBlock;
    if (n - j0 > h) TESSERA_RETURN_IF_ERROR(between(j0, h, n - j0 - h, 1, 0));
    j0 += h;
  }
  // The diagonal blocks: the full ones batched, a short last one alone.
  const std::int64_t full = n / kBlock, last = n - full * kBlock;
  const std::int64_t square = kBlock * kBlock;
  if (full > 0) {
    TESSERA_RETURN_IF_ERROR(
        product(0, kBlock, 0, kBlock, full, kBlock, T(0), diag, kBlock, square));
  }
  if (last > 0) {
    const std::int64_t j0 = full * kBlock;
    TESSERA_RETURN_IF_ERROR(product(j0, last, j0, last, 1, 0, T(0), diag + full * square, last, 0));
  }
  for (std::int64_t b = 0; b * kBlock < n; ++b) {
    const std::int64_t j0 = b * kBlock, w = std::min(kBlock, n - j0);
    const T* block = diag + b * square;
    for (std::int64_t j = 0; j < w; ++j) {
      const std::int64_t i0 = upper ? 0 : j, i1 = upper ? j + 1 : w;
      T* col = c + j0 + (j0 + j) * ldc;
      for (std::int64_t i = i0; i < i1; ++i) {
        col[i] = merged(block[i + j * w], beta, col[i], hermitian && i == j);
      }
    }
  }
  return {};
}

// X as SYRK/SYR2K reads it (n x k, or k x n when by_columns), through a
// compact copy when it shares C's address range: LAPACK passes blocks of
// one array (dpotrf's upper dsyrk reads rows above its C in the same
// columns), and the batched products refuse an input meeting their C.
template <class T>
struct RankKInput {
  const T* x;
  std::int64_t ld;
  std::vector<T> copy;
  RankKInput(bool by_columns, std::int64_t n, std::int64_t k, const T* p, std::int64_t ldp,
             const T* c, std::int64_t ldc)
      : x(p), ld(ldp) {
    const std::int64_t rows = by_columns ? k : n, cols = by_columns ? n : k;
    if (overlap(matrix_footprint(Layout::kColMajor, rows, cols, ldp, p),
                matrix_footprint(Layout::kColMajor, n, n, ldc, c))) {
      copy = compact_copy(Layout::kColMajor, rows, cols, p, ldp);
      x = copy.data();
      ld = rows;
    }
  }
  // x may point into copy: never copied or moved.
  RankKInput(const RankKInput&) = delete;
  RankKInput& operator=(const RankKInput&) = delete;
};

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

// One term of a rank-k update: alpha op(X) op(Y)^T (^H for the he forms).
template <class T>
struct RankKTerm {
  T alpha;
  const RankKInput<T>* x;
  const RankKInput<T>* y;
};

// Complex SYRK/SYR2K on 1m's operands prepared once per depth chunk
// (complex_1m.hpp) for every block of the triangle, instead of each block
// product expanding its rows of op(X) again (the tree's levels read all of
// X each; on Zen 4 at two threads those passes ran serially on the caller
// while the other worker waited). Depth chunks keep the prepared operands
// under kPreparedBytes; a later chunk adds to C (beta 1). Chunks depend on
// n, k and the type only, so the bits do not depend on the worker count.
// Chunks shallower than kMinChunkDepth (n above ~5000 in z) would hand the
// real GEMM depths below its blocking and pass over C once each: such
// updates take the per-product path. false: that path instead (chunks too
// shallow, or no memory for the operands), nothing written.
constexpr std::int64_t kPreparedBytes = std::int64_t{32} << 20;
constexpr std::int64_t kMinChunkDepth = 128;

template <class T, std::size_t N>
bool rank_k_update_1m(const char* routine, bool hermitian, char uplo, RankKOps ops,
                      std::int64_t n, std::int64_t k, const std::array<RankKTerm<T>, N>& terms,
                      T beta, T* c, std::int64_t ldc, T* diag) {
  using R = real_of<T>;
  const std::int64_t per_depth = Complex1mOperands<R>::elements(ops.right, n, n, 1);
  const std::int64_t most = std::max<std::int64_t>(
      1, kPreparedBytes / (static_cast<std::int64_t>(N * sizeof(R)) * per_depth));
  if (most < k && most < kMinChunkDepth) return false;
  const std::int64_t chunks = (k + most - 1) / most, chunk = (k + chunks - 1) / chunks;
  ScratchLease<R> scratch(static_cast<std::size_t>(N * per_depth * chunk));
  if (scratch.data() == nullptr) return false;
  // Column k0 of op(X) (n x k): X's column k0, or its row k0 (by_columns).
  const auto at = [&](const RankKInput<T>& x, std::int64_t k0) {
    return ops.by_columns ? x.x + k0 : x.x + k0 * x.ld;
  };
  std::array<Complex1mOperands<R>, N> prepared;
  Status s;
  for (std::int64_t k0 = 0; k0 < k && s.ok(); k0 += chunk) {
    const std::int64_t depth = std::min(chunk, k - k0);
    for (std::size_t t = 0; t < N; ++t) {
      const RankKTerm<T>& term = terms[t];
      prepared[t].prepare(scratch.data() + t * per_depth * chunk, ops.left, ops.right, n, n,
                          depth, term.alpha, at(*term.x, k0), term.x->ld, at(*term.y, k0),
                          term.y->ld);
    }
    const T chunk_beta = k0 == 0 ? beta : T(1);
    if (n >= kTriangleGemmMinOrder) {
      for (std::size_t t = 0; t < N && s.ok(); ++t) {
        const T term_beta = t == 0 ? chunk_beta : T(1);
        s = prepared[t].multiply_triangle(triangle_part(uplo), term_beta, c, ldc, [&] {
          scale_triangle(hermitian, uplo, n, term_beta, c, ldc);
        });
      }
      continue;
    }
    s = triangle_update(
        hermitian, uplo, n, chunk_beta, c, ldc, diag,
        [&](std::int64_t r0, std::int64_t rh, std::int64_t c0, std::int64_t cw,
            std::int64_t count, std::int64_t step, T b, T* dst, std::int64_t ld,
            std::int64_t dst_stride) -> Status {
          for (std::size_t t = 0; t < N; ++t) {
            TESSERA_RETURN_IF_ERROR(prepared[t].multiply(r0, rh, c0, cw, count, step, step,
                                                         t == 0 ? b : T(1), dst, ld,
                                                         dst_stride));
          }
          return {};
        });
  }
  // The triangle GEMMs computed the diagonal's imaginary parts, which a
  // Hermitian C keeps at zero.
  if (s.ok() && hermitian && n >= kTriangleGemmMinOrder) {
    for (std::int64_t j = 0; j < n; ++j) c[j + j * ldc] = T(real_part(c[j + j * ldc]));
  }
  if (!s.ok()) report_failure(routine, s);
  return true;
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
  const RankKInput<T> in(ops.by_columns, n, k, a, lda, c, ldc);
  // Row i0 of op(A), and the step between rows `step` apart.
  const auto rows = [&](std::int64_t i0) { return ops.by_columns ? in.x + i0 * in.ld : in.x + i0; };
  const std::int64_t row_stride = ops.by_columns ? in.ld : 1;
  if constexpr (!kIsComplex<T>) {
    if (n >= kTriangleGemmMinOrder) {
      const Status s = try_gemm_triangle(blas_context(), Layout::kColMajor,
                                         real_transpose(ops.left), real_transpose(ops.right), n,
                                         n, k, alpha, in.x, in.ld, in.x, in.ld, beta, c, ldc,
                                         GemmTriangle{triangle_part(uplo), 1});
      if (!s.ok()) report_failure(routine, s);
      return;
    }
  }
  const std::unique_ptr<T[]> diag = scratch<T>(routine, n * kBlock + kBlock * kBlock);
  if (diag == nullptr) return;
  if constexpr (kIsComplex<T>) {
    const std::array<RankKTerm<T>, 1> terms{{{alpha, &in, &in}}};
    if (rank_k_update_1m(routine, hermitian, uplo, ops, n, k, terms, beta, c, ldc, diag.get())) {
      return;
    }
  }
  const Status s = triangle_update(
      hermitian, uplo, n, beta, c, ldc, diag.get(),
      [&](std::int64_t r0, std::int64_t rh, std::int64_t c0, std::int64_t cw, std::int64_t count,
          std::int64_t step, T b, T* dst, std::int64_t ld, std::int64_t dst_stride) {
        return level3_gemm_strided(Layout::kColMajor, ops.left, ops.right, rh, cw, k, alpha,
                                   rows(r0), in.ld, step * row_stride, rows(c0), in.ld,
                                   step * row_stride, b, dst, ld, dst_stride, count);
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
  const RankKInput<T> in_a(ops.by_columns, n, k, a, lda, c, ldc);
  const RankKInput<T> in_b(ops.by_columns, n, k, b, ldb, c, ldc);
  const auto rows = [&](const RankKInput<T>& x, std::int64_t i0) {
    return ops.by_columns ? x.x + i0 * x.ld : x.x + i0;
  };
  const auto row_stride = [&](const RankKInput<T>& x) { return ops.by_columns ? x.ld : 1; };
  // The second product's alpha: conj(alpha) for her2k.
  const T alpha2 = conj_if(alpha, hermitian);
  if constexpr (!kIsComplex<T>) {
    if (n >= kTriangleGemmMinOrder) {
      // alpha A B^T + beta C, then alpha B A^T added.
      const GemmTriangle part{triangle_part(uplo), 1};
      const Transpose left = real_transpose(ops.left), right = real_transpose(ops.right);
      Status s = try_gemm_triangle(blas_context(), Layout::kColMajor, left, right, n, n, k,
                                   alpha, in_a.x, in_a.ld, in_b.x, in_b.ld, beta, c, ldc, part);
      if (s.ok()) {
        s = try_gemm_triangle(blas_context(), Layout::kColMajor, left, right, n, n, k, alpha2,
                              in_b.x, in_b.ld, in_a.x, in_a.ld, T(1), c, ldc, part);
      }
      if (!s.ok()) report_failure(routine, s);
      return;
    }
  }
  const std::unique_ptr<T[]> diag = scratch<T>(routine, n * kBlock + kBlock * kBlock);
  if (diag == nullptr) return;
  if constexpr (kIsComplex<T>) {
    const std::array<RankKTerm<T>, 2> terms{{{alpha, &in_a, &in_b}, {alpha2, &in_b, &in_a}}};
    if (rank_k_update_1m(routine, hermitian, uplo, ops, n, k, terms, beta, c, ldc, diag.get())) {
      return;
    }
  }
  const Status s = triangle_update(
      hermitian, uplo, n, beta, c, ldc, diag.get(),
      [&](std::int64_t r0, std::int64_t rh, std::int64_t c0, std::int64_t cw, std::int64_t count,
          std::int64_t step, T bt, T* dst, std::int64_t ld, std::int64_t dst_stride) -> Status {
        const std::int64_t sa = step * row_stride(in_a), sb = step * row_stride(in_b);
        TESSERA_RETURN_IF_ERROR(level3_gemm_strided(
            Layout::kColMajor, ops.left, ops.right, rh, cw, k, alpha, rows(in_a, r0), in_a.ld, sa,
            rows(in_b, c0), in_b.ld, sb, bt, dst, ld, dst_stride, count));
        return level3_gemm_strided(Layout::kColMajor, ops.left, ops.right, rh, cw, k, alpha2,
                                   rows(in_b, r0), in_b.ld, sb, rows(in_a, c0), in_a.ld, sa, T(1),
                                   dst, ld, dst_stride, count);
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
