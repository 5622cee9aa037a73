// try_gemm_triangle: one triangle of C (tessera/gemm.hpp). The canonical
// problem of the full product runs on the packed driver with a
// GemmTriangleMask (run_gemm: only the jobs whose block of C holds a kept
// element, edge panels through a tile of their own); the naive family
// runs each canonical row's kept columns as a product of their own. The
// direct path has no mask, so a triangle always takes the packed path: its
// elements are computed by the same kernels, depth slices and per-element
// operations as try_gemm's, hence the same bits. The mask stays out of
// GemmProblem, which every small call builds and passes.
#include "core/src/gemm/gemm_call.hpp"
#include "tessera/gemm.hpp"

namespace tessera {
namespace gemm_detail {
namespace {

// The caller's triangle as a canonical mask: a column-major call computes
// C^T, so the caller's (i, j) is canonical (j, i) and its row groups are
// canonical column groups.
core::GemmTriangleMask canonical_mask(Layout layout, GemmTriangle triangle) {
  core::GemmTriangleMask mask;
  const bool lower = triangle.part == Triangle::kLower;
  if (layout == Layout::kRowMajor) {
    mask.lower = lower;
    mask.row_group = triangle.row_group;
  } else {
    mask.lower = !lower;
    mask.col_group = triangle.row_group;
  }
  return mask;
}

template <class T>
Status gemm_triangle_impl(const Context& context, Layout layout, Transpose ta, Transpose tb,
                          std::int64_t m, std::int64_t n, std::int64_t k, T alpha, const T* a,
                          std::int64_t lda, const T* b, std::int64_t ldb, T beta, T* c,
                          std::int64_t ldc, GemmTriangle triangle, Parallelism parallelism) {
  const detail::ContextState* state = context.state();
  if (state == nullptr) TESSERA_RETURN_IF_ERROR(detail::context_state(context, &state));
  TESSERA_RETURN_IF_ERROR(
      full_checks(layout, &ta, &tb, m, n, k, a, lda, b, ldb, c, ldc, parallelism, sizeof(T)));
  if (triangle.part != Triangle::kLower && triangle.part != Triangle::kUpper) {
    return Status::invalid_argument(
        "triangle.part is not a Triangle value (got " +
        std::to_string(static_cast<unsigned>(triangle.part)) + ")");
  }
  if (triangle.row_group < 1) {
    return Status::invalid_argument("triangle.row_group = " +
                                    std::to_string(triangle.row_group) + " is below 1");
  }

  core::GemmProblem<T> pr =
      canonical_problem(layout, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
  const core::GemmTriangleMask mask = canonical_mask(layout, triangle);
  if (pr.m == 0 || pr.n == 0) return {};
  if (pr.k == 0 || pr.alpha == T(0)) {
    // C = beta C on the kept elements only.
    if (beta == T(1)) return {};
    for (std::int64_t i = 0; i < pr.m; ++i) {
      std::int64_t lo, hi;
      mask.kept_columns(i, 0, pr.n, &lo, &hi);
      T* row = pr.c + i * pr.ldc;
      for (std::int64_t j = lo; j < hi; ++j) row[j] = beta == T(0) ? T(0) : beta * row[j];
    }
    return {};
  }
  if (state->table->family == KernelFamily::kNaive) {
    const core::NaiveGemmFn<T> fn = naive_fn<T>(*state->table);
    if (fn == nullptr) return Status::internal("naive table has no gemm");
    for (std::int64_t i = 0; i < pr.m; ++i) {
      std::int64_t lo, hi;
      mask.kept_columns(i, 0, pr.n, &lo, &hi);
      if (lo >= hi) continue;
      core::GemmProblem<T> row = pr;
      row.m = 1, row.n = hi - lo;
      row.a = pr.a + i * pr.rs_a;
      row.b = pr.b + lo * pr.cs_b;
      row.c = pr.c + i * pr.ldc + lo;
      fn(row);
    }
    return {};
  }
  const core::GemmKernelSet<T>* ks = kernel_set<T>(*state->table);
  if (ks == nullptr) {
    return Status::internal(std::string("kernel table ") + isa_name(state->table->isa) +
                            " has no gemm " + dtype_name(dtype_of<T>()));
  }
  core::GemmRequest request = gemm_request(*state, *ks, context_blocking<T>(*state, *ks), pr.m,
                                           pr.n, pr.k, parallelism, false, false, false);
  request.direct_ok = false;
  const core::GemmDecision decision = core::decide_gemm(request);
  return core::run_gemm(*ks, pr, decision, static_cast<const T*>(nullptr),
                        static_cast<const T*>(nullptr), state->executor, {}, &mask);
}

}  // namespace
}  // namespace gemm_detail

Status try_gemm_triangle(const Context& context, Layout layout, Transpose trans_a,
                         Transpose trans_b, std::int64_t m, std::int64_t n, std::int64_t k,
                         float alpha, const float* a, std::int64_t lda, const float* b,
                         std::int64_t ldb, float beta, float* c, std::int64_t ldc,
                         GemmTriangle triangle, Parallelism parallelism) {
  return gemm_detail::gemm_triangle_impl(context, layout, trans_a, trans_b, m, n, k, alpha, a,
                                         lda, b, ldb, beta, c, ldc, triangle, parallelism);
}

Status try_gemm_triangle(const Context& context, Layout layout, Transpose trans_a,
                         Transpose trans_b, std::int64_t m, std::int64_t n, std::int64_t k,
                         double alpha, const double* a, std::int64_t lda, const double* b,
                         std::int64_t ldb, double beta, double* c, std::int64_t ldc,
                         GemmTriangle triangle, Parallelism parallelism) {
  return gemm_detail::gemm_triangle_impl(context, layout, trans_a, trans_b, m, n, k, alpha, a,
                                         lda, b, ldb, beta, c, ldc, triangle, parallelism);
}

}  // namespace tessera
