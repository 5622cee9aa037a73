#include "blas/src/complex_gemm.hpp"

#include <algorithm>
#include <cstddef>
#include <string>

#include "blas/src/blas_args.hpp"
#include "blas/src/complex_1m.hpp"
#include "blas/src/disjoint.hpp"
#include "blas/src/level3_gemm.hpp"
#include "blas/src/scalar.hpp"
#include "tessera/gemm.hpp"
#include "tessera/gemm_batched.hpp"

namespace tessera::blas {
namespace {

constexpr std::int64_t kRunBytes = std::int64_t{4} << 20;

// The bytes from the first entry's first element to the last entry's end
// (strides are not negative).
template <class T>
Footprint batch_footprint(std::int64_t rows, std::int64_t cols, std::int64_t ld,
                          std::int64_t stride, std::int64_t batch, const T* p) {
  const Footprint first = matrix_footprint(Layout::kColMajor, rows, cols, ld, p);
  const std::int64_t step = stride * (batch - 1) * static_cast<std::int64_t>(sizeof(T));
  return {first.begin, first.end + static_cast<std::uintptr_t>(step)};
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
  if (alpha == C(0) || k == 0) {
    scale_blocks(m, n, beta, c, ldc, stride_c, batch);
    return {};
  }
  // B is read in place, as the 2k x n real matrix its array already is,
  // unless it must be transposed or it shares C's bytes (the real GEMM
  // refuses such an input; one product copies it through gemm_disjoint).
  const bool b_in_place =
      (transb == 'N' || transb == 'R') &&
      (batch == 1 || !overlap(batch_footprint(k, n, ldb, stride_b, batch, b),
                              batch_footprint(m, n, ldc, stride_c, batch, c)));
  // Entries in runs whose scratch and C fit in kRunBytes (at least two, for
  // two workers): expanding every entry before multiplying any would send
  // the expansions to memory and back. Measured on Zen 4 with the 4m
  // method's parts, one thread, against OpenBLAS side by side, n = 1000
  // (SYRK's batched blocks of 32 x 32 x 1000): one run of all 31 diagonal
  // blocks cherk 0.73x, zherk 0.90x; runs of 4 MiB 0.78x, 0.96x.
  const std::int64_t a_size = 4 * m * k, b_size = b_in_place ? 0 : 2 * k * n;
  const std::int64_t entry_bytes =
      ((stride_a == 0 ? 0 : a_size) + (stride_b == 0 ? 0 : b_size) + 2 * m * n) *
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
  // A shared operand (stride 0) is expanded or copied once.
  const std::int64_t a_count = stride_a == 0 ? 1 : batch, b_count = stride_b == 0 ? 1 : batch;
  ScratchLease<R> scratch(static_cast<std::size_t>(a_size * a_count + b_size * b_count));
  if (scratch.data() == nullptr) {
    return Status(StatusCode::kOutOfMemory,
                  "no memory for the complex GEMM's scratch (A expanded to real 2 x 2 blocks" +
                      std::string(b_in_place ? ")" : ", and a compact op(B))"));
  }
  // A real alpha is the real GEMM's; another is folded into the expansion.
  const bool fold_alpha = alpha.imag() != R(0);
  const R b_sign = b_in_place && transb == 'R' ? R(-1) : R(1);
  R* const a_parts = scratch.data();
  for (std::int64_t e = 0; e < a_count; ++e) {
    expand_left(transa, m, k, a + e * stride_a, lda, fold_alpha, alpha, b_sign,
                a_parts + e * a_size, 2 * m);
  }
  const R* b_real = reinterpret_cast<const R*>(b);
  std::int64_t b_ld = 2 * ldb, b_stride = 2 * stride_b;
  if (!b_in_place) {
    R* const b_parts = a_parts + a_size * a_count;
    for (std::int64_t e = 0; e < b_count; ++e) {
      compact_right(transb, k, n, b + e * stride_b, ldb, b_parts + e * b_size);
    }
    b_real = b_parts;
    b_ld = 2 * k;
    b_stride = b_count == 1 ? 0 : b_size;
  }
  const R real_beta = real_beta_scaling_c(beta, m, n, c, ldc, stride_c, batch);
  // C, read as the 2m x n real matrix of its interleaved parts, is written
  // by the real GEMM directly. level3_gemm_strided packs a shared operand
  // once (stride 0); one product goes through gemm_disjoint.
  return level3_gemm_strided<R>(Layout::kColMajor, 'N', 'N', 2 * m, n, 2 * k,
                                fold_alpha ? R(1) : alpha.real(), a_parts, 2 * m,
                                a_count == 1 ? 0 : a_size, b_real, b_ld, b_stride, real_beta,
                                reinterpret_cast<R*>(c), 2 * ldc, 2 * stride_c, batch);
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
