// TRSM and TRMM over the level-3 GEMM (trsm.hpp; level3_gemm.hpp: the
// real GEMM, or the 1m complex one). The right side is the left side on
// the transposed view: X op(A) = B is op(A)^T X^T = B^T, and B^T is B read
// row-major. So one driver handles both, with B as a strided view and the
// GEMMs issued in B's layout.
//
// TRMM on real types, and on complex ones on the left side, is one GEMM
// with a triangular left operand per piece of B instead
// (multiply_by_one_gemm, multiply_complex_left); what follows is TRSM's
// driver and the complex TRMM's other cases.
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
// and writes another: S, a compact copy of alpha B, and R, the result's
// rows (B itself where it can be: the left side, or a triangle of one
// block on either side; A apart from B). The exception is a real triangle
// of one block: its one GEMM reads B packed whole before writing it.
//   TRMM, R := E S: each block's rows of R are written from S's rows (its
//     diagonal block, beta 0) and then get the off-diagonal block's product
//     of S's other rows added.
//   TRSM, E X = S: a block's rows of X go to R (its inverse times S's
//     rows), and the fed half's rows of S lose E's off-diagonal block times
//     those rows of X, read from R.
// (The recursion used to work in B alone, copying each GEMM's input rows
// first: 2.5 copies of B per call at m = 1000 against one now.)
//
// The columns of X are independent: B is cut into equal chunks of about
// kChunk columns (by n alone, so the bits do not depend on the workers),
// and each step of the recursion is one strided batched GEMM over a group
// of chunks. Its plan hands whole chunks to workers where a step is too
// small to split (the diagonal blocks, the shallow updates), which a
// sequence of single GEMMs would run on one worker while the others wait.
#include <algorithm>
#include <memory>
#include <new>
#include <string>

#include "blas/src/blas_args.hpp"
#include "blas/src/complex_1m.hpp"
#include "blas/src/disjoint.hpp"
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
constexpr std::int64_t kChunk = 256;
constexpr std::int64_t kFewBlocksOrder = 128;
// small_triangle: triangles of order at most kSmallSide on at most
// kSmallSide columns, for TRMM also m^2 n at most kSmallMultiplyWork. Its
// loops are the BLAS layer's baseline code (SSE2 on x86-64), so the
// bounds are where it stops beating the GEMM path; on Zen
// 4, one thread, dtrsm right, B's rows x the triangle's order (us per
// call, GEMM path -> this): 8 x 8 0.55 -> 0.17, 16 x 16 1.75 -> 1.29, 32
// x 32 7.1 -> 5.5, 32 x 64 8.5 -> 11.3, 128 x 8 0.9 -> 1.6, 128 x 16 4.0
// -> 6.3, 2000 x 4 4.8 -> 9.4; dtrmm 8 x 8 0.37 -> 0.14, 16 x 16 0.71 ->
// 0.63, 32 x 32 2.4 -> 4.1 (TRMM's one block has no inverse to compute).
constexpr std::int64_t kSmallSide = 32;
constexpr std::int64_t kSmallMultiplyWork = 16 * 16 * 16;
// S and a scratch R for one group of chunks stay under this (at m = 2000,
// f64, 8 chunks a group).
constexpr std::int64_t kGroupBytes = std::int64_t{32} << 20;

template <class T>
struct TriangularBlocks {
  // E = op(A) as seen by the left-side form: E(i,j) = A(j,i) when
  // transposed, conjugated when e_conj, A column-major.
  const T* a;
  std::int64_t lda;
  bool e_trans, e_conj, unit, e_lower;
  bool multiply;      // TRMM (R := E S) rather than TRSM (E R = S)
  std::int64_t base;  // kMultiplyBase or kSolveBase
  Layout layout;      // of B's view: column-major (left side) or row-major
  std::int64_t m;
  // The group: `count` chunks of n columns, chunk c's S at s + c *
  // s_stride, its R at r + c * r_stride, both in B's view's layout.
  std::int64_t n, count;
  T* s;
  std::int64_t s_ld, s_stride;
  T* r;
  std::int64_t r_ld, r_stride;
  T* eb;       // base x base scratch for one diagonal block of E
  T* inverse;  // base x base: that block's inverse (TRSM)

  T e(std::int64_t i, std::int64_t j) const {
    return conj_if(e_trans ? a[j + i * lda] : a[i + j * lda], e_conj);
  }
  T* rows(T* p, std::int64_t ld, std::int64_t r0) const {
    return layout == Layout::kColMajor ? p + r0 : p + r0 * ld;
  }

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

  // TRMM: R[r0, r0+h) += E[r0, r0+h) x [k0, k0+w) S[k0, k0+w).
  Status add_product(std::int64_t r0, std::int64_t h, std::int64_t k0, std::int64_t w) const {
    return level3_gemm_strided(layout, e_op(), 'N', h, n, w, T(1), e_block(r0, k0), lda, 0,
                               rows(s, s_ld, k0), s_ld, s_stride, T(1), rows(r, r_ld, r0), r_ld,
                               r_stride, count);
  }

  // TRSM: S[r0, r0+h) -= E[r0, r0+h) x [k0, k0+w) X[k0, k0+w), X's rows
  // already solved into R.
  Status subtract_solved(std::int64_t r0, std::int64_t h, std::int64_t k0,
                         std::int64_t w) const {
    return level3_gemm_strided(layout, e_op(), 'N', h, n, w, T(-1), e_block(r0, k0), lda, 0,
                               rows(r, r_ld, k0), r_ld, r_stride, T(1), rows(s, s_ld, r0), s_ld,
                               s_stride, count);
  }

  // M for rows [r0, r1) (at most base): the block of E (TRMM) or its
  // inverse (TRSM), zero outside its triangle, w x w in B's layout, in eb
  // or inverse. The inverse comes from substitution on the identity's
  // columns: w^3/3 operations, against the w^2 n of the GEMM. Measured on
  // Zen 4, n = 1000, one thread, against OpenBLAS side by side: the
  // substitution and axpy loops this replaces ran at a tenth of the GEMM's
  // rate and took 16% of dtrmm's time.
  const T* diagonal_matrix(std::int64_t r0, std::int64_t r1) const {
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
    if (multiply) return eb;
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
    return inverse;
  }

  // R[r0, r1) := M S[r0, r1) by one GEMM (r1 - r0 at most base).
  Status base_gemm(std::int64_t r0, std::int64_t r1) const {
    const std::int64_t w = r1 - r0;
    return level3_gemm_strided(layout, 'N', 'N', w, n, w, T(1), diagonal_matrix(r0, r1), w, 0,
                               rows(s, s_ld, r0), s_ld, s_stride, T(0), rows(r, r_ld, r0), r_ld,
                               r_stride, count);
  }

  Status run(std::int64_t r0, std::int64_t r1) const {
    const std::int64_t h = r1 - r0;
    if (h <= base) return base_gemm(r0, r1);
    // Split at a multiple of base, so every base block but the last is full.
    const std::int64_t mid = r0 + std::max<std::int64_t>(base, (h / 2) / base * base);
    if (multiply) {
      // Each half's rows of R from its own diagonal block, then E's
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

// A small triangle straight on B's view (m x columns in s.layout, leading
// dimension ldb): E X = alpha B by substitution (TRSM), X := E (alpha B)
// (TRMM), with no scratch and no GEMM. For a triangle of order w the
// one-block path first inverts its block (w^3/3 scalar operations) or
// zero-fills it, and packs B for a GEMM of w^2 n: at small w and n that
// set-up is the call (LAPACK's dpotrf2 recursion makes ~2000 such calls at
// n = 2000). Each element of X takes its updates in order of E's column
// p, whichever way the loops run, so the bits depend on the shape alone.
template <class T>
void small_triangle(const TriangularBlocks<T>& s, T alpha, T* b, std::int64_t ldb,
                    std::int64_t columns) {
  const std::int64_t m = s.m;
  const bool row_major = s.layout == Layout::kRowMajor;
  // View rows i of `len` columns from column c0: all of them in a
  // row-major view (rows contiguous), one at a time otherwise.
  const std::int64_t len = row_major ? columns : 1;
  for (std::int64_t c0 = 0; c0 < columns; c0 += len) {
    const auto row = [&](std::int64_t i) {
      return row_major ? b + i * ldb + c0 : b + i + c0 * ldb;
    };
    for (std::int64_t i = 0; i < m; ++i) {
      T* x = row(i);
      for (std::int64_t c = 0; c < len; ++c) x[c] *= alpha;
    }
    // X(i) += f X(p), row-wise.
    const auto add = [&](std::int64_t i, T f, std::int64_t p) {
      T* x = row(i);
      const T* y = row(p);
      for (std::int64_t c = 0; c < len; ++c) x[c] += f * y[c];
    };
    // X(p) times (TRMM) or over (TRSM) E's diagonal.
    const auto diagonal = [&](std::int64_t p) {
      if (s.unit) return;
      const T d = s.e(p, p);
      T* x = row(p);
      for (std::int64_t c = 0; c < len; ++c) x[c] = s.multiply ? x[c] * d : x[c] / d;
    };
    for (std::int64_t t = 0; t < m; ++t) {
      // TRSM goes down a lower E (pivots first), TRMM up it (each row's
      // own value is used by the rows below before it is scaled).
      const bool down = s.e_lower != s.multiply;
      const std::int64_t p = down ? t : m - 1 - t;
      const std::int64_t i0 = s.e_lower ? p + 1 : 0, i1 = s.e_lower ? m : p;
      if (s.multiply) {
        for (std::int64_t i = i0; i < i1; ++i) add(i, s.e(i, p), p);
        diagonal(p);
      } else {
        diagonal(p);
        for (std::int64_t i = i0; i < i1; ++i) add(i, -s.e(i, p), p);
      }
    }
  }
}

// Copies between B's view (columns j0.. of `count` chunks of n, leading
// dimension ldb) and compact chunks (chunk c at p + c * m * n), line by
// line in the view's layout; to_compact scales by alpha on the way.
template <class T>
void copy_chunks(bool to_compact, Layout layout, std::int64_t m, std::int64_t n,
                 std::int64_t count, T alpha, T* view, std::int64_t ldb, T* p) {
  const bool col = layout == Layout::kColMajor;
  const std::int64_t lines = col ? n : m, line = col ? m : n;
  for (std::int64_t c = 0; c < count; ++c) {
    for (std::int64_t l = 0; l < lines; ++l) {
      // A view line: a column of B's chunk (column-major) or a row of it.
      T* v = col ? view + (c * n + l) * ldb : view + l * ldb + c * n;
      T* q = p + c * m * n + l * line;
      if (to_compact) {
        for (std::int64_t i = 0; i < line; ++i) q[i] = alpha * v[i];
      } else {
        std::copy(q, q + line, v);
      }
    }
  }
}

// TRMM on real types as one GEMM with a triangular left operand per piece
// of B's columns (try_gemm_triangular): B's piece packed whole as the
// right-hand side before any of it is written, then E (alpha B) written
// over it. The kernels multiply only the depths each register tile's rows
// use, so the zeros the blocks of the recursion multiplied (its 64-row
// diagonal blocks: 6% of dtrmm's products at m = 1000), its copy S and
// its chain of smaller GEMMs are gone. Pieces keep the packed copy under
// kGroupBytes (by m and n alone; each column's bits are its own either
// way). A sharing B's array (dpotrf's A(J,J) above its panel) is read
// from a copy of its referenced triangle, which the GEMM would otherwise
// refuse as an input meeting C. Returns false, having written nothing,
// where the packed copy cannot be made (no memory, or the naive family,
// which packs nothing ahead): the block recursion then runs.
template <class T>
bool multiply_by_one_gemm(const char* routine, const TriangularBlocks<T>& s, char uplo, T alpha,
                          T* b, std::int64_t ldb, std::int64_t columns, std::int64_t column_step) {
  const Context& context = blas_context();
  const T* a = s.a;
  std::int64_t lda = s.lda;
  std::unique_ptr<T[]> triangle_copy;
  if (overlap(matrix_footprint(Layout::kColMajor, s.m, s.m, lda, a),
              matrix_footprint(Layout::kColMajor, s.layout == Layout::kColMajor ? s.m : columns,
                               s.layout == Layout::kColMajor ? columns : s.m, ldb, b))) {
    triangle_copy.reset(new (std::nothrow) T[static_cast<std::size_t>(s.m * s.m)]());
    if (triangle_copy == nullptr) return false;
    for (std::int64_t j = 0; j < s.m; ++j) {
      const std::int64_t i0 = uplo == 'U' ? 0 : j, i1 = uplo == 'U' ? j + 1 : s.m;
      for (std::int64_t i = i0; i < i1; ++i) triangle_copy[i + j * s.m] = a[i + j * lda];
    }
    a = triangle_copy.get();
    lda = s.m;
  }
  // A column-major array read in a row-major layout is A^T: the transpose
  // flag and the stored triangle flip with the layout.
  const bool col = s.layout == Layout::kColMajor;
  const Transpose trans = (col ? s.e_trans : !s.e_trans) ? Transpose::kYes : Transpose::kNo;
  const bool stored_lower = (uplo == 'L') == col;
  const TriangularOperand triangular{stored_lower ? Triangle::kLower : Triangle::kUpper, s.unit};
  const std::int64_t bytes = static_cast<std::int64_t>(sizeof(T)) * s.m;
  const std::int64_t pieces = (columns * bytes + kGroupBytes - 1) / kGroupBytes;
  const std::int64_t width = (columns + pieces - 1) / pieces;
  for (std::int64_t j0 = 0; j0 < columns; j0 += width) {
    const std::int64_t cols = std::min(width, columns - j0);
    T* view = b + j0 * column_step;
    PackedRhs packed;
    if (!try_prepack_rhs(context, s.layout, Transpose::kNo, s.m, cols, view, ldb, &packed).ok()) {
      // Nothing written yet on the first piece; later pieces have the
      // memory the first one had, freed.
      if (j0 == 0) return false;
      report_failure(routine, Status(StatusCode::kOutOfMemory,
                                     "no memory to pack B for " + std::string(routine)));
      return true;
    }
    const Status st = try_gemm_triangular(context, s.layout, trans, s.m, alpha, a, lda, packed,
                                          T(0), view, ldb, triangular);
    if (!st.ok()) {
      report_failure(routine, st);
      return true;
    }
  }
  return true;
}

// Complex TRMM, left side, the same way on 1m's operands (complex_gemm.hpp):
// op(A) expanded into 2 x 2 real blocks, a triangle of blocks (group 2)
// whose other elements the GEMM never uses, and B's piece as the 2m x n
// reals its array already is, prepacked before the product writes it. A
// is read whole into the expansion first, so it may share B's array. A
// complex alpha is folded into the expansion, where a unit diagonal's
// identity blocks would drop it: that case (and no memory for the first
// piece) returns false with nothing written, and the block recursion
// runs. The right side, whose triangle would be 1m's right operand, runs
// the recursion.
template <class R>
bool multiply_complex_left(const char* routine, const TriangularBlocks<std::complex<R>>& s,
                           char trans, std::complex<R> alpha, std::complex<R>* b,
                           std::int64_t ldb, std::int64_t columns) {
  const bool fold = alpha.imag() != R(0);
  if (fold && s.unit) return false;
  const std::int64_t m = s.m;
  ScratchLease<R> lease(static_cast<std::size_t>(4 * m * m));
  R* const expanded = lease.data();
  if (expanded == nullptr) return false;
  expand_left(trans, m, m, s.a, s.lda, fold, alpha, R(1), expanded, 2 * m);
  const Context& context = blas_context();
  const TriangularOperand triangular{s.e_lower ? Triangle::kLower : Triangle::kUpper, s.unit, 2};
  const std::int64_t bytes = static_cast<std::int64_t>(2 * sizeof(R)) * m;
  const std::int64_t pieces = (columns * bytes + kGroupBytes - 1) / kGroupBytes;
  const std::int64_t width = (columns + pieces - 1) / pieces;
  for (std::int64_t j0 = 0; j0 < columns; j0 += width) {
    const std::int64_t cols = std::min(width, columns - j0);
    R* const view = reinterpret_cast<R*>(b + j0 * ldb);
    PackedRhs packed;
    if (!try_prepack_rhs(context, Layout::kColMajor, Transpose::kNo, 2 * m, cols, view, 2 * ldb,
                         &packed)
             .ok()) {
      if (j0 == 0) return false;
      report_failure(routine, Status(StatusCode::kOutOfMemory,
                                     "no memory to pack B for " + std::string(routine)));
      return true;
    }
    const Status st =
        try_gemm_triangular(context, Layout::kColMajor, Transpose::kNo, 2 * m,
                            fold ? R(1) : alpha.real(), expanded, 2 * m, packed, R(0), view,
                            2 * ldb, triangular);
    if (!st.ok()) {
      report_failure(routine, st);
      return true;
    }
  }
  return true;
}

// The shared driver: B in groups of chunks, each loaded into S as alpha B,
// multiplied or solved into R, and R copied back unless it is B.
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
  std::int64_t columns;
  if (side == 'L') {
    s.e_trans = trans_a;
    s.layout = Layout::kColMajor;
    s.m = m, columns = n;
  } else {
    // op(A)^T X^T = B^T: E = op(A)^T, B^T is n x m, row-major (ld ldb).
    s.e_trans = !trans_a;
    s.layout = Layout::kRowMajor;
    s.m = n, columns = m;
  }
  // E is lower triangular when A's stored triangle is, unless transposed.
  s.e_lower = (uplo == 'L') != s.e_trans;
  if (s.m <= kSmallSide && columns <= kSmallSide &&
      (!multiply || s.m * s.m * columns <= kSmallMultiplyWork)) {
    small_triangle(s, alpha, b, ldb, columns);
    return;
  }
  if constexpr (!kIsComplex<T>) {
    if (multiply &&
        multiply_by_one_gemm(routine, s, uplo, alpha, b, ldb, columns, side == 'L' ? ldb : 1)) {
      return;
    }
  } else {
    if (multiply && side == 'L' &&
        multiply_complex_left(routine, s, trans, alpha, b, ldb, columns)) {
      return;
    }
  }
  // A triangle of one diagonal block is one GEMM over all of B's columns,
  // which splits among the workers by itself: no chunks (Zen 4, one
  // thread, B 2000 x 32 on the right, LAPACK's dlarfb and dpotrf: dtrmm
  // 141 -> 125 us, dtrsm 170 -> 114; benchmarks.md). R is B itself where
  // its chunks are disjoint address ranges (B's columns: the left side; a
  // single chunk: either side) and A lies apart from B (the GEMMs would
  // refuse it as an input meeting C); otherwise a scratch copied back.
  const bool one_block = s.m <= s.base;
  // A triangle of a few blocks (order at most kFewBlocksOrder) is read from
  // a copy of its referenced triangle, so it never meets B (dpotrf's
  // A(J,J) sits above its panel A(J+JB,J), in the same columns), and B is
  // one chunk, or as few as keep S under kGroupBytes (below): R is then B
  // itself on either side, with no copy back. Zen 4, one thread, dpotrf's
  // dtrsm (right, 64 wide, m x 64 in one array of leading dimension
  // 2000): benchmarks.md.
  const bool few_blocks = !one_block && s.m <= kFewBlocksOrder;
  std::unique_ptr<T[]> triangle_copy;
  if (few_blocks) {
    triangle_copy.reset(new (std::nothrow) T[static_cast<std::size_t>(s.m * s.m)]());
    if (triangle_copy == nullptr) {
      report_failure(routine, Status(StatusCode::kOutOfMemory,
                                     "no memory for a copy of the triangle of " +
                                         std::string(routine)));
      return;
    }
    for (std::int64_t j = 0; j < s.m; ++j) {
      const std::int64_t i0 = uplo == 'U' ? 0 : j, i1 = uplo == 'U' ? j + 1 : s.m;
      for (std::int64_t i = i0; i < i1; ++i) triangle_copy[i + j * s.m] = a[i + j * lda];
    }
    s.a = triangle_copy.get();
    s.lda = s.m;
  }
  const bool r_in_b =
      (side == 'L' || one_block || few_blocks) &&
      !overlap(matrix_footprint(Layout::kColMajor, s.m, s.m, s.lda, s.a),
               matrix_footprint(Layout::kColMajor, m, n, ldb, b));
  // Real types, one block: R := M (alpha B) as one GEMM whose right operand
  // is B itself, packed whole (a prepacked right-hand side) before any of B
  // is written, instead of through a copy S of alpha B (alpha goes to the
  // GEMM). The packing is the copy the GEMM makes anyway; A is read into M
  // first, so it may share B's array (dpotrf's A(J,J) and A(J+JB,J)).
  // Measured on Zen 4, one thread, B 2000 x 32 on the right (LAPACK's
  // dlarfb and dpotrf), alternated: dtrmm 115 -> 97 us (OpenBLAS 53: its
  // kernel skips the zeros this block's GEMM multiplies), dtrsm 120-137 ->
  // 103-115 (OpenBLAS 137-140).
  if constexpr (!kIsComplex<T>) {
    if (one_block) {
      const std::unique_ptr<T[]> blocks(new (std::nothrow) T[2 * kMaxBase * kMaxBase]);
      PackedRhs packed;
      const Context& context = blas_context();
      if (blocks != nullptr &&
          try_prepack_rhs(context, s.layout, Transpose::kNo, s.m, columns, b, ldb, &packed)
              .ok()) {
        s.eb = blocks.get();
        s.inverse = s.eb + kMaxBase * kMaxBase;
        const Status st = try_gemm(context, s.layout, Transpose::kNo, s.m, alpha,
                                   s.diagonal_matrix(0, s.m), s.m, packed, T(0), b, ldb);
        if (!st.ok()) report_failure(routine, st);
        return;
      }
      // No packed copy (no memory, or a kernel family that packs nothing
      // ahead): the general path below.
    }
  }
  // A few blocks: as few chunks as keep S under kGroupBytes (one, for
  // LAPACK's panels), one chunk a group on the right side, where R is B
  // and the chunks (rows of B) interleave in memory.
  // (s.m * columns * sizeof(T) only where it cannot overflow: s.m <= 128.)
  const std::int64_t pieces =
      one_block    ? 1
      : few_blocks ? (s.m * columns * static_cast<std::int64_t>(sizeof(T)) + kGroupBytes - 1) /
                         kGroupBytes
                   : (columns + kChunk - 1) / kChunk;
  const std::int64_t width = (columns + pieces - 1) / pieces;
  const std::int64_t full = columns / width, rest = columns - full * width;
  const std::int64_t chunk_bytes =
      s.m * width * static_cast<std::int64_t>(sizeof(T)) * (r_in_b ? 1 : 2);
  const std::int64_t group =
      few_blocks && side == 'R'
          ? 1
          : std::max<std::int64_t>(
                1, std::min(std::max<std::int64_t>(full, 1), kGroupBytes / chunk_bytes));
  const std::int64_t compact = s.m * width * group;
  std::unique_ptr<T[]> scratch(new (std::nothrow) T[static_cast<std::size_t>(
      2 * kMaxBase * kMaxBase + compact * (r_in_b ? 1 : 2))]);
  if (scratch == nullptr) {
    report_failure(routine, Status(StatusCode::kOutOfMemory, "no memory for the scratch of " +
                                                                 std::string(routine)));
    return;
  }
  s.eb = scratch.get();
  s.inverse = s.eb + kMaxBase * kMaxBase;
  T* s_area = s.inverse + kMaxBase * kMaxBase;
  T* r_area = s_area + compact;
  // View column j0 of B: column j0 (left side) or row j0 (right side).
  const std::int64_t column_step = side == 'L' ? ldb : 1;
  const auto process = [&](std::int64_t j0, std::int64_t cols, std::int64_t count) {
    T* view = b + j0 * column_step;
    s.n = cols, s.count = count;
    s.s = s_area;
    s.s_ld = s.layout == Layout::kColMajor ? s.m : cols;
    s.s_stride = s.m * cols;
    if (r_in_b) {
      // The next chunk's columns of B: count > 1 only on the left side
      // (the right side's R is B with one chunk a group).
      s.r = view, s.r_ld = ldb, s.r_stride = cols * ldb;
    } else {
      s.r = r_area, s.r_ld = s.s_ld, s.r_stride = s.s_stride;
    }
    copy_chunks(true, s.layout, s.m, cols, count, alpha, view, ldb, s.s);
    TESSERA_RETURN_IF_ERROR(s.run(0, s.m));
    if (!r_in_b) copy_chunks(false, s.layout, s.m, cols, count, T(1), view, ldb, s.r);
    return Status();
  };
  Status st;
  for (std::int64_t c0 = 0; c0 < full && st.ok(); c0 += group) {
    st = process(c0 * width, width, std::min(group, full - c0));
  }
  if (st.ok() && rest > 0) st = process(full * width, rest, 1);
  if (!st.ok()) report_failure(routine, st);
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
