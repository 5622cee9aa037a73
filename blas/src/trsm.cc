// TRSM and TRMM over the level-3 GEMM (trsm.hpp; level3_gemm.hpp: the
// real GEMM, or the 4m complex one). The right side is the left side on
// the transposed view: X op(A) = B is op(A)^T X^T = B^T, and B^T is B read
// row-major. So one solver handles both, with B as a strided view and the
// GEMM updates issued in B's layout.
//
// TRMM, B := op(A) B, is the same recursion run the other way: the half
// whose new rows depend on the other half's original rows goes first
// (E lower: the second half, X2 := E22 X2 + E21 X1, then X1 := E11 X1),
// and blocks of at most kBase rows are multiplied by their block of E by
// one GEMM.
//
// Recursive substitution on E = op(A) (as the left-side solve sees it):
// split the rows in two, solve the first half, subtract its contribution
// from the second half with one GEMM (depth: the half's height), solve the
// second half. The GEMMs carry all but O(m kBase n) of the m^2 n work, at
// depths large enough for the GEMM to run near its peak. Blocks of at most
// kBase rows are multiplied by the inverse of their diagonal block of E
// (OpenBLAS's trsm kernels do the same), by one GEMM as well.
//
// The columns of X are independent: B is solved in chunks of kChunk
// columns, so the copy of solved rows the GEMM needs (they are other rows
// of the same columns as the GEMM's output, so their address ranges
// interleave and tessera's GEMM rightly refuses them as an input sharing
// memory with C) is at most m/2 x kChunk.
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

constexpr std::int64_t kBase = 32;
constexpr std::int64_t kChunk = 256;

template <class T>
struct TriangularBlocks {
  // E = op(A) as seen by the left-side solve: E(i,j) = A(j,i) when
  // transposed, conjugated when e_conj, A column-major.
  const T* a;
  std::int64_t lda;
  bool e_trans, e_conj, unit, e_lower;
  bool multiply;  // TRMM (X := E X) rather than TRSM (X := E^-1 X)
  // B (m x n) as a view: B(i,j) = b[i*rs + j*cs], rs == 1 (column-major
  // view) or cs == 1 (row-major); layout is the GEMM layout in which
  // (b, ldb) describes that view.
  T* b;
  std::int64_t rs, cs, ldb;
  Layout layout;
  std::int64_t m, n;  // n: the columns of the current chunk
  T* solved;          // (m/2 rounded up) x kChunk scratch for update()
  T* eb;              // kBase x kBase scratch for one diagonal block of E
  T* inverse;         // kBase x kBase: that block's inverse (TRSM)
  T* block_rows;      // kBase x kChunk: a copy of the block's rows of X

  T e(std::int64_t i, std::int64_t j) const {
    return conj_if(e_trans ? a[j + i * lda] : a[i + j * lda], e_conj);
  }
  T* row(std::int64_t i) const { return b + i * rs; }

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

  // X[r0, r0+h) -= E[r0, r0+h) x [k0, k0+w) X[k0, k0+w) (+= for TRMM),
  // through a copy of the rows X[k0, k0+w).
  Status update(std::int64_t r0, std::int64_t h, std::int64_t k0, std::int64_t w) const {
    const bool col = layout == Layout::kColMajor;
    const std::int64_t ld = col ? w : n;
    for (std::int64_t j = 0; j < n; ++j) {
      for (std::int64_t i = 0; i < w; ++i) {
        solved[col ? i + j * ld : i * ld + j] = b[(k0 + i) * rs + j * cs];
      }
    }
    return level3_gemm(layout, e_op(), 'N', h, n, w, multiply ? T(1) : T(-1), e_block(r0, k0),
                       lda, solved, ld, T(1), row(r0), ldb);
  }

  // Rows [r0, r1) (at most kBase) := M X[r0, r1) by one GEMM, M the
  // block of E (TRMM) or its inverse (TRSM), zero outside its triangle, in
  // the GEMM's layout; X's rows through a copy (the GEMM may not read what
  // it writes). The block's inverse comes from substitution on the
  // identity's columns: w^3/3 operations, against the w^2 n of the GEMM.
  // Measured on Zen 4, n = 1000, one thread, against OpenBLAS side by
  // side: the substitution and axpy loops this replaces ran at a tenth of
  // the GEMM's rate and took 16% of dtrmm's time.
  Status base_gemm(std::int64_t r0, std::int64_t r1) const {
    const std::int64_t w = r1 - r0;
    const bool col = layout == Layout::kColMajor;
    const auto at = [&](T* m, std::int64_t i, std::int64_t p) -> T& {
      return col ? m[i + p * w] : m[i * w + p];
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
    T* m = eb;
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
      m = inverse;
    }
    const std::int64_t ld = col ? w : n;
    for (std::int64_t j = 0; j < n; ++j) {
      for (std::int64_t i = 0; i < w; ++i) {
        block_rows[col ? i + j * ld : i * ld + j] = b[(r0 + i) * rs + j * cs];
      }
    }
    return level3_gemm(layout, 'N', 'N', w, n, w, T(1), m, w, block_rows, ld, T(0), row(r0),
                       ldb);
  }

  Status solve(std::int64_t r0, std::int64_t r1) const {
    const std::int64_t h = r1 - r0;
    if (h <= kBase) return base_gemm(r0, r1);
    // Split at a multiple of kBase, so every base block but the last is full.
    const std::int64_t mid = r0 + std::max<std::int64_t>(kBase, (h / 2) / kBase * kBase);
    // E's off-diagonal block feeds the bottom half from the top (E lower)
    // or the top from the bottom. TRSM solves the feeding half first; TRMM
    // does it last, after the fed half has read its original rows.
    const bool top_first = e_lower != multiply;
    const auto fed_update = [&] {
      return e_lower ? update(mid, r1 - mid, r0, mid - r0) : update(r0, mid - r0, mid, r1 - mid);
    };
    if (top_first) {
      TESSERA_RETURN_IF_ERROR(solve(r0, mid));
      TESSERA_RETURN_IF_ERROR(fed_update());
      return solve(mid, r1);
    }
    TESSERA_RETURN_IF_ERROR(solve(mid, r1));
    TESSERA_RETURN_IF_ERROR(fed_update());
    return solve(r0, mid);
  }
};

// The shared driver: alpha B first, then E or E^-1 applied to B in column
// chunks.
template <class T>
void triangular_colmajor(const char* routine, bool multiply, char side, char uplo, char trans,
                         char diag, std::int64_t m, std::int64_t n, T alpha, const T* a,
                         std::int64_t lda, T* b, std::int64_t ldb) {
  if (m == 0 || n == 0) return;
  // alpha * B first (alpha == 0: zeros, B not read, A not read).
  if (alpha != T(1)) {
    for (std::int64_t j = 0; j < n; ++j) {
      for (std::int64_t i = 0; i < m; ++i) {
        T& v = b[i + j * ldb];
        v = alpha == T(0) ? T(0) : alpha * v;
      }
    }
    if (alpha == T(0)) return;
  }
  const bool trans_a = trans != 'N';
  TriangularBlocks<T> s;
  s.a = a;
  s.lda = lda;
  s.unit = diag == 'U';
  s.multiply = multiply;
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
  const std::int64_t solved_size = s.m > kBase ? (s.m / 2 + kBase) * chunk : 0;
  std::unique_ptr<T[]> scratch(
      new (std::nothrow) T[static_cast<std::size_t>(solved_size + 2 * kBase * kBase +
                                                    kBase * chunk)]);
  if (scratch == nullptr) {
    report_failure(routine, Status(StatusCode::kOutOfMemory, "no memory for the scratch of " +
                                                                 std::string(routine)));
    return;
  }
  s.eb = scratch.get();
  s.inverse = s.eb + kBase * kBase;
  s.block_rows = s.inverse + kBase * kBase;
  s.solved = s.block_rows + kBase * chunk;
  for (std::int64_t j0 = 0; j0 < columns; j0 += chunk) {
    s.b = b + j0 * s.cs;
    s.n = std::min(chunk, columns - j0);
    const Status st = s.solve(0, s.m);
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
