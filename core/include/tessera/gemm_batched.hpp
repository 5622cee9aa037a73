// Batched GEMM: C_i <- alpha * op(A_i) * op(B_i) + beta * C_i for
// i < batch, every entry with the same m, n, k, transposes, alpha, beta,
// layout and leading dimensions (design.md §Batch plan).
//
// Forms:
//   strided        A_i = a + i*stride_a (likewise B, C), strides in
//                  elements; stride_a or stride_b 0 shares one operand
//                  over the batch (stride_c must not be smaller than one C
//                  matrix's span unless batch <= 1)
//   pointer array  A_i = a[i], B_i = b[i], C_i = c[i]
//   prepacked B    one PackedRhs applied to every A_i (the inference case)
//
// Validation (design.md §Bad input), before anything is written: all of
// single gemm's checks (tessera/gemm.hpp), batch < 0, negative strides,
// null pointer arrays or entries, and any C entry sharing a byte with
// another C entry or with any input entry; errors name the argument (and
// the entry).
//
// Threading and reproducibility: the batch plan decides between running the
// entries in order (each GEMM using the pool) and handing whole entries to
// workers (each GEMM serial). Every entry runs single gemm's arithmetic,
// whose bits do not depend on its worker count, so each C_i is bit-for-bit
// what try_gemm gives for that entry, for every worker count and plan.
#pragma once

#include <cstdint>
#include <string>

#include "tessera/gemm.hpp"
#include "tessera/platform/build_config.h"  // TESSERA_CXX_API_BEGIN

TESSERA_CXX_API_BEGIN
namespace tessera {

// What a batched gemm call on this context would do with its participants,
// and why (pure: nothing runs). kind: "serial", "batch_parallel" (whole
// entries per worker, each serial) or "sequential_internal" (entries in
// order, each using up to `workers`).
struct GemmBatchedPlan {
  std::string kind;
  int workers = 1;
  std::string reason;
  std::string to_string() const;  // "batch_parallel(2): 1000 elements of ..."
};
Status try_plan_gemm_batched(const Context& context, Dtype dtype, std::int64_t batch,
                             std::int64_t m, std::int64_t n, std::int64_t k,
                             Parallelism parallelism, GemmBatchedPlan* out);

Status try_gemm_strided_batched(const Context& context, Layout layout, Transpose trans_a,
                                Transpose trans_b, std::int64_t m, std::int64_t n,
                                std::int64_t k, float alpha, const float* a, std::int64_t lda,
                                std::int64_t stride_a, const float* b, std::int64_t ldb,
                                std::int64_t stride_b, float beta, float* c, std::int64_t ldc,
                                std::int64_t stride_c, std::int64_t batch,
                                Parallelism parallelism = {});
Status try_gemm_strided_batched(const Context& context, Layout layout, Transpose trans_a,
                                Transpose trans_b, std::int64_t m, std::int64_t n,
                                std::int64_t k, double alpha, const double* a, std::int64_t lda,
                                std::int64_t stride_a, const double* b, std::int64_t ldb,
                                std::int64_t stride_b, double beta, double* c, std::int64_t ldc,
                                std::int64_t stride_c, std::int64_t batch,
                                Parallelism parallelism = {});

Status try_gemm_batched(const Context& context, Layout layout, Transpose trans_a,
                        Transpose trans_b, std::int64_t m, std::int64_t n, std::int64_t k,
                        float alpha, const float* const* a, std::int64_t lda,
                        const float* const* b, std::int64_t ldb, float beta, float* const* c,
                        std::int64_t ldc, std::int64_t batch, Parallelism parallelism = {});
Status try_gemm_batched(const Context& context, Layout layout, Transpose trans_a,
                        Transpose trans_b, std::int64_t m, std::int64_t n, std::int64_t k,
                        double alpha, const double* const* a, std::int64_t lda,
                        const double* const* b, std::int64_t ldb, double beta,
                        double* const* c, std::int64_t ldc, std::int64_t batch,
                        Parallelism parallelism = {});

// Prepacked op(B) shared by the batch: n and k come from `b`, the layout,
// dtype and context rules are those of single gemm with a PackedRhs.
Status try_gemm_strided_batched(const Context& context, Layout layout, Transpose trans_a,
                                std::int64_t m, float alpha, const float* a, std::int64_t lda,
                                std::int64_t stride_a, const PackedRhs& b, float beta, float* c,
                                std::int64_t ldc, std::int64_t stride_c, std::int64_t batch,
                                Parallelism parallelism = {});
Status try_gemm_strided_batched(const Context& context, Layout layout, Transpose trans_a,
                                std::int64_t m, double alpha, const double* a, std::int64_t lda,
                                std::int64_t stride_a, const PackedRhs& b, double beta,
                                double* c, std::int64_t ldc, std::int64_t stride_c,
                                std::int64_t batch, Parallelism parallelism = {});

#if TESSERA_HAS_EXCEPTIONS
// Throwing forms (tessera::Error carries the Status).
template <class T>
inline void gemm_strided_batched(const Context& context, Layout layout, Transpose trans_a,
                                 Transpose trans_b, std::int64_t m, std::int64_t n,
                                 std::int64_t k, T alpha, const T* a, std::int64_t lda,
                                 std::int64_t stride_a, const T* b, std::int64_t ldb,
                                 std::int64_t stride_b, T beta, T* c, std::int64_t ldc,
                                 std::int64_t stride_c, std::int64_t batch,
                                 Parallelism parallelism = {}) {
  throw_if_error(try_gemm_strided_batched(context, layout, trans_a, trans_b, m, n, k, alpha, a,
                                          lda, stride_a, b, ldb, stride_b, beta, c, ldc,
                                          stride_c, batch, parallelism));
}
template <class T>
inline void gemm_batched(const Context& context, Layout layout, Transpose trans_a,
                         Transpose trans_b, std::int64_t m, std::int64_t n, std::int64_t k,
                         T alpha, const T* const* a, std::int64_t lda, const T* const* b,
                         std::int64_t ldb, T beta, T* const* c, std::int64_t ldc,
                         std::int64_t batch, Parallelism parallelism = {}) {
  throw_if_error(try_gemm_batched(context, layout, trans_a, trans_b, m, n, k, alpha, a, lda, b,
                                  ldb, beta, c, ldc, batch, parallelism));
}
template <class T>
inline void gemm_strided_batched(const Context& context, Layout layout, Transpose trans_a,
                                 std::int64_t m, T alpha, const T* a, std::int64_t lda,
                                 std::int64_t stride_a, const PackedRhs& b, T beta, T* c,
                                 std::int64_t ldc, std::int64_t stride_c, std::int64_t batch,
                                 Parallelism parallelism = {}) {
  throw_if_error(try_gemm_strided_batched(context, layout, trans_a, m, alpha, a, lda, stride_a,
                                          b, beta, c, ldc, stride_c, batch, parallelism));
}
#endif

}  // namespace tessera
TESSERA_CXX_API_END
