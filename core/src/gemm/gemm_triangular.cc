// try_gemm_triangular: a triangular left operand (tessera/gemm.hpp). The
// canonical problem runs on the packed driver with a GemmTriangularOperand
// (run_gemm: the triangular side's panels get their zeros and unit
// diagonal as they are packed, and each register tile multiplies only the
// depths its rows or columns use); the naive family multiplies a dense
// copy of the triangle. The direct path has no such mask, so these calls
// always take the packed path.
#include <memory>
#include <new>

#include "core/src/gemm/gemm_call.hpp"
#include "core/src/gemm/gemm_packed_rhs.hpp"
#include "tessera/gemm.hpp"

namespace tessera {
namespace gemm_detail {
namespace {

Status check_triangular(TriangularOperand triangular, std::int64_t m) {
  if (triangular.part != Triangle::kLower && triangular.part != Triangle::kUpper) {
    return Status::invalid_argument("triangular.part is not a Triangle value (got " +
                                    std::to_string(static_cast<unsigned>(triangular.part)) +
                                    ")");
  }
  if (triangular.group < 1 || m % triangular.group != 0) {
    return Status::invalid_argument("triangular.group = " + std::to_string(triangular.group) +
                                    (triangular.group < 1 ? " is below 1"
                                                          : " does not divide m = " +
                                                                std::to_string(m)));
  }
  return {};
}

// The caller's triangle in canonical terms: row-major, op(A) is canonical
// A (a line is a row, its depths the columns); column-major, op(A)^T is
// canonical B (a line is a column, op(A)'s row). Either way a lower op(A)
// uses the depths up to the line.
core::GemmTriangularOperand canonical_operand(Layout layout, Transpose ta,
                                              TriangularOperand triangular) {
  core::GemmTriangularOperand t;
  t.on_b = layout == Layout::kColMajor;
  t.depth_le_line = (triangular.part == Triangle::kLower) != (ta == Transpose::kYes);
  t.unit = triangular.unit_diagonal;
  t.group = triangular.group;
  return t;
}

template <class T>
Status run_triangular(const detail::ContextState& state, const core::GemmProblem<T>& pr,
                      const core::GemmTriangularOperand& t, Parallelism parallelism,
                      const T* packed_a, const T* packed_b) {
  if (pr.m == 0 || pr.n == 0) return {};
  if (pr.k == 0 || pr.alpha == T(0)) {
    scale_c(pr);
    return {};
  }
  const core::GemmKernelSet<T>* ks = kernel_set<T>(*state.table);
  if (ks == nullptr) {
    return Status::internal(std::string("kernel table ") + isa_name(state.table->isa) +
                            " has no gemm " + dtype_name(dtype_of<T>()));
  }
  core::GemmRequest request =
      gemm_request(state, *ks, context_blocking<T>(state, *ks), pr.m, pr.n, pr.k, parallelism,
                   packed_a != nullptr, packed_b != nullptr, false);
  request.direct_ok = false;
  const core::GemmDecision decision = core::decide_gemm(request);
  return core::run_gemm(*ks, pr, decision, packed_a, packed_b, state.executor, {}, nullptr, &t);
}

// The naive family: op(A) copied whole into the caller's layout, zeros
// outside the triangle and the unit diagonal written, then the plain
// product on it.
template <class T>
Status naive_triangular(const detail::ContextState& state, Layout layout, Transpose ta,
                        Transpose tb, std::int64_t m, std::int64_t n, T alpha, const T* a,
                        std::int64_t lda, const T* b, std::int64_t ldb, T beta, T* c,
                        std::int64_t ldc, TriangularOperand triangular) {
  const core::NaiveGemmFn<T> fn = naive_fn<T>(*state.table);
  if (fn == nullptr) return Status::internal("naive table has no gemm");
  const bool row = layout == Layout::kRowMajor;
  const auto at = [&](const T* p, std::int64_t ld, std::int64_t i, std::int64_t j) -> const T& {
    return row ? p[i * ld + j] : p[i + j * ld];
  };
  const std::unique_ptr<T[]> e(new (std::nothrow) T[static_cast<std::size_t>(m * m)]);
  if (e == nullptr && m > 0) {
    return Status(StatusCode::kOutOfMemory, "gemm_triangular: no memory for a copy of a");
  }
  const bool lower = (triangular.part == Triangle::kLower) != (ta == Transpose::kYes);
  const std::int64_t g = triangular.group;
  for (std::int64_t i = 0; i < m; ++i) {
    for (std::int64_t p = 0; p < m; ++p) {
      T& out = row ? e[i * m + p] : e[i + p * m];
      if (i / g == p / g && triangular.unit_diagonal) {
        out = i % g == p % g ? T(1) : T(0);
      } else if (i / g == p / g || (i / g > p / g) == lower) {
        out = ta == Transpose::kYes ? at(a, lda, p, i) : at(a, lda, i, p);
      } else {
        out = T(0);
      }
    }
  }
  const core::GemmProblem<T> pr = canonical_problem(layout, Transpose::kNo, tb, m, n, m, alpha,
                                                    e.get(), m, b, ldb, beta, c, ldc);
  if (pr.m == 0 || pr.n == 0) return {};
  if (pr.alpha == T(0)) {
    scale_c(pr);
    return {};
  }
  fn(pr);
  return {};
}

template <class T>
Status triangular_impl(const Context& context, Layout layout, Transpose ta, Transpose tb,
                       std::int64_t m, std::int64_t n, T alpha, const T* a, std::int64_t lda,
                       const T* b, std::int64_t ldb, T beta, T* c, std::int64_t ldc,
                       TriangularOperand triangular, Parallelism parallelism) {
  const detail::ContextState* state = context.state();
  if (state == nullptr) TESSERA_RETURN_IF_ERROR(detail::context_state(context, &state));
  TESSERA_RETURN_IF_ERROR(
      full_checks(layout, &ta, &tb, m, n, m, a, lda, b, ldb, c, ldc, parallelism, sizeof(T)));
  TESSERA_RETURN_IF_ERROR(check_triangular(triangular, m));
  if (state->table->family == KernelFamily::kNaive) {
    return naive_triangular(*state, layout, ta, tb, m, n, alpha, a, lda, b, ldb, beta, c, ldc,
                            triangular);
  }
  const core::GemmProblem<T> pr =
      canonical_problem(layout, ta, tb, m, n, m, alpha, a, lda, b, ldb, beta, c, ldc);
  return run_triangular(*state, pr, canonical_operand(layout, ta, triangular), parallelism,
                        static_cast<const T*>(nullptr), static_cast<const T*>(nullptr));
}

template <class T>
Status packed_triangular_impl(const Context& context, Layout layout, Transpose ta,
                              std::int64_t m, T alpha, const T* a, std::int64_t lda,
                              const PackedRhs& packed, T beta, T* c, std::int64_t ldc,
                              TriangularOperand triangular, Parallelism parallelism) {
  const detail::ContextState* state = nullptr;
  TESSERA_RETURN_IF_ERROR(detail::context_state(context, &state));
  TESSERA_RETURN_IF_ERROR(core::check_enums(layout, &ta, nullptr));
  const T* data = nullptr;
  std::int64_t n = 0, k = 0;
  TESSERA_RETURN_IF_ERROR(check_packed_rhs(*state, layout, packed, &data, &n, &k));
  TESSERA_RETURN_IF_ERROR(core::check_dim(m, "m"));
  if (k != m) {
    return Status::invalid_argument("b was packed " + core::str(k) +
                                    " deep but the triangular a is m x m with m = " +
                                    core::str(m));
  }
  TESSERA_RETURN_IF_ERROR(core::check_mnk(m, n, k));
  TESSERA_RETURN_IF_ERROR(core::check_parallelism(parallelism));
  core::Stored sa{"a", "lda", a, m, m, lda};
  core::Stored sc{"c", "ldc", c, m, n, ldc};
  TESSERA_RETURN_IF_ERROR(core::check_stored(layout, sizeof(T), &sa));
  TESSERA_RETURN_IF_ERROR(core::check_stored(layout, sizeof(T), &sc));
  TESSERA_RETURN_IF_ERROR(core::check_no_alias(sc, sa));
  TESSERA_RETURN_IF_ERROR(check_triangular(triangular, m));
  // The packed operand is canonical B (row-major) or canonical A
  // (column-major, computed transposed): never the triangular one.
  const bool row = layout == Layout::kRowMajor;
  const core::GemmProblem<T> pr =
      canonical_problem(layout, ta, Transpose::kNo, m, n, m, alpha, a, lda,
                        static_cast<const T*>(nullptr), 0, beta, c, ldc);
  return run_triangular(*state, pr, canonical_operand(layout, ta, triangular), parallelism,
                        row ? static_cast<const T*>(nullptr) : data,
                        row ? data : static_cast<const T*>(nullptr));
}

}  // namespace
}  // namespace gemm_detail

Status try_gemm_triangular(const Context& context, Layout layout, Transpose trans_a,
                           Transpose trans_b, std::int64_t m, std::int64_t n, float alpha,
                           const float* a, std::int64_t lda, const float* b, std::int64_t ldb,
                           float beta, float* c, std::int64_t ldc, TriangularOperand triangular,
                           Parallelism parallelism) {
  return gemm_detail::triangular_impl(context, layout, trans_a, trans_b, m, n, alpha, a, lda, b,
                                      ldb, beta, c, ldc, triangular, parallelism);
}

Status try_gemm_triangular(const Context& context, Layout layout, Transpose trans_a,
                           Transpose trans_b, std::int64_t m, std::int64_t n, double alpha,
                           const double* a, std::int64_t lda, const double* b, std::int64_t ldb,
                           double beta, double* c, std::int64_t ldc,
                           TriangularOperand triangular, Parallelism parallelism) {
  return gemm_detail::triangular_impl(context, layout, trans_a, trans_b, m, n, alpha, a, lda, b,
                                      ldb, beta, c, ldc, triangular, parallelism);
}

Status try_gemm_triangular(const Context& context, Layout layout, Transpose trans_a,
                           std::int64_t m, float alpha, const float* a, std::int64_t lda,
                           const PackedRhs& b, float beta, float* c, std::int64_t ldc,
                           TriangularOperand triangular, Parallelism parallelism) {
  return gemm_detail::packed_triangular_impl(context, layout, trans_a, m, alpha, a, lda, b, beta,
                                             c, ldc, triangular, parallelism);
}

Status try_gemm_triangular(const Context& context, Layout layout, Transpose trans_a,
                           std::int64_t m, double alpha, const double* a, std::int64_t lda,
                           const PackedRhs& b, double beta, double* c, std::int64_t ldc,
                           TriangularOperand triangular, Parallelism parallelism) {
  return gemm_detail::packed_triangular_impl(context, layout, trans_a, m, alpha, a, lda, b, beta,
                                             c, ldc, triangular, parallelism);
}

}  // namespace tessera
