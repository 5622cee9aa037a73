// TRSM over tessera's GEMM (trsm.hpp). The right side is the left side on
// the transposed view: X op(A) = B is op(A)^T X^T = B^T, and B^T is B read
// row-major. So one solver handles both, with B as a strided view and the
// GEMM updates issued in B's layout.
//
// Blocked substitution: op(A)'s diagonal blocks (kBlock wide) are solved
// element by element; everything below (forward) or above (backward) a
// solved block row is updated by one GEMM, B_rest -= E_rest,block X_block,
// which carries O(m^2 n) of the O(m^2 n / 2 + m kBlock n) work.
#include <algorithm>
#include <memory>
#include <new>

#include "blas/src/blas_args.hpp"
#include "blas/src/trsm.hpp"
#include "tessera/gemm.hpp"

namespace tessera::blas {
namespace {

constexpr std::int64_t kBlock = 64;

template <class T>
struct Solve {
  // E = op(A) as seen by the left-side solve: E(i,j) = A(j,i) when
  // transposed, A column-major.
  const T* a;
  std::int64_t lda;
  bool e_trans, unit;
  // B (m x n) as a view: B(i,j) = b[i*rs + j*cs]; layout is the GEMM layout
  // in which (b, ldb) describes that view.
  T* b;
  std::int64_t rs, cs, ldb;
  Layout layout;
  std::int64_t m, n;
  T* solved;  // kBlock x n scratch for update()

  T e(std::int64_t i, std::int64_t j) const { return e_trans ? a[j + i * lda] : a[i + j * lda]; }
  T& x(std::int64_t i, std::int64_t j) const { return b[i * rs + j * cs]; }

  // The GEMM operand for E's sub-block at (r0, c0): A column-major is A^T
  // in a row-major layout, so the transpose flag flips with the layout.
  const T* e_block(std::int64_t r0, std::int64_t c0) const {
    return e_trans ? a + c0 + r0 * lda : a + r0 + c0 * lda;
  }
  Transpose e_op() const {
    const bool t = layout == Layout::kColMajor ? e_trans : !e_trans;
    return t ? Transpose::kYes : Transpose::kNo;
  }

  // B[r0 .. r0+h) -= E[r0 .. r0+h, k0 .. k0+w) X[k0 .. k0+w). The solved
  // rows go through a copy (`solved`, kBlock x n): they are other rows of
  // the same columns as the output, so their address ranges interleave and
  // tessera's GEMM rightly refuses an operand sharing memory with C.
  Status update(std::int64_t r0, std::int64_t h, std::int64_t k0, std::int64_t w) const {
    const bool col = layout == Layout::kColMajor;
    const std::int64_t ld = col ? w : n;
    for (std::int64_t j = 0; j < n; ++j) {
      for (std::int64_t i = 0; i < w; ++i) solved[col ? i + j * ld : i * ld + j] = x(k0 + i, j);
    }
    return try_gemm(blas_context(), layout, e_op(), Transpose::kNo, h, n, w, T(-1),
                    e_block(r0, k0), lda, solved, ld, T(1), b + r0 * rs, ldb);
  }

  Status forward() const {  // E lower triangular
    for (std::int64_t k0 = 0; k0 < m; k0 += kBlock) {
      const std::int64_t w = std::min(kBlock, m - k0);
      for (std::int64_t j = 0; j < n; ++j) {
        for (std::int64_t i = k0; i < k0 + w; ++i) {
          T v = x(i, j);
          for (std::int64_t p = k0; p < i; ++p) v -= e(i, p) * x(p, j);
          x(i, j) = unit ? v : v / e(i, i);
        }
      }
      if (k0 + w < m) TESSERA_RETURN_IF_ERROR(update(k0 + w, m - k0 - w, k0, w));
    }
    return {};
  }

  Status backward() const {  // E upper triangular
    for (std::int64_t k1 = m; k1 > 0; k1 -= kBlock) {
      const std::int64_t k0 = std::max<std::int64_t>(0, k1 - kBlock), w = k1 - k0;
      for (std::int64_t j = 0; j < n; ++j) {
        for (std::int64_t i = k1 - 1; i >= k0; --i) {
          T v = x(i, j);
          for (std::int64_t p = i + 1; p < k1; ++p) v -= e(i, p) * x(p, j);
          x(i, j) = unit ? v : v / e(i, i);
        }
      }
      if (k0 > 0) TESSERA_RETURN_IF_ERROR(update(0, k0, k0, w));
    }
    return {};
  }
};

}  // namespace

template <class T>
void trsm_colmajor(const char* routine, char side, char uplo, char trans, char diag,
                   std::int64_t m, std::int64_t n, T alpha, const T* a, std::int64_t lda, T* b,
                   std::int64_t ldb) {
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
  Solve<T> s;
  s.a = a;
  s.lda = lda;
  s.unit = diag == 'U';
  s.ldb = ldb;
  s.b = b;
  if (side == 'L') {
    s.e_trans = trans_a;
    s.rs = 1, s.cs = ldb;
    s.layout = Layout::kColMajor;
    s.m = m, s.n = n;
  } else {
    // op(A)^T X^T = B^T: E = op(A)^T, B^T is n x m, row-major (ld ldb).
    s.e_trans = !trans_a;
    s.rs = ldb, s.cs = 1;
    s.layout = Layout::kRowMajor;
    s.m = n, s.n = m;
  }
  std::unique_ptr<T[]> solved;
  if (s.m > kBlock) {
    solved.reset(new (std::nothrow) T[static_cast<std::size_t>(kBlock * s.n)]);
    if (solved == nullptr) {
      report_failure(routine, Status(StatusCode::kOutOfMemory, "no memory for TRSM's scratch"));
      return;
    }
  }
  s.solved = solved.get();
  // E is lower triangular when A's stored triangle is, unless transposed.
  const bool e_lower = (uplo == 'L') != s.e_trans;
  const Status st = e_lower ? s.forward() : s.backward();
  if (!st.ok()) report_failure(routine, st);
}

template void trsm_colmajor<float>(const char*, char, char, char, char, std::int64_t,
                                   std::int64_t, float, const float*, std::int64_t, float*,
                                   std::int64_t);
template void trsm_colmajor<double>(const char*, char, char, char, char, std::int64_t,
                                    std::int64_t, double, const double*, std::int64_t, double*,
                                    std::int64_t);

}  // namespace tessera::blas
