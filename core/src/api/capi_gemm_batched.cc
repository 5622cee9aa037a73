// The C API's batched GEMM (tessera.h, tsr_*gemm_*batched): enum and
// thread-count conversion, then the C++ entry points, which validate.
#include "core/src/api/capi_support.hpp"
#include "tessera/gemm_batched.hpp"

namespace tessera::capi {
namespace {

template <class T>
tsr_status strided_c(const tsr_context* context, tsr_layout layout, tsr_transpose trans_a,
                     tsr_transpose trans_b, int64_t m, int64_t n, int64_t k, T alpha, const T* a,
                     int64_t lda, int64_t stride_a, const T* b, int64_t ldb, int64_t stride_b,
                     T beta, T* c, int64_t ldc, int64_t stride_c, int64_t batch, int threads) {
  Layout l;
  Transpose ta, tb;
  const Status status = gemm_enums_from_c(layout, &trans_a, &trans_b, &l, &ta, &tb);
  if (!status.ok()) return report(status);
  return report(try_gemm_strided_batched(context_of(context), l, ta, tb, m, n, k, alpha,
                                                  a, lda, stride_a, b, ldb, stride_b, beta, c,
                                                  ldc, stride_c, batch,
                                                  parallelism_from_c(threads)));
}

template <class T>
tsr_status arrays_c(const tsr_context* context, tsr_layout layout, tsr_transpose trans_a,
                    tsr_transpose trans_b, int64_t m, int64_t n, int64_t k, T alpha,
                    const T* const* a, int64_t lda, const T* const* b, int64_t ldb, T beta,
                    T* const* c, int64_t ldc, int64_t batch, int threads) {
  Layout l;
  Transpose ta, tb;
  const Status status = gemm_enums_from_c(layout, &trans_a, &trans_b, &l, &ta, &tb);
  if (!status.ok()) return report(status);
  return report(try_gemm_batched(context_of(context), l, ta, tb, m, n, k, alpha, a, lda,
                                          b, ldb, beta, c, ldc, batch,
                                          parallelism_from_c(threads)));
}

template <class T>
tsr_status packed_c(const tsr_context* context, tsr_layout layout, tsr_transpose trans_a,
                    int64_t m, T alpha, const T* a, int64_t lda, int64_t stride_a,
                    const tsr_packed_rhs* b, T beta, T* c, int64_t ldc, int64_t stride_c,
                    int64_t batch, int threads) {
  if (b == nullptr) return report(Status::invalid_argument("b is null"));
  Layout l;
  Transpose ta;
  const Status status = gemm_enums_from_c(layout, &trans_a, nullptr, &l, &ta, nullptr);
  if (!status.ok()) return report(status);
  return report(try_gemm_strided_batched(context_of(context), l, ta, m, alpha, a, lda,
                                                  stride_a, b->packed, beta, c, ldc, stride_c,
                                                  batch, parallelism_from_c(threads)));
}

}  // namespace
}  // namespace tessera::capi

extern "C" {

tsr_status tsr_sgemm_strided_batched(const tsr_context* context, tsr_layout layout,
                                     tsr_transpose trans_a, tsr_transpose trans_b, int64_t m,
                                     int64_t n, int64_t k, float alpha, const float* a,
                                     int64_t lda, int64_t stride_a, const float* b, int64_t ldb,
                                     int64_t stride_b, float beta, float* c, int64_t ldc,
                                     int64_t stride_c, int64_t batch, int threads) {
  return tessera::capi::strided_c(context, layout, trans_a, trans_b, m, n, k, alpha, a, lda,
                                  stride_a, b, ldb, stride_b, beta, c, ldc, stride_c, batch,
                                  threads);
}

tsr_status tsr_dgemm_strided_batched(const tsr_context* context, tsr_layout layout,
                                     tsr_transpose trans_a, tsr_transpose trans_b, int64_t m,
                                     int64_t n, int64_t k, double alpha, const double* a,
                                     int64_t lda, int64_t stride_a, const double* b,
                                     int64_t ldb, int64_t stride_b, double beta, double* c,
                                     int64_t ldc, int64_t stride_c, int64_t batch, int threads) {
  return tessera::capi::strided_c(context, layout, trans_a, trans_b, m, n, k, alpha, a, lda,
                                  stride_a, b, ldb, stride_b, beta, c, ldc, stride_c, batch,
                                  threads);
}

tsr_status tsr_sgemm_batched(const tsr_context* context, tsr_layout layout,
                             tsr_transpose trans_a, tsr_transpose trans_b, int64_t m, int64_t n,
                             int64_t k, float alpha, const float* const* a, int64_t lda,
                             const float* const* b, int64_t ldb, float beta, float* const* c,
                             int64_t ldc, int64_t batch, int threads) {
  return tessera::capi::arrays_c(context, layout, trans_a, trans_b, m, n, k, alpha, a, lda, b, ldb,
                                 beta, c, ldc, batch, threads);
}

tsr_status tsr_dgemm_batched(const tsr_context* context, tsr_layout layout,
                             tsr_transpose trans_a, tsr_transpose trans_b, int64_t m, int64_t n,
                             int64_t k, double alpha, const double* const* a, int64_t lda,
                             const double* const* b, int64_t ldb, double beta,
                             double* const* c, int64_t ldc, int64_t batch, int threads) {
  return tessera::capi::arrays_c(context, layout, trans_a, trans_b, m, n, k, alpha, a, lda, b, ldb,
                                 beta, c, ldc, batch, threads);
}

tsr_status tsr_sgemm_packed_strided_batched(const tsr_context* context, tsr_layout layout,
                                            tsr_transpose trans_a, int64_t m, float alpha,
                                            const float* a, int64_t lda, int64_t stride_a,
                                            const tsr_packed_rhs* b, float beta, float* c,
                                            int64_t ldc, int64_t stride_c, int64_t batch,
                                            int threads) {
  return tessera::capi::packed_c(context, layout, trans_a, m, alpha, a, lda, stride_a, b, beta, c,
                                 ldc, stride_c, batch, threads);
}

tsr_status tsr_dgemm_packed_strided_batched(const tsr_context* context, tsr_layout layout,
                                            tsr_transpose trans_a, int64_t m, double alpha,
                                            const double* a, int64_t lda, int64_t stride_a,
                                            const tsr_packed_rhs* b, double beta, double* c,
                                            int64_t ldc, int64_t stride_c, int64_t batch,
                                            int threads) {
  return tessera::capi::packed_c(context, layout, trans_a, m, alpha, a, lda, stride_a, b, beta, c,
                                 ldc, stride_c, batch, threads);
}

}  // extern "C"
