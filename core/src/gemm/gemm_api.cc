// The public GEMM entry points (plain operands): validate every argument
// (design.md §Bad input), reduce the call to the canonical row-major
// problem, then run it (gemm_call.hpp). Prepacked B: gemm_packed_rhs.cc;
// plans: gemm_plan.cc.
#include "core/src/gemm/gemm_call.hpp"
#include "tessera/gemm.hpp"

namespace tessera {

const char* layout_name(Layout layout) noexcept {
  switch (layout) {
    case Layout::kRowMajor: return "row-major";
    case Layout::kColMajor: return "column-major";
  }
  return "unknown";
}

const char* transpose_name(Transpose trans) noexcept {
  switch (trans) {
    case Transpose::kNo: return "N";
    case Transpose::kYes: return "T";
  }
  return "unknown";
}

const char* bias_kind_name(BiasKind kind) noexcept {
  switch (kind) {
    case BiasKind::kNone: return "none";
    case BiasKind::kPerColumn: return "column";
    case BiasKind::kPerRow: return "row";
  }
  return "unknown";
}

const char* activation_name(Activation act) noexcept {
  switch (act) {
    case Activation::kNone: return "none";
    case Activation::kRelu: return "relu";
    case Activation::kGelu: return "gelu";
    case Activation::kSigmoid: return "sigmoid";
  }
  return "unknown";
}

const char* dtype_name(Dtype dtype) noexcept {
  switch (dtype) {
    case Dtype::kF32: return "f32";
    case Dtype::kF64: return "f64";
  }
  return "unknown";
}

namespace gemm_detail {
namespace {

template <class T>
TESSERA_QUICK_INLINE inline Status gemm_impl(const Context& context, Layout layout,
                                             Transpose ta, Transpose tb, std::int64_t m,
                                             std::int64_t n, std::int64_t k, T alpha, const T* a,
                                             std::int64_t lda, const T* b, std::int64_t ldb,
                                             T beta, T* c, std::int64_t ldc,
                 Parallelism parallelism, const GemmEpilogue<T>* epilogue = nullptr) {
  const detail::ContextState* state = context.state();
  if (state == nullptr) TESSERA_RETURN_IF_ERROR(detail::context_state(context, &state));
  if (!quick_valid(layout, ta, tb, m, n, k, a, lda, b, ldb, c, ldc, parallelism,
                   sizeof(T))) {
    // Something is off (or too large for the quick check): the full checks
    // find it and name it.
    TESSERA_RETURN_IF_ERROR(full_checks(layout, &ta, &tb, m, n, k, a, lda, b, ldb, c, ldc,
                                        parallelism, sizeof(T)));
  }
  core::GemmProblem<T> pr =
      canonical_problem(layout, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
  if (epilogue != nullptr) {
    TESSERA_RETURN_IF_ERROR(check_epilogue(*epilogue, layout, m, n, c, ldc, &pr.epilogue));
  }
  return run_canonical(*state, pr, parallelism, static_cast<const T*>(nullptr),
                       static_cast<const T*>(nullptr));
}

}  // namespace
}  // namespace gemm_detail

Status try_gemm(const Context& context, Layout layout, Transpose trans_a,
                Transpose trans_b, std::int64_t m, std::int64_t n,
                std::int64_t k, float alpha, const float* a, std::int64_t lda,
                const float* b, std::int64_t ldb, float beta, float* c,
                std::int64_t ldc, Parallelism parallelism) {
  return gemm_detail::gemm_impl(context, layout, trans_a, trans_b, m, n, k, alpha, a, lda, b,
                   ldb, beta, c, ldc, parallelism);
}

Status try_gemm(const Context& context, Layout layout, Transpose trans_a,
                Transpose trans_b, std::int64_t m, std::int64_t n,
                std::int64_t k, double alpha, const double* a,
                std::int64_t lda, const double* b, std::int64_t ldb,
                double beta, double* c, std::int64_t ldc,
                Parallelism parallelism) {
  return gemm_detail::gemm_impl(context, layout, trans_a, trans_b, m, n, k, alpha, a, lda, b,
                   ldb, beta, c, ldc, parallelism);
}

Status try_gemm(const Context& context, Layout layout, Transpose trans_a,
                Transpose trans_b, std::int64_t m, std::int64_t n,
                std::int64_t k, float alpha, const float* a, std::int64_t lda,
                const float* b, std::int64_t ldb, float beta, float* c,
                std::int64_t ldc, const GemmEpilogue<float>& epilogue,
                Parallelism parallelism) {
  return gemm_detail::gemm_impl(context, layout, trans_a, trans_b, m, n, k, alpha, a, lda, b,
                                ldb, beta, c, ldc, parallelism, &epilogue);
}

Status try_gemm(const Context& context, Layout layout, Transpose trans_a,
                Transpose trans_b, std::int64_t m, std::int64_t n,
                std::int64_t k, double alpha, const double* a,
                std::int64_t lda, const double* b, std::int64_t ldb,
                double beta, double* c, std::int64_t ldc,
                const GemmEpilogue<double>& epilogue, Parallelism parallelism) {
  return gemm_detail::gemm_impl(context, layout, trans_a, trans_b, m, n, k, alpha, a, lda, b,
                                ldb, beta, c, ldc, parallelism, &epilogue);
}

}  // namespace tessera
