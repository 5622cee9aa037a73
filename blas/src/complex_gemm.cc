#include "blas/src/complex_gemm.hpp"

#include <algorithm>
#include <cstddef>
#include <memory>
#include <new>

#include "blas/src/blas_args.hpp"
#include "blas/src/level3_gemm.hpp"
#include "blas/src/scalar.hpp"
#include "tessera/gemm.hpp"
#include "tessera/gemm_batched.hpp"

namespace tessera::blas {
namespace {

// The complex GEMM's scratch, kept per calling thread between calls up to
// kKeptBytes: a fresh allocation of that size is a fresh mapping whose
// pages fault in on first touch, and a std::vector also zero-filled it.
// Measured on Zen 4, one thread, against OpenBLAS side by side: zgemm 200^3
// 0.48x -> 0.89x, 1000^3 0.78x -> 1.01x, cgemm 1000^3 0.90x -> 1.00x. Not
// zero-filled (every element is written before it is read). A nested or
// larger call gets its own allocation, freed when it returns.
constexpr std::size_t kKeptBytes = std::size_t{64} << 20;
constexpr std::int64_t kRunBytes = std::int64_t{4} << 20;

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

// The real and imaginary parts of op(X) (rows x cols, column-major with
// leading dimension ld: X itself for 'N', its conjugate for 'R', its
// transpose for 'T', its conjugate transpose for 'C'), written as two row blocks of `out`:
// real parts in rows [0, rows), imaginary parts in rows [rows, 2 rows) of
// a 2 rows x cols column-major matrix (stack_rows), or as two column
// blocks of a rows x 2 cols one (!stack_rows).
template <class R>
void split_parts(char trans, std::int64_t rows, std::int64_t cols, const std::complex<R>* x,
                 std::int64_t ld, bool stack_rows, R* out) {
  const R sign = trans == 'C' || trans == 'R' ? R(-1) : R(1);
  const std::int64_t out_ld = stack_rows ? 2 * rows : rows;
  const std::int64_t imag_offset = stack_rows ? rows : rows * cols;
  for (std::int64_t j = 0; j < cols; ++j) {
    R* re = out + j * out_ld;
    R* im = re + imag_offset;
    if (trans == 'N' || trans == 'R') {
      const std::complex<R>* column = x + j * ld;
      for (std::int64_t i = 0; i < rows; ++i) {
        re[i] = column[i].real();
        im[i] = sign * column[i].imag();
      }
    } else {
      // Element (i, j) of op(X) is X(j, i): row j of X, read along it.
      for (std::int64_t i = 0; i < rows; ++i) {
        const std::complex<R> v = x[j + i * ld];
        re[i] = v.real();
        im[i] = sign * v.imag();
      }
    }
  }
}

}  // namespace

template <class R>
Status complex_gemm_colmajor_strided(char transa, char transb, std::int64_t m, std::int64_t n,
                                     std::int64_t k, std::complex<R> alpha,
                                     const std::complex<R>* a, std::int64_t lda,
                                     std::int64_t stride_a, const std::complex<R>* b,
                                     std::int64_t ldb, std::int64_t stride_b,
                                     std::complex<R> beta, std::complex<R>* c, std::int64_t ldc,
                                     std::int64_t stride_c, std::int64_t batch) {
  using C = std::complex<R>;
  if (batch == 0 || m == 0 || n == 0 || ((alpha == C(0) || k == 0) && beta == C(1))) return {};
  // Entries in runs whose parts and products fit in kRunBytes (at least
  // two, for two workers): splitting every entry before multiplying any
  // would send the parts to memory and back. Measured on Zen 4, one thread,
  // against OpenBLAS side by side, n = 1000 (SYRK's batched blocks of 32 x
  // 32 x 1000): one run of all 31 diagonal blocks (33 MB of parts) cherk
  // 0.73x, zherk 0.90x; runs of 4 MiB 0.78x, 0.96x.
  const std::int64_t entry_bytes =
      ((stride_a == 0 ? 0 : 2 * m * k) + (stride_b == 0 ? 0 : 2 * k * n) + 4 * m * n) *
      static_cast<std::int64_t>(sizeof(R));
  const std::int64_t run = std::max<std::int64_t>(2, kRunBytes / entry_bytes);
  if (batch > run) {
    for (std::int64_t e0 = 0; e0 < batch; e0 += run) {
      TESSERA_RETURN_IF_ERROR(complex_gemm_colmajor_strided(
          transa, transb, m, n, k, alpha, a + e0 * stride_a, lda, stride_a, b + e0 * stride_b, ldb,
          stride_b, beta, c + e0 * stride_c, ldc, stride_c, std::min(run, batch - e0)));
    }
    return {};
  }
  if (alpha == C(0) || k == 0) {
    for (std::int64_t e = 0; e < batch; ++e) {
      for (std::int64_t j = 0; j < n; ++j) {
        C* column = c + e * stride_c + j * ldc;
        for (std::int64_t i = 0; i < m; ++i) column[i] = beta == C(0) ? C(0) : beta * column[i];
      }
    }
    return {};
  }
  // A shared operand (stride 0) is split once.
  const std::int64_t a_count = stride_a == 0 ? 1 : batch, b_count = stride_b == 0 ? 1 : batch;
  const std::int64_t a_size = 2 * m * k, b_size = 2 * k * n, p_size = 4 * m * n;
  ScratchLease<R> scratch(
      static_cast<std::size_t>(a_size * a_count + b_size * b_count + p_size * batch));
  if (scratch.data() == nullptr) {
    return Status(StatusCode::kOutOfMemory,
                  "no memory for the complex GEMM's scratch (the parts of A and B, and the "
                  "four real products)");
  }
  R* const a_parts = scratch.data();
  R* const b_parts = a_parts + a_size * a_count;
  R* const product = b_parts + b_size * b_count;
  for (std::int64_t e = 0; e < a_count; ++e) {
    split_parts(transa, m, k, a + e * stride_a, lda, /*stack_rows=*/true, a_parts + e * a_size);
  }
  for (std::int64_t e = 0; e < b_count; ++e) {
    split_parts(transb, k, n, b + e * stride_b, ldb, /*stack_rows=*/false, b_parts + e * b_size);
  }
  // [Ar; Ai] (2m x k) times [Br Bi] (k x 2n): product is 2m x 2n. Several
  // entries go as one batched call, whose plan may hand whole entries to
  // workers (each entry's bits are its single GEMM's either way).
  if (batch == 1) {
    TESSERA_RETURN_IF_ERROR(try_gemm(blas_context(), Layout::kColMajor, Transpose::kNo,
                                     Transpose::kNo, 2 * m, 2 * n, k, R(1), a_parts, 2 * m,
                                     b_parts, k, R(0), product, 2 * m));
  } else {
    // level3_gemm_strided packs a shared part once (stride 0).
    TESSERA_RETURN_IF_ERROR(level3_gemm_strided<R>(
        Layout::kColMajor, 'N', 'N', 2 * m, 2 * n, k, R(1), a_parts, 2 * m,
        a_count == 1 ? 0 : a_size, b_parts, k, b_count == 1 ? 0 : b_size, R(0), product, 2 * m,
        p_size, batch));
  }
  const std::int64_t ld = 2 * m;
  for (std::int64_t e = 0; e < batch; ++e) {
    const R* entry = product + e * p_size;
    for (std::int64_t j = 0; j < n; ++j) {
      const R* rr = entry + j * ld;        // Ar Br, column j
      const R* ir = rr + m;                // Ai Br
      const R* ri = entry + (j + n) * ld;  // Ar Bi
      const R* ii = ri + m;                // Ai Bi
      C* column = c + e * stride_c + j * ldc;
      if (beta == C(0)) {
        for (std::int64_t i = 0; i < m; ++i) column[i] = alpha * C(rr[i] - ii[i], ri[i] + ir[i]);
      } else {
        for (std::int64_t i = 0; i < m; ++i) {
          column[i] = alpha * C(rr[i] - ii[i], ri[i] + ir[i]) + beta * column[i];
        }
      }
    }
  }
  return {};
}

template <class R>
Status complex_gemm_colmajor(char transa, char transb, std::int64_t m, std::int64_t n,
                             std::int64_t k, std::complex<R> alpha, const std::complex<R>* a,
                             std::int64_t lda, const std::complex<R>* b, std::int64_t ldb,
                             std::complex<R> beta, std::complex<R>* c, std::int64_t ldc) {
  return complex_gemm_colmajor_strided(transa, transb, m, n, k, alpha, a, lda, 0, b, ldb, 0, beta,
                                       c, ldc, 0, 1);
}

template Status complex_gemm_colmajor<float>(char, char, std::int64_t, std::int64_t,
                                             std::int64_t, c32, const c32*, std::int64_t,
                                             const c32*, std::int64_t, c32, c32*, std::int64_t);
template Status complex_gemm_colmajor<double>(char, char, std::int64_t, std::int64_t,
                                              std::int64_t, c64, const c64*, std::int64_t,
                                              const c64*, std::int64_t, c64, c64*, std::int64_t);
template Status complex_gemm_colmajor_strided<float>(char, char, std::int64_t, std::int64_t,
                                                     std::int64_t, c32, const c32*, std::int64_t,
                                                     std::int64_t, const c32*, std::int64_t,
                                                     std::int64_t, c32, c32*, std::int64_t,
                                                     std::int64_t, std::int64_t);
template Status complex_gemm_colmajor_strided<double>(char, char, std::int64_t, std::int64_t,
                                                      std::int64_t, c64, const c64*, std::int64_t,
                                                      std::int64_t, const c64*, std::int64_t,
                                                      std::int64_t, c64, c64*, std::int64_t,
                                                      std::int64_t, std::int64_t);

}  // namespace tessera::blas
