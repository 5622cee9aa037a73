// try_plan_gemm: what a gemm call on a context would do and why, decided by
// the same request the call builds (gemm_call.hpp), so the plan is the call's.
#include "core/src/base/plan_report.hpp"
#include "core/src/gemm/gemm_call.hpp"
#include "tessera/gemm.hpp"

namespace tessera {

using core::str;

std::string GemmPlan::to_string() const {
  std::string s;
  s += std::string("gemm ") + dtype_name(dtype) + " " + str(m) + " x " + str(n) + " x " +
       str(k) + " on " + isa_name(isa) + " (" + kernel_family_name(family) + ")\n";
  if (family == KernelFamily::kNaive) {
    s += "  naive reference: serial triple loop, double accumulation\n";
    return s;
  }
  s += "  tile mr x nr = " + str(mr) + " x " + str(nr) + "; blocking mc = " + str(mc) +
       ", nc = " + str(nc) + ", kc = " + str(kc) + "\n";
  s += "  workers " + str(workers) + " of width " + str(width) + ", tier " + str(tier) +
       " (" + worker_rule + "): " + worker_reason + "\n";
  if (direct) {
    s += std::string("  direct path: A read in place, B ") +
         (direct_packs_b ? "packed once (its rows 2 KiB or more apart, or too large to re-read "
                           "in place; direct_packs_b)"
                         : "read in place") +
         "; " + str(jobs_per_step) + " C tiles" + (workers > 1 ? ", " + grain : std::string()) +
         "\n";
  } else {
    s += "  jobs per step " + str(jobs_per_step) + ", " + grain +
         (shared_a_prepack ? ", shared A prepack" : ", private A packing") + "\n";
  }
  s += "  cache facts: " + cache_facts + "\n";
  return s;
}

namespace {

// The direct path's tiles as direct() runs them (gemm_microkernel.hpp):
// split over workers, direct_mr x direct_nr; on one worker with a wide tile
// family, the full panels' tile per direct_wide_rows and a last panel as many vectors wide as it needs. mr x nr is
// the full panels' tile, else the last panel's.
template <class T>
void set_direct_tiles(const core::GemmKernelSet<T>& ks, std::int64_t m, std::int64_t n,
                      int workers, GemmPlan* plan) {
  auto ceil_div = [](std::int64_t a, std::int64_t b) { return (a + b - 1) / b; };
  plan->mr = ks.direct_mr, plan->nr = ks.direct_nr;
  const bool family = workers <= 1 && ks.direct_masks_edges &&
                      (ks.direct_wide_mr != ks.direct_mr || ks.direct_wide_nr != ks.direct_nr);
  if (!family) return;
  const bool wide_rows = core::direct_wide_rows(m, n, ks.direct_wide_mr, ks.direct_wide_nr);
  if (!core::direct_wide_family(n, ks.direct_nr, ks.direct_wide_nr, wide_rows)) return;
  const std::int64_t full_n = n / ks.direct_wide_nr * ks.direct_wide_nr;
  const std::int64_t tail = n - full_n;
  const int full_mr = wide_rows ? ks.direct_wide_mr : ks.direct_mr;
  const int full_nr = wide_rows ? ks.direct_wide_nr : ks.direct_nr;
  const int tail_nv = static_cast<int>(ceil_div(tail, ks.lanes));
  const std::int64_t tail_nr = tail_nv * static_cast<std::int64_t>(ks.lanes);
  const int tail_mr = core::direct_family_rows(tail_nv, ks.direct_mr, ks.direct_wide_mr,
                                               ks.direct_wide_nr / ks.lanes);
  plan->jobs_per_step =
      ceil_div(m, full_mr) * (full_n / full_nr) + (tail > 0 ? ceil_div(m, tail_mr) : 0);
  plan->mr = full_n > 0 ? full_mr : tail_mr;
  plan->nr = full_n > 0 ? full_nr : static_cast<int>(tail_nr);
}

}  // namespace

Status try_plan_gemm(const Context& context, Dtype dtype, Layout layout,
                     std::int64_t m, std::int64_t n, std::int64_t k,
                     Parallelism parallelism, GemmPlan* out) {
  const detail::ContextState* state = nullptr;
  TESSERA_RETURN_IF_ERROR(detail::context_state(context, &state));
  if (out == nullptr) return Status::invalid_argument("out is null");
  TESSERA_RETURN_IF_ERROR(core::check_enums(layout, nullptr, nullptr));
  if (dtype != Dtype::kF32 && dtype != Dtype::kF64) {
    return Status::invalid_argument("dtype is not a Dtype value");
  }
  TESSERA_RETURN_IF_ERROR(core::check_product(m, n, k, parallelism));
  GemmPlan plan;
  plan.dtype = dtype;
  plan.isa = state->table->isa;
  plan.family = state->table->family;
  plan.m = m, plan.n = n, plan.k = k;
  plan.width = state->kernel_width();
  if (plan.family == KernelFamily::kNaive) {
    plan.worker_rule = "naive";
    plan.worker_reason = "the naive reference is serial";
    *out = plan;
    return {};
  }
  const std::int64_t cm = layout == Layout::kRowMajor ? m : n;
  const std::int64_t cn = layout == Layout::kRowMajor ? n : m;
  auto fill = [&](auto* ks) {
    if (ks == nullptr) return Status::internal("kernel table has no gemm kernels");
    const core::GemmDecision d = core::decide_gemm(
        gemm_detail::gemm_request(*state, *ks, gemm_detail::context_blocking(*state, *ks), cm,
                                  cn, k, parallelism, false, false, true));
    plan.mr = ks->mr, plan.nr = ks->nr;
    plan.mc = d.blocking.mc, plan.nc = d.blocking.nc, plan.kc = d.blocking.kc;
    core::report_workers(d, &plan);
    plan.shared_a_prepack = d.shared_a;
    plan.direct = d.direct;
    if (d.direct) set_direct_tiles(*ks, cm, cn, d.compute.workers, &plan);
    // B as stored without a transpose: its rows cn elements apart.
    plan.direct_packs_b = d.direct && core::direct_packs_b(*ks, cm, cn, k, cn, d.compute.workers);
    plan.cache_facts = ks->blocking == core::GemmBlockingRule::kFixedPortable
                           ? "not used (fixed portable blocking table)"
                           : core::host_cache_facts().source;
    if (state->tuned_blocking[dtype == Dtype::kF32 ? 0 : 1].kc != 0) {
      plan.cache_facts = "not used: the blocking comes from the context's tuned profile";
    }
    return Status();
  };
  if (dtype == Dtype::kF32) {
    TESSERA_RETURN_IF_ERROR(fill(state->table->gemm.f32));
  } else {
    TESSERA_RETURN_IF_ERROR(fill(state->table->gemm.f64));
  }
  *out = plan;
  return {};
}

}  // namespace tessera
