// Batched GEMM (tessera/gemm_batched.hpp): validate the whole batch, ask
// the batch plan how to use the context's participants, then run every
// entry through single gemm's canonical path (gemm_call.hpp), so each
// entry's bits are those of try_gemm on it, whatever the plan.
#include <algorithm>
#include <vector>

#include "core/src/gemm/gemm_batched_impl.hpp"
#include "core/src/gemm/gemm_batched_validate.hpp"
#include "core/src/gemm/gemm_call.hpp"
#include "core/src/parallel/batch_runner.hpp"
#include "tessera/gemm_batched.hpp"
#include "tessera/platform/executor.hpp"

namespace tessera::gemm_detail {
namespace {

// The batch plan for `batch` entries of m x n x k on `state`: the one place
// a call and try_plan_gemm_batched resolve it, so the plan shows what runs
// (the call passes explain = false: the same decision, no text).
core::BatchPlan plan_for(const detail::ContextState& state, std::int64_t batch, std::int64_t m,
                         std::int64_t n, std::int64_t k, std::size_t element_bytes,
                         Parallelism request, bool explain) {
  // Inside a parallel region (without nested parallelism) everything runs
  // on the calling thread, as single gemm does there.
  if (state.nested_call()) {
    return {core::BatchPlanKind::kSerial, 1, explain ? "nested call" : ""};
  }
  const core::BatchShape shape{static_cast<std::uint64_t>(batch), static_cast<std::uint64_t>(m),
                               static_cast<std::uint64_t>(n), static_cast<std::uint64_t>(k),
                               element_bytes};
  return core::resolve_batch(shape, request, state.parallel_facts, state.compute_knobs,
                             state.knobs, explain);
}

// Entries whose A and B together take fewer bytes than this run without
// the next entry's prefetch hint: the hardware prefetchers keep up with
// them, and the prefetch instructions only cost (1000 x 32^3 f32, 8 KiB an
// entry: 489 ns per entry with the hint, 455 without; 64^3, 32 KiB, with
// the wide tiles: 3.4 us with, 3.6 without).
constexpr std::int64_t kPrefetchHintMinBytes = 16 * 1024;

// Entry i through single gemm's path. The PackedRhs is canonical B for a
// row-major call and canonical A for a column-major one (computed
// transposed), exactly as in the single prepacked call. `next` (or -1) is
// the entry the caller runs after this one: its operands are a prefetch
// hint (GemmProblem::next_a, next_b). Without one the problem goes to
// run_canonical as a temporary: a named, then amended one was zeroed with
// `rep stos`, 10-14 ns more for a batch of 8 x 32 x 1 entries.
template <class T>
Status run_entry(const detail::ContextState& state, const BatchCall<T>& x, const T* packed,
                 std::int64_t i, Parallelism parallelism, std::int64_t next = -1) {
  const T* b = packed != nullptr ? nullptr : x.b.at(i);
  const bool row = x.layout == Layout::kRowMajor;
  if (next < 0) {
    return run_canonical(state,
                         canonical_problem(x.layout, x.ta, x.tb, x.m, x.n, x.k, x.alpha,
                                           x.a.at(i), x.lda, b, x.ldb, x.beta, x.c.at(i), x.ldc),
                         parallelism, row ? nullptr : packed, row ? packed : nullptr);
  }
  core::GemmProblem<T> pr = canonical_problem(x.layout, x.ta, x.tb, x.m, x.n, x.k, x.alpha,
                                              x.a.at(i), x.lda, b, x.ldb, x.beta, x.c.at(i),
                                              x.ldc);
  // A column-major call computes C^T = op(B)^T op(A)^T (canonical_problem).
  const T* next_a = x.a.at(next);
  const T* next_b = packed != nullptr ? nullptr : x.b.at(next);
  pr.next_a = row ? next_a : next_b;
  pr.next_b = row ? next_b : next_a;
  return run_canonical(state, pr, parallelism, row ? nullptr : packed, row ? packed : nullptr);
}

}  // namespace

template <class T>
Status run_batched(const Context& context, const BatchCall<T>& call_in,
                   const core::BatchPlan* forced) {
  const detail::ContextState* state = nullptr;
  TESSERA_RETURN_IF_ERROR(detail::context_state(context, &state));
  BatchCall<T> x = call_in;
  const T* packed = nullptr;
  TESSERA_RETURN_IF_ERROR(validate_batched(*state, &x, &packed));
  if (x.batch == 0 || x.m == 0 || x.n == 0) return {};

  const core::BatchPlan plan =
      forced != nullptr ? *forced
                        : plan_for(*state, x.batch, x.m, x.n, x.k, sizeof(T), x.parallelism,
                                   /*explain=*/false);
  // Entry i's successor for the prefetch hint, or -1 (none, or no hint).
  const bool hint = (x.m + x.n) * x.k * static_cast<std::int64_t>(sizeof(T)) >=
                    kPrefetchHintMinBytes;
  auto successor = [&](std::int64_t i, std::int64_t end) -> std::int64_t {
    return hint && i + 1 < end ? i + 1 : -1;
  };
  switch (plan.kind) {
    case core::BatchPlanKind::kSerial:
      for (std::int64_t i = 0; i < x.batch; ++i) {
        TESSERA_RETURN_IF_ERROR(
            run_entry(*state, x, packed, i, Parallelism::serial(), successor(i, x.batch)));
      }
      return {};
    case core::BatchPlanKind::kSequentialInternal:
      // The caller's request goes to every entry: each entry's compute
      // resolver picks its own count (the plan's is its upper bound).
      for (std::int64_t i = 0; i < x.batch; ++i) {
        TESSERA_RETURN_IF_ERROR(run_entry(*state, x, packed, i, x.parallelism));
      }
      return {};
    case core::BatchPlanKind::kBatchParallel: break;
  }
  // Whole entries per worker, each serial inside (batch_runner.hpp). The
  // failure of the lowest entry is reported (only out-of-memory can fail
  // here: the arguments are valid).
  const int workers = std::max(1, std::min(plan.workers, state->kernel_width()));
  std::int64_t failed = -1;
  return core::run_entries_parallel(
      state->executor, workers, x.batch,
      [&](std::int64_t i, std::int64_t end) {
        return run_entry(*state, x, packed, i, Parallelism::serial(), successor(i, end));
      },
      &failed);
}

template Status run_batched<float>(const Context&, const BatchCall<float>&,
                                   const core::BatchPlan*);
template Status run_batched<double>(const Context&, const BatchCall<double>&,
                                    const core::BatchPlan*);

namespace {

template <class T>
Status strided(const Context& context, Layout layout, Transpose ta, Transpose tb,
               std::int64_t m, std::int64_t n, std::int64_t k, T alpha, const T* a,
               std::int64_t lda, std::int64_t stride_a, const T* b, std::int64_t ldb,
               std::int64_t stride_b, T beta, T* c, std::int64_t ldc, std::int64_t stride_c,
               std::int64_t batch, const PackedRhs* packed, Parallelism parallelism) {
  BatchCall<T> call;
  call.layout = layout, call.ta = ta, call.tb = tb;
  call.m = m, call.n = n, call.k = k;
  call.alpha = alpha, call.beta = beta;
  call.a = {a, stride_a, nullptr, false};
  call.b = {b, stride_b, nullptr, false};
  call.c = {c, stride_c, nullptr, false};
  call.lda = lda, call.ldb = ldb, call.ldc = ldc;
  call.batch = batch;
  call.packed = packed;
  call.parallelism = parallelism;
  return run_batched(context, call, nullptr);
}

template <class T>
Status arrays(const Context& context, Layout layout, Transpose ta, Transpose tb, std::int64_t m,
              std::int64_t n, std::int64_t k, T alpha, const T* const* a, std::int64_t lda,
              const T* const* b, std::int64_t ldb, T beta, T* const* c, std::int64_t ldc,
              std::int64_t batch, Parallelism parallelism) {
  BatchCall<T> call;
  call.layout = layout, call.ta = ta, call.tb = tb;
  call.m = m, call.n = n, call.k = k;
  call.alpha = alpha, call.beta = beta;
  call.a = {nullptr, 0, a, true};
  call.b = {nullptr, 0, b, true};
  call.c = {nullptr, 0, c, true};
  call.lda = lda, call.ldb = ldb, call.ldc = ldc;
  call.batch = batch;
  call.parallelism = parallelism;
  return run_batched(context, call, nullptr);
}

}  // namespace
}  // namespace tessera::gemm_detail

namespace tessera {

std::string GemmBatchedPlan::to_string() const {
  return kind + "(" + std::to_string(workers) + "): " + reason;
}

Status try_plan_gemm_batched(const Context& context, Dtype dtype, std::int64_t batch,
                             std::int64_t m, std::int64_t n, std::int64_t k,
                             Parallelism parallelism, GemmBatchedPlan* out) {
  if (out == nullptr) return Status::invalid_argument("out is null");
  const detail::ContextState* state = nullptr;
  TESSERA_RETURN_IF_ERROR(detail::context_state(context, &state));
  if (dtype != Dtype::kF32 && dtype != Dtype::kF64) {
    return Status::invalid_argument("dtype is not a Dtype value (got " +
                                    std::to_string(static_cast<int>(dtype)) + ")");
  }
  TESSERA_RETURN_IF_ERROR(core::check_dim(batch, "batch"));
  TESSERA_RETURN_IF_ERROR(core::check_product(m, n, k, parallelism));
  const core::BatchPlan plan = gemm_detail::plan_for(
      *state, batch, m, n, k, dtype == Dtype::kF32 ? 4 : 8, parallelism, /*explain=*/true);
  out->kind = core::batch_plan_kind_name(plan.kind);
  out->workers = plan.workers;
  out->reason = plan.reason;
  return {};
}

Status try_gemm_strided_batched(const Context& context, Layout layout, Transpose trans_a,
                                Transpose trans_b, std::int64_t m, std::int64_t n,
                                std::int64_t k, float alpha, const float* a, std::int64_t lda,
                                std::int64_t stride_a, const float* b, std::int64_t ldb,
                                std::int64_t stride_b, float beta, float* c, std::int64_t ldc,
                                std::int64_t stride_c, std::int64_t batch,
                                Parallelism parallelism) {
  return gemm_detail::strided(context, layout, trans_a, trans_b, m, n, k, alpha, a, lda,
                              stride_a, b, ldb, stride_b, beta, c, ldc, stride_c, batch, nullptr,
                              parallelism);
}

Status try_gemm_strided_batched(const Context& context, Layout layout, Transpose trans_a,
                                Transpose trans_b, std::int64_t m, std::int64_t n,
                                std::int64_t k, double alpha, const double* a, std::int64_t lda,
                                std::int64_t stride_a, const double* b, std::int64_t ldb,
                                std::int64_t stride_b, double beta, double* c, std::int64_t ldc,
                                std::int64_t stride_c, std::int64_t batch,
                                Parallelism parallelism) {
  return gemm_detail::strided(context, layout, trans_a, trans_b, m, n, k, alpha, a, lda,
                              stride_a, b, ldb, stride_b, beta, c, ldc, stride_c, batch, nullptr,
                              parallelism);
}

Status try_gemm_batched(const Context& context, Layout layout, Transpose trans_a,
                        Transpose trans_b, std::int64_t m, std::int64_t n, std::int64_t k,
                        float alpha, const float* const* a, std::int64_t lda,
                        const float* const* b, std::int64_t ldb, float beta, float* const* c,
                        std::int64_t ldc, std::int64_t batch, Parallelism parallelism) {
  return gemm_detail::arrays(context, layout, trans_a, trans_b, m, n, k, alpha, a, lda, b, ldb,
                             beta, c, ldc, batch, parallelism);
}

Status try_gemm_batched(const Context& context, Layout layout, Transpose trans_a,
                        Transpose trans_b, std::int64_t m, std::int64_t n, std::int64_t k,
                        double alpha, const double* const* a, std::int64_t lda,
                        const double* const* b, std::int64_t ldb, double beta,
                        double* const* c, std::int64_t ldc, std::int64_t batch,
                        Parallelism parallelism) {
  return gemm_detail::arrays(context, layout, trans_a, trans_b, m, n, k, alpha, a, lda, b, ldb,
                             beta, c, ldc, batch, parallelism);
}

Status try_gemm_strided_batched(const Context& context, Layout layout, Transpose trans_a,
                                std::int64_t m, float alpha, const float* a, std::int64_t lda,
                                std::int64_t stride_a, const PackedRhs& b, float beta, float* c,
                                std::int64_t ldc, std::int64_t stride_c, std::int64_t batch,
                                Parallelism parallelism) {
  return gemm_detail::strided(context, layout, trans_a, Transpose::kNo, m, 0, 0, alpha, a, lda,
                              stride_a, static_cast<const float*>(nullptr), 1, 0, beta, c, ldc,
                              stride_c, batch, &b, parallelism);
}

Status try_gemm_strided_batched(const Context& context, Layout layout, Transpose trans_a,
                                std::int64_t m, double alpha, const double* a, std::int64_t lda,
                                std::int64_t stride_a, const PackedRhs& b, double beta,
                                double* c, std::int64_t ldc, std::int64_t stride_c,
                                std::int64_t batch, Parallelism parallelism) {
  return gemm_detail::strided(context, layout, trans_a, Transpose::kNo, m, 0, 0, alpha, a, lda,
                              stride_a, static_cast<const double*>(nullptr), 1, 0, beta, c, ldc,
                              stride_c, batch, &b, parallelism);
}

}  // namespace tessera
