// The 1m method's operands (complex_gemm.hpp has the method): a complex
// product C = u op(B), u = alpha op(A), is the real product
//
//   C as reals (2m x n) = left (2m x 2k) x right (2k x n),
//
// left holding each element of u as the 2 x 2 block [ur, -s ui; ui, s ur]
// and right op(B) as reals (a column-major complex matrix read as reals is
// its parts interleaved down each column), s = -1 where right holds B
// unconjugated for an op that conjugates it. Rows [r, r + h) of op(A) are
// rows [2r, 2r + 2h) of left and columns [c, c + w) of op(B) columns
// [c, c + w) of right, so one preparation serves every block product
// (Complex1mOperands: SYRK's and SYR2K's tree of blocks).
#pragma once

#include <algorithm>
#include <complex>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>

#include "blas/src/level3_gemm.hpp"

namespace tessera::blas {

// Scratch of the complex products, kept per calling thread between calls
// up to kKeptBytes: a fresh allocation of that size is a fresh mapping
// whose pages fault in on first touch, and a std::vector also zero-filled
// it. Measured on Zen 4, one thread, against OpenBLAS side by side (the 4m
// method's parts): zgemm 200^3 0.48x -> 0.89x, 1000^3 0.78x -> 1.01x,
// cgemm 1000^3 0.90x -> 1.00x. Not zero-filled (every element is written
// before it is read). A nested or larger lease gets its own allocation,
// freed when it ends; data() is null where there is no memory.
inline constexpr std::size_t kKeptBytes = std::size_t{64} << 20;

template <class R>
class ScratchLease {
 public:
  explicit ScratchLease(std::size_t elements) {
    Kept& kept = kept_buffer();
    if (!kept.in_use && elements * sizeof(R) <= kKeptBytes) {
      if (kept.capacity < elements) {
        kept.buffer.reset(new (std::nothrow) R[elements]);
        kept.capacity = kept.buffer != nullptr ? elements : 0;
      }
      if (kept.buffer != nullptr) {
        kept.in_use = true;
        data_ = kept.buffer.get();
        leased_ = true;
        return;
      }
    }
    own_.reset(new (std::nothrow) R[elements]);
    data_ = own_.get();
  }
  ~ScratchLease() {
    if (leased_) kept_buffer().in_use = false;
  }
  ScratchLease(const ScratchLease&) = delete;
  ScratchLease& operator=(const ScratchLease&) = delete;
  R* data() const { return data_; }

 private:
  struct Kept {
    std::unique_ptr<R[]> buffer;
    std::size_t capacity = 0;
    bool in_use = false;
  };
  static Kept& kept_buffer() {
    thread_local Kept kept;
    return kept;
  }
  std::unique_ptr<R[]> own_;
  R* data_ = nullptr;
  bool leased_ = false;
};

// Columns of op(X) gathered together from a transposed X: one cache line
// of X's rows feeds this many output columns.
inline constexpr std::int64_t kGatherColumns = 8;

// Element (i, j) of op(X) (rows x cols), X column-major with leading
// dimension ld: X itself for 'N', its conjugate for 'R', its transpose for
// 'T', its conjugate transpose for 'C'. A transposed op is gathered
// kGatherColumns columns at a time (X's rows read along them), the others
// a column at a time; visit(i, j, value) sees each element once.
template <class R, class Visit>
void for_each_op_element(char trans, std::int64_t rows, std::int64_t cols,
                         const std::complex<R>* x, std::int64_t ld, const Visit& visit) {
  const bool conjugate = trans == 'C' || trans == 'R';
  const auto value = [conjugate](std::complex<R> v) { return conjugate ? std::conj(v) : v; };
  if (trans == 'N' || trans == 'R') {
    for (std::int64_t j = 0; j < cols; ++j) {
      const std::complex<R>* column = x + j * ld;
      for (std::int64_t i = 0; i < rows; ++i) visit(i, j, value(column[i]));
    }
    return;
  }
  for (std::int64_t j0 = 0; j0 < cols; j0 += kGatherColumns) {
    const std::int64_t w = std::min(kGatherColumns, cols - j0);
    for (std::int64_t i = 0; i < rows; ++i) {
      const std::complex<R>* row = x + j0 + i * ld;  // op(X)(i, j0..) = X(j0.., i)
      for (std::int64_t jj = 0; jj < w; ++jj) visit(i, j0 + jj, value(row[jj]));
    }
  }
}

// left for u = scale op(A) (m x k; scale applied only when fold), into out
// (2m x 2k, column-major, leading dimension ld >= 2m).
template <class R>
void expand_left(char trans, std::int64_t m, std::int64_t k, const std::complex<R>* a,
                 std::int64_t lda, bool fold, std::complex<R> scale, R s, R* out,
                 std::int64_t ld) {
  for_each_op_element(trans, m, k, a, lda, [&](std::int64_t p, std::int64_t q, std::complex<R> v) {
    const std::complex<R> u = fold ? scale * v : v;
    R* first = out + 2 * q * ld + 2 * p;  // column 2q, rows 2p and 2p + 1
    R* second = first + ld;               // column 2q + 1
    first[0] = u.real();
    first[1] = u.imag();
    second[0] = -s * u.imag();
    second[1] = s * u.real();
  });
}

// right for op(B) (k x n), conjugation applied, into a compact 2k x n.
template <class R>
void compact_right(char trans, std::int64_t k, std::int64_t n, const std::complex<R>* b,
                   std::int64_t ldb, R* out) {
  for_each_op_element(trans, k, n, b, ldb, [&](std::int64_t q, std::int64_t j, std::complex<R> v) {
    out[j * 2 * k + 2 * q] = v.real();
    out[j * 2 * k + 2 * q + 1] = v.imag();
  });
}

// C = beta C on `count` m x n blocks `stride` apart.
template <class R>
void scale_blocks(std::int64_t m, std::int64_t n, std::complex<R> beta, std::complex<R>* c,
                  std::int64_t ldc, std::int64_t stride, std::int64_t count) {
  for (std::int64_t e = 0; e < count; ++e) {
    for (std::int64_t j = 0; j < n; ++j) {
      std::complex<R>* column = c + e * stride + j * ldc;
      for (std::int64_t i = 0; i < m; ++i) {
        column[i] = beta == std::complex<R>(0) ? std::complex<R>(0) : beta * column[i];
      }
    }
  }
}

// beta for the real GEMM that adds into `count` m x n blocks of C: a beta
// with an imaginary part scales C first, and the GEMM then adds (1).
template <class R>
R real_beta_scaling_c(std::complex<R> beta, std::int64_t m, std::int64_t n, std::complex<R>* c,
                      std::int64_t ldc, std::int64_t stride, std::int64_t count) {
  if (beta.imag() == R(0)) return beta.real();
  scale_blocks(m, n, beta, c, ldc, stride, count);
  return R(1);
}

// alpha op(A) (m x k) and op(B) (k x n) prepared once as 1m's left and
// right, for products of their blocks. op(B) = B or conj(B) is read in
// place (the caller keeps B apart from every C it writes); a transposed
// op(B) is copied. A complex alpha is folded into left, a real one is the
// real GEMM's.
template <class R>
class Complex1mOperands {
 public:
  // The scratch prepare() writes for these ops and shape, in elements.
  static std::int64_t elements(char transb, std::int64_t m, std::int64_t n, std::int64_t k) {
    return 4 * m * k + (in_place(transb) ? 0 : 2 * k * n);
  }

  // Writes left (and a transposed right) into `storage`, elements() long;
  // it must outlive the products.
  void prepare(R* storage, char transa, char transb, std::int64_t m, std::int64_t n,
               std::int64_t k, std::complex<R> alpha, const std::complex<R>* a,
               std::int64_t lda, const std::complex<R>* b, std::int64_t ldb) {
    left_ = storage;
    m_ = m, k_ = k;
    const bool fold = alpha.imag() != R(0);
    alpha_ = fold ? R(1) : alpha.real();
    const R sign = transb == 'R' ? R(-1) : R(1);
    expand_left(transa, m, k, a, lda, fold, alpha, sign, storage, 2 * m);
    if (in_place(transb)) {
      right_ = reinterpret_cast<const R*>(b);
      right_ld_ = 2 * ldb;
    } else {
      R* right = storage + 4 * m * k;
      compact_right(transb, k, n, b, ldb, right);
      right_ = right;
      right_ld_ = 2 * k;
    }
  }

  // C's `part` triangle (C square, prepared with m == n) = P + beta C, the
  // rest of C neither read nor written: one triangle GEMM on the reals, whose
  // complex rows are pairs of real rows (row_group 2). A beta with an
  // imaginary part scales the triangle first (`scale_first`).
  template <class ScaleTriangle>
  Status multiply_triangle(Triangle part, std::complex<R> beta, std::complex<R>* c,
                           std::int64_t ldc, const ScaleTriangle& scale_first) const {
    R real_beta = beta.real();
    if (beta.imag() != R(0)) {
      scale_first();
      real_beta = R(1);
    }
    return try_gemm_triangle(blas_context(), Layout::kColMajor, Transpose::kNo, Transpose::kNo,
                             2 * m_, m_, 2 * k_, alpha_, left_, 2 * m_, right_, right_ld_,
                             real_beta, reinterpret_cast<R*>(c), 2 * ldc,
                             GemmTriangle{part, 2});
  }

  // `count` blocks: entry e is C_e = P[r0 + e rstep, +h) x [c0 + e cstep,
  // +w) + beta C_e, P = alpha op(A) op(B), C_e at c + e c_stride (leading
  // dimension ldc); the C_e meet neither each other nor B.
  Status multiply(std::int64_t r0, std::int64_t h, std::int64_t c0, std::int64_t w,
                  std::int64_t count, std::int64_t rstep, std::int64_t cstep,
                  std::complex<R> beta, std::complex<R>* c, std::int64_t ldc,
                  std::int64_t c_stride) const {
    const R real_beta = real_beta_scaling_c(beta, h, w, c, ldc, c_stride, count);
    return level3_gemm_strided<R>(Layout::kColMajor, 'N', 'N', 2 * h, w, 2 * k_, alpha_,
                                  left_ + 2 * r0, 2 * m_, 2 * rstep, right_ + c0 * right_ld_,
                                  right_ld_, cstep * right_ld_, real_beta,
                                  reinterpret_cast<R*>(c), 2 * ldc, 2 * c_stride, count);
  }

 private:
  static bool in_place(char transb) { return transb == 'N' || transb == 'R'; }
  const R* left_ = nullptr;
  const R* right_ = nullptr;
  std::int64_t right_ld_ = 0, m_ = 0, k_ = 0;
  R alpha_ = R(1);
};

}  // namespace tessera::blas
