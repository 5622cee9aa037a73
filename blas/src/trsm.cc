// TRSM and TRMM over the level-3 GEMM (trsm.hpp; level3_gemm.hpp: the
// real GEMM, or the 4m complex one). The right side is the left side on
// the transposed view: X op(A) = B is op(A)^T X^T = B^T, and B^T is B read
// row-major. So one driver handles both, with B as a strided view and the
// GEMMs issued in B's layout.
//
// Both run on E = op(A) as the left-side form sees it, by recursion on
// its rows: split them in two, handle each half, and one GEMM (depth: a
// half's height) for E's off-diagonal block. The GEMMs carry all but
// O(m base n) of the m^2 n work, at depths large enough for the GEMM to
// run near its peak; blocks of at most `base` rows are one GEMM each, by
// their diagonal block of E (TRMM) or its inverse (TRSM; OpenBLAS's trsm
// kernels do the same).
//
// tessera's GEMM refuses an input whose address range meets C's (rows of
// one column-major matrix interleave), so every GEMM here reads one array
// and writes another: S, a compact copy of alpha B in B's layout, and B.
//   TRMM, B := E S: each block's rows of B are written from S's rows (its
//     diagonal block, beta 0) and then get the off-diagonal block's product
//     of S's other rows added.
//   TRSM, E X = S: a block's rows of X go to B (its inverse times S's
//     rows), and the fed half's rows of S lose E's off-diagonal block times
//     those rows of X, read from B.
// (The recursion used to work in B alone, copying each GEMM's input rows
// first: 2.5 copies of B per call at m = 1000 against one now.)
// The columns of X are independent: B is handled in chunks of kChunk
// columns, so S is at most m x kChunk.
#include <algorithm>
#include <memory>
#include <new>
#include <string>

#include "blas/src/blas_args.hpp"
#include "blas/src/level3_gemm.hpp"
#include "blas/src/scalar.hpp"
#include "blas/src/trsm.hpp"

namespace tessera::blas {
namespace {

// The largest diagonal block applied by one GEMM: TRSM's by its inverse
// (computed by substitution, so kept small), TRMM's by the block itself
// with zeros outside the triangle, which wastes half its products: at
// kMultiplyBase 64 and m = 1000 that is 3% more work, bought back by the
// GEMM's rate at depth 64 against 32 (measured in benchmarks.md).
constexpr std::int64_t kSolveBase = 32;
constexpr std::int64_t kMultiplyBase = 64;
constexpr std::int64_t kMaxBase = std::max(kSolveBase, kMultiplyBase);
constexpr std::int64_t kChunk = 512;

template <class T>
struct TriangularBlocks {
  // E = op(A) as seen by the left-side form: E(i,j) = A(j,i) when
  // transposed, conjugated when e_conj, A column-major.
  const T* a;
  std::int64_t lda;
  bool e_trans, e_conj, unit, e_lower;
  bool multiply;  // TRMM (B := E S) rather than TRSM (E X = S)
  std::int64_t base;  // kMultiplyBase or kSolveBase
  // B (m x n) as a view: B(i,j) = b[i*rs + j*cs], rs == 1 (column-major
  // view) or cs == 1 (row-major); layout is the GEMM layout in which
  // (b, ldb) describes that view.
  T* b;
  std::int64_t rs, cs, ldb;
  Layout layout;
  std::int64_t m, n;  // n: the columns of the current chunk
  T* s;       // S (m x n), compact in B's layout
  T* eb;       // base x base scratch for one diagonal block of E
  T* inverse;  // base x base: that block's inverse (TRSM)

  T e(std::int64_t i, std::int64_t j) const {
    return conj_if(e_trans ? a[j + i * lda] : a[i + j * lda], e_conj);
  }
  T* row(std::int64_t i) const { return b + i * rs; }

  T* s_row(std::int64_t r0) const { return layout == Layout::kColMajor ? s + r0 : s + r0 * n; }
  std::int64_t s_ld() const { return layout == Layout::kColMajor ? m : n; }

  // The GEMM operand for E's sub-block at (r0, c0): A column-major is A^T
  // in a row-major layout, so the transpose flag flips with the layout
  // (a conjugation stays).
  const T* e_block(std::int64_t r0, std::int64_t c0) const {
    return e_trans ? a + c0 + r0 * lda : a + r0 + c0 * lda;
  }
  char e_op() const {
    const bool t = layout == Layout::kColMajor ? e_trans : !e_trans;
    return t ? (e_conj ? 'C' : 'T') : (e_conj ? 'R' : 'N');
  }

  // S := alpha B (the reference scales B first too), line by line.
  void load(T alpha) const {
    const bool col = layout == Layout::kColMajor;
    const std::int64_t lines = col ? n : m, line = col ? m : n;
    for (std::int64_t l = 0; l < lines; ++l) {
      const T* from = b + l * ldb;
      T* to = s + l * line;
      for (std::int64_t i = 0; i < line; ++i) to[i] = alpha * from[i];
    }
  }

  // TRMM: B[r0, r0+h) += E[r0, r0+h) x [k0, k0+w) S[k0, k0+w).
  Status add_product(std::int64_t r0, std::int64_t h, std::int64_t k0, std::int64_t w) const {
    return level3_gemm(layout, e_op(), 'N', h, n, w, T(1), e_block(r0, k0), lda, s_row(k0), s_ld(),
                       T(1), row(r0), ldb);
  }

  // TRSM: S[r0, r0+h) -= E[r0, r0+h) x [k0, k0+w) X[k0, k0+w), X's rows
  // already solved into B.
  Status subtract_solved(std::int64_t r0, std::int64_t h, std::int64_t k0,
                         std::int64_t w) const {
    return level3_gemm(layout, e_op(), 'N', h, n, w, T(-1), e_block(r0, k0), lda, row(k0), ldb,
                       T(1), s_row(r0), s_ld());
  }

  // B[r0, r1) := M S[r0, r1) by one GEMM (r1 - r0 at most base), M the
  // block of E (TRMM) or its inverse (TRSM), zero outside its triangle, in
  // B's layout. The inverse comes from substitution on the identity's
  // columns: w^3/3 operations, against the w^2 n of the GEMM. Measured on
  // Zen 4, n = 1000, one thread, against OpenBLAS side by side: the
  // substitution and axpy loops this replaces ran at a tenth of the GEMM's
  // rate and took 16% of dtrmm's time.
  Status base_gemm(std::int64_t r0, std::int64_t r1) const {
    const std::int64_t w = r1 - r0;
    const bool col = layout == Layout::kColMajor;
    const auto at = [&](T* mat, std::int64_t i, std::int64_t p) -> T& {
      return col ? mat[i + p * w] : mat[i * w + p];
    };
    const auto in_triangle = [&](std::int64_t i, std::int64_t p) {
      return e_lower ? i >= p : i <= p;
    };
    for (std::int64_t p = 0; p < w; ++p) {
      for (std::int64_t i = 0; i < w; ++i) {
        at(eb, i, p) = !in_triangle(i, p) ? T(0)
                       : (i == p && unit) ? T(1)
                                          : e(r0 + i, r0 + p);
      }
    }
    T* mat = eb;
    if (!multiply) {
      // Column c of the inverse: E y = e_c, by substitution (pivots down
      // for lower E, up for upper E).
      for (std::int64_t c = 0; c < w; ++c) {
        for (std::int64_t i = 0; i < w; ++i) at(inverse, i, c) = T(i == c ? 1 : 0);
        for (std::int64_t t = 0; t < w; ++t) {
          const std::int64_t p = e_lower ? t : w - 1 - t;
          T& yp = at(inverse, p, c);
          if (yp == T(0)) continue;
          if (!unit) yp /= at(eb, p, p);
          const std::int64_t i0 = e_lower ? p + 1 : 0, i1 = e_lower ? w : p;
          for (std::int64_t i = i0; i < i1; ++i) at(inverse, i, c) -= yp * at(eb, i, p);
        }
      }
      mat = inverse;
    }
    return level3_gemm(layout, 'N', 'N', w, n, w, T(1), mat, w, s_row(r0), s_ld(), T(0), row(r0),
                       ldb);
  }

  Status run(std::int64_t r0, std::int64_t r1) const {
    const std::int64_t h = r1 - r0;
    if (h <= base) return base_gemm(r0, r1);
    // Split at a multiple of base, so every base block but the last is full.
    const std::int64_t mid = r0 + std::max<std::int64_t>(base, (h / 2) / base * base);
    if (multiply) {
      // Each half's rows of B from its own diagonal block, then E's
      // off-diagonal block adds the other half's S to the fed half.
      TESSERA_RETURN_IF_ERROR(run(r0, mid));
      TESSERA_RETURN_IF_ERROR(run(mid, r1));
      return e_lower ? add_product(mid, r1 - mid, r0, mid - r0)
                     : add_product(r0, mid - r0, mid, r1 - mid);
    }
    // The feeding half (the top for lower E) is solved first, then its
    // contribution leaves the fed half's S, then the fed half is solved.
    if (e_lower) {
      TESSERA_RETURN_IF_ERROR(run(r0, mid));
      TESSERA_RETURN_IF_ERROR(subtract_solved(mid, r1 - mid, r0, mid - r0));
      return run(mid, r1);
    }
    TESSERA_RETURN_IF_ERROR(run(mid, r1));
    TESSERA_RETURN_IF_ERROR(subtract_solved(r0, mid - r0, mid, r1 - mid));
    return run(r0, mid);
  }
};

// The shared driver: B in column chunks, each loaded into S as alpha B and
// then multiplied or solved back into B.
template <class T>
void triangular_colmajor(const char* routine, bool multiply, char side, char uplo, char trans,
                         char diag, std::int64_t m, std::int64_t n, T alpha, const T* a,
                         std::int64_t lda, T* b, std::int64_t ldb) {
  if (m == 0 || n == 0) return;
  if (alpha == T(0)) {
    // Zeros; A and B are not read.
    for (std::int64_t j = 0; j < n; ++j) {
      for (std::int64_t i = 0; i < m; ++i) b[i + j * ldb] = T(0);
    }
    return;
  }
  const bool trans_a = trans != 'N';
  TriangularBlocks<T> s;
  s.a = a;
  s.lda = lda;
  s.unit = diag == 'U';
  s.multiply = multiply;
  s.base = multiply ? kMultiplyBase : kSolveBase;
  // op(A) = A^H: conjugated on either side (X A^H = B is conj(A) X^T = B^T).
  s.e_conj = trans == 'C';
  s.ldb = ldb;
  std::int64_t columns;
  if (side == 'L') {
    s.e_trans = trans_a;
    s.rs = 1, s.cs = ldb;
    s.layout = Layout::kColMajor;
    s.m = m, columns = n;
  } else {
    // op(A)^T X^T = B^T: E = op(A)^T, B^T is n x m, row-major (ld ldb).
    s.e_trans = !trans_a;
    s.rs = ldb, s.cs = 1;
    s.layout = Layout::kRowMajor;
    s.m = n, columns = m;
  }
  // E is lower triangular when A's stored triangle is, unless transposed.
  s.e_lower = (uplo == 'L') != s.e_trans;
  const std::int64_t chunk = std::min(kChunk, columns);
  std::unique_ptr<T[]> scratch(
      new (std::nothrow) T[static_cast<std::size_t>(2 * kMaxBase * kMaxBase + s.m * chunk)]);
  if (scratch == nullptr) {
    report_failure(routine, Status(StatusCode::kOutOfMemory, "no memory for the scratch of " +
                                                                 std::string(routine)));
    return;
  }
  s.eb = scratch.get();
  s.inverse = s.eb + kMaxBase * kMaxBase;
  s.s = s.inverse + kMaxBase * kMaxBase;
  for (std::int64_t j0 = 0; j0 < columns; j0 += chunk) {
    s.b = b + j0 * s.cs;
    s.n = std::min(chunk, columns - j0);
    s.load(alpha);
    const Status st = s.run(0, s.m);
    if (!st.ok()) {
      report_failure(routine, st);
      return;
    }
  }
}

}  // namespace

template <class T>
void trsm_colmajor(const char* routine, char side, char uplo, char trans, char diag,
                   std::int64_t m, std::int64_t n, T alpha, const T* a, std::int64_t lda, T* b,
                   std::int64_t ldb) {
  triangular_colmajor(routine, false, side, uplo, trans, diag, m, n, alpha, a, lda, b, ldb);
}

template <class T>
void trmm_colmajor(const char* routine, char side, char uplo, char trans, char diag,
                   std::int64_t m, std::int64_t n, T alpha, const T* a, std::int64_t lda, T* b,
                   std::int64_t ldb) {
  triangular_colmajor(routine, true, side, uplo, trans, diag, m, n, alpha, a, lda, b, ldb);
}

#define TESSERA_BLAS_TRIANGULAR_INSTANTIATE(T)                                              \
  template void trsm_colmajor<T>(const char*, char, char, char, char, std::int64_t,         \
                                 std::int64_t, T, const T*, std::int64_t, T*, std::int64_t); \
  template void trmm_colmajor<T>(const char*, char, char, char, char, std::int64_t,         \
                                 std::int64_t, T, const T*, std::int64_t, T*, std::int64_t);
TESSERA_BLAS_TRIANGULAR_INSTANTIATE(float)
TESSERA_BLAS_TRIANGULAR_INSTANTIATE(double)
TESSERA_BLAS_TRIANGULAR_INSTANTIATE(c32)
TESSERA_BLAS_TRIANGULAR_INSTANTIATE(c64)
#undef TESSERA_BLAS_TRIANGULAR_INSTANTIATE

}  // namespace tessera::blas
