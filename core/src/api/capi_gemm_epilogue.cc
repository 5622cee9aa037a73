// The C API's GEMM with a fused epilogue (tessera.h, tsr_*gemm_ex): enum
// conversion (range-checked before narrowing, so 256 is an error and not
// "none"), then the C++ entry point, which validates the rest.
#include <string>

#include "core/src/api/capi_support.hpp"
#include "tessera/gemm.hpp"

namespace tessera::capi {
namespace {

template <class T>
tsr_status gemm_ex_c(const tsr_context* context, tsr_layout layout, tsr_transpose trans_a,
                     tsr_transpose trans_b, int64_t m, int64_t n, int64_t k, T alpha, const T* a,
                     int64_t lda, const T* b, int64_t ldb, T beta, T* c, int64_t ldc,
                     const T* bias, tsr_bias_kind bias_kind, tsr_activation activation,
                     int threads) {
  Layout l;
  Transpose ta, tb;
  const Status status = gemm_enums_from_c(layout, &trans_a, &trans_b, &l, &ta, &tb);
  if (!status.ok()) return report(status);
  const long long kind = static_cast<long long>(bias_kind);
  const long long act = static_cast<long long>(activation);
  if (kind < 0 || kind > 2) {
    return report(Status::invalid_argument(
        "bias_kind is not a tsr_bias_kind value (got " + std::to_string(kind) + ")"));
  }
  if (act < 0 || act > 3) {
    return report(Status::invalid_argument(
        "activation is not a tsr_activation value (got " + std::to_string(act) + ")"));
  }
  GemmEpilogue<T> epilogue;
  epilogue.bias = bias;
  epilogue.bias_kind = static_cast<BiasKind>(kind);
  epilogue.activation = static_cast<Activation>(act);
  return report(try_gemm(context_of(context), l, ta, tb, m, n, k, alpha, a, lda, b,
                                  ldb, beta, c, ldc, epilogue, parallelism_from_c(threads)));
}

}  // namespace
}  // namespace tessera::capi

extern "C" {

tsr_status tsr_sgemm_ex(const tsr_context* context, tsr_layout layout, tsr_transpose trans_a,
                        tsr_transpose trans_b, int64_t m, int64_t n, int64_t k, float alpha,
                        const float* a, int64_t lda, const float* b, int64_t ldb, float beta,
                        float* c, int64_t ldc, const float* bias, tsr_bias_kind bias_kind,
                        tsr_activation activation, int threads) {
  return tessera::capi::gemm_ex_c(context, layout, trans_a, trans_b, m, n, k, alpha, a, lda, b, ldb,
                                  beta, c, ldc, bias, bias_kind, activation, threads);
}

tsr_status tsr_dgemm_ex(const tsr_context* context, tsr_layout layout, tsr_transpose trans_a,
                        tsr_transpose trans_b, int64_t m, int64_t n, int64_t k, double alpha,
                        const double* a, int64_t lda, const double* b, int64_t ldb,
                        double beta, double* c, int64_t ldc, const double* bias,
                        tsr_bias_kind bias_kind, tsr_activation activation, int threads) {
  return tessera::capi::gemm_ex_c(context, layout, trans_a, trans_b, m, n, k, alpha, a, lda, b, ldb,
                                  beta, c, ldc, bias, bias_kind, activation, threads);
}

}  // extern "C"
