// The GEMM the level-3 routines are written on, for every type: tessera's
// real GEMM for s/d (an input sharing C's address range copied first:
// disjoint.hpp), the 1m complex GEMM (complex_gemm.hpp: A expanded into
// scratch, B read in place unless it shares C's range) for c/z.
// op is 'N', 'T', 'C' (conjugate transpose) or 'R' (conjugate, no
// transpose); on real data conjugation is the identity.
//
// level3_gemm_strided: `batch` such products at element strides (0 shares
// an operand), none of whose C may meet another's or (batch > 1) an
// input's address range: one strided batched call (on complex data, of
// the real GEMM on the entries' 1m operands), whose plan hands whole entries to workers where
// each is too small to split (the bits of each entry are its single
// GEMM's).
#pragma once

#include <cstdint>

#include "blas/src/blas_args.hpp"
#include "blas/src/complex_gemm.hpp"
#include "blas/src/disjoint.hpp"
#include "blas/src/scalar.hpp"
#include "tessera/gemm.hpp"
#include "tessera/gemm_batched.hpp"

namespace tessera::blas {

// The real GEMM's transpose flag for an op (conjugation is the identity).
inline Transpose real_transpose(char op) {
  return op == 'T' || op == 'C' ? Transpose::kYes : Transpose::kNo;
}

template <class T>
Status level3_gemm(Layout layout, char opa, char opb, std::int64_t m, std::int64_t n,
                   std::int64_t k, T alpha, const T* a, std::int64_t lda, const T* b,
                   std::int64_t ldb, T beta, T* c, std::int64_t ldc) {
  if constexpr (kIsComplex<T>) {
    // Row-major C = op(A) op(B) is column-major C^T = op(B)^T op(A)^T,
    // and the transpose of a row-major matrix is the same array
    // column-major: the operands swap, their ops stay.
    if (layout == Layout::kRowMajor) {
      return complex_gemm_colmajor(opb, opa, n, m, k, alpha, b, ldb, a, lda, beta, c, ldc);
    }
    return complex_gemm_colmajor(opa, opb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
  } else {
    return gemm_disjoint(layout, real_transpose(opa), real_transpose(opb), m, n, k, alpha, a, lda,
                         b, ldb, beta, c, ldc);
  }
}

template <class T>
Status level3_gemm_strided(Layout layout, char opa, char opb, std::int64_t m, std::int64_t n,
                           std::int64_t k, T alpha, const T* a, std::int64_t lda,
                           std::int64_t stride_a, const T* b, std::int64_t ldb,
                           std::int64_t stride_b, T beta, T* c, std::int64_t ldc,
                           std::int64_t stride_c, std::int64_t batch) {
  // One product: level3_gemm, which copies an input sharing C's range.
  if (batch == 1) {
    return level3_gemm(layout, opa, opb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
  }
  if constexpr (kIsComplex<T>) {
    if (layout == Layout::kRowMajor) {
      return complex_gemm_colmajor_strided(opb, opa, n, m, k, alpha, b, ldb, stride_b, a, lda,
                                           stride_a, beta, c, ldc, stride_c, batch);
    }
    return complex_gemm_colmajor_strided(opa, opb, m, n, k, alpha, a, lda, stride_a, b, ldb,
                                         stride_b, beta, c, ldc, stride_c, batch);
  } else {
    // A shared operand (stride 0; TRSM's and TRMM's block of the triangle
    // against every chunk of B) is packed once, as the right-hand side,
    // instead of once per entry: C = op(A) op(B) in one layout is C^T =
    // op(B)^T op(A)^T in the other, on the same arrays, so a shared A
    // becomes the right operand there. Same bits (a prepacked operand's
    // products equal the unpacked call's).
    if (stride_a == 0 || stride_b == 0) {
      const Context& context = blas_context();
      const bool flip = stride_b != 0;
      const Layout packed_layout =
          flip ? (layout == Layout::kRowMajor ? Layout::kColMajor : Layout::kRowMajor) : layout;
      PackedRhs packed;
      const Status st = flip ? try_prepack_rhs(context, packed_layout, real_transpose(opa), k, m,
                                               a, lda, &packed)
                             : try_prepack_rhs(context, packed_layout, real_transpose(opb), k, n,
                                               b, ldb, &packed);
      if (st.ok()) {
        return flip ? try_gemm_strided_batched(context, packed_layout, real_transpose(opb), n,
                                               alpha, b, ldb, stride_b, packed, beta, c, ldc,
                                               stride_c, batch)
                    : try_gemm_strided_batched(context, packed_layout, real_transpose(opa), m,
                                               alpha, a, lda, stride_a, packed, beta, c, ldc,
                                               stride_c, batch);
      }
      // No memory for the packed copy: the plain batched call below.
    }
    return try_gemm_strided_batched(blas_context(), layout, real_transpose(opa),
                                    real_transpose(opb), m, n, k, alpha, a, lda, stride_a, b, ldb,
                                    stride_b, beta, c, ldc, stride_c, batch);
  }
}

}  // namespace tessera::blas
