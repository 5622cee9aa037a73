#include "core/src/parallel/compute_resolver.hpp"

#include <algorithm>

#include "tessera/platform/pool_tiers.hpp"

namespace tessera::core {
namespace {

std::string num(std::uint64_t v) { return std::to_string(v); }

int cap_int(std::int64_t v) {
  return static_cast<int>(std::min<std::int64_t>(v, 1 << 30));
}

}  // namespace

ComputeKnobs default_compute_knobs(platform::CpuArch arch) {
  ComputeKnobs k;
  // Where the extra full-width workers start paying for their fork/join:
  // measured per architecture for the original design
  // (design.md §Compute resolver).
  k.full_width_mnk =
      arch == platform::CpuArch::kAarch64 ? 14'000'000 : 110'000'000;
  return k;
}

ComputeKnobs compute_knobs(const Knobs& knobs, platform::CpuArch arch) {
  ComputeKnobs k = default_compute_knobs(arch);
  if (knobs.parallel_threshold) k.parallel_threshold = *knobs.parallel_threshold;
  if (knobs.par_mnk_per_worker) k.par_mnk_per_worker = std::max<std::uint64_t>(1, *knobs.par_mnk_per_worker);
  if (knobs.full_width_mnk) k.full_width_mnk = *knobs.full_width_mnk;
  if (knobs.parallel_oversample) k.parallel_oversample = static_cast<int>(std::max<std::uint32_t>(1, *knobs.parallel_oversample));
  if (knobs.packed_oversample) k.packed_oversample = static_cast<int>(std::max<std::uint32_t>(1, *knobs.packed_oversample));
  return k;
}

const char* compute_rule_name(ComputeRule rule) noexcept {
  switch (rule) {
    case ComputeRule::kSerialRequested: return "serial requested";
    case ComputeRule::kNested: return "nested";
    case ComputeRule::kSerialGate: return "serial gate";
    case ComputeRule::kExplicit: return "explicit";
    case ComputeRule::kAutomaticTier: return "automatic, tier";
    case ComputeRule::kAutomatic: return "automatic";
    case ComputeRule::kFullWidth: return "automatic, full width";
  }
  return "unknown";
}

std::string ComputePlan::to_string() const {
  return std::to_string(workers) + " worker" + (workers == 1 ? "" : "s") +
         " (tier " + std::to_string(tier) + ", " + compute_rule_name(rule) +
         "): " + reason;
}

ComputePlan resolve_compute(const ComputeRequest& r, const ComputeKnobs& k) {
  ComputePlan plan;
  if (r.parallelism.is_serial()) {
    plan.rule = ComputeRule::kSerialRequested;
    if (r.explain) plan.reason = "Parallelism::serial() requested";
    return plan;
  }
  if (r.nested) {
    plan.rule = ComputeRule::kNested;
    if (r.explain) plan.reason = "called inside a parallel region: runs as one block";
    return plan;
  }
  // Rule 1: the serial gate comes before the request and the width.
  if (below_serial_gate(r.mnk, k)) {
    plan.rule = ComputeRule::kSerialGate;
    if (r.explain) {
      plan.reason = "m*n*k = " + num(r.mnk) + " < TESSERA_PARALLEL_THRESHOLD = " +
                    num(k.parallel_threshold);
    }
    return plan;
  }
  const int width = std::max(1, r.width);
  const int pool_width = r.pool_width > 0 ? std::max(r.pool_width, width) : width;
  const int jobs = cap_int(std::max<std::int64_t>(1, r.jobs));
  const std::vector<int> tiers = platform::pool_tier_widths(pool_width, r.pool_classes);
  auto routed = [&](int workers) {
    return workers == 1 ? 1 : platform::routed_width(tiers, pool_width, workers);
  };

  auto caps = [&](int wanted) {
    std::string text;
    if (wanted > width) text += ", capped by width " + std::to_string(width);
    if (std::min(wanted, width) > jobs) text += ", capped by " + std::to_string(jobs) + " jobs";
    return text;
  };

  if (r.parallelism.count() > 0) {
    const int n = r.parallelism.count();
    plan.rule = ComputeRule::kExplicit;
    plan.workers = std::max(1, std::min({n, width, jobs}));
    plan.tier = routed(plan.workers);
    if (r.explain) plan.reason = "threads(" + std::to_string(n) + ") requested" + caps(n);
    return plan;
  }

  const std::uint64_t raw = std::max<std::uint64_t>(1, r.mnk / k.par_mnk_per_worker);
  const int wanted = static_cast<int>(std::min<std::uint64_t>(raw, 1u << 30));
  const int capped = std::max(1, std::min({wanted, width, jobs}));
  auto ramp = [&] {
    return "m*n*k = " + num(r.mnk) + " / TESSERA_PAR_MNK_PER_WORKER = " +
           num(k.par_mnk_per_worker) + " -> " + std::to_string(wanted) + caps(wanted);
  };
  if (r.mnk >= k.full_width_mnk) {
    plan.rule = ComputeRule::kFullWidth;
    plan.workers = std::max(1, std::min(width, jobs));
    plan.tier = routed(plan.workers);
    if (r.explain) {
      plan.reason = "m*n*k = " + num(r.mnk) + " >= TESSERA_FULL_WIDTH_MNK = " +
                    num(k.full_width_mnk) + caps(width);
    }
    return plan;
  }
  // Without tiers there is nothing to snap onto: the ramp's count. That is
  // every target without pool classes (wasm), and every pool of 2 or 3,
  // whose first halving would be a tier of 1. Snapping there kept each
  // product under TESSERA_FULL_WIDTH_MNK on one of 2 cores: on Zen 4 (2
  // vCPUs), --auto-width sgemm 160^3-448^3 ran at 0.46-0.54x oneDNN and
  // dgemm 256^3-448^3 at 0.51-0.88x OpenBLAS, against 0.93-1.17x and
  // 0.96-1.08x with the ramp (benchmarks.md, "The ramp on 2 cores").
  if (r.pool_classes == 0 || tiers.empty()) {
    plan.rule = ComputeRule::kAutomatic;
    plan.workers = capped;
    plan.tier = routed(plan.workers);
    if (r.explain) {
      plan.reason = ramp() + (r.pool_classes == 0
                                  ? " (no pool tiers on this target)"
                                  : " (no pool tier below full width " +
                                        std::to_string(pool_width) + ")");
    }
    return plan;
  }
  // Below full width: snap down onto the pool's tiers, which all lie below
  // its full width (reserved for m*n*k >= TESSERA_FULL_WIDTH_MNK).
  plan.rule = ComputeRule::kAutomaticTier;
  plan.workers = platform::largest_tier_within(tiers, capped);
  plan.tier = routed(plan.workers);
  if (r.explain) {
    plan.reason = ramp() + ", snapped down onto tier " + std::to_string(plan.workers) +
                  " (full width " + std::to_string(pool_width) + " from TESSERA_FULL_WIDTH_MNK = " +
                  num(k.full_width_mnk) + ")";
  }
  return plan;
}

std::string GrainPlan::to_string() const {
  if (kind == GrainKind::kGeneric) {
    return "generic grain " + std::to_string(grain) + " (" + std::to_string(chunks) + " chunks)";
  }
  return "packed-LHS grain " + std::to_string(grain) + " (" + std::to_string(chunks) +
         " chunks, " + std::to_string(sub_blocks) + " sub-block" +
         (sub_blocks == 1 ? "" : "s") + " per row block)";
}

GrainPlan generic_grain(std::int64_t n_jobs, int workers, int oversample) {
  GrainPlan g;
  g.kind = GrainKind::kGeneric;
  n_jobs = std::max<std::int64_t>(1, n_jobs);
  const std::int64_t target = std::max<std::int64_t>(1, std::int64_t{workers} * std::max(1, oversample));
  g.grain = std::max<std::int64_t>(1, (n_jobs + target - 1) / target);
  g.chunks = (n_jobs + g.grain - 1) / g.grain;
  return g;
}

GrainPlan packed_lhs_grain(std::int64_t n_mc, std::int64_t n_nt, int workers,
                           int packed_oversample) {
  GrainPlan g;
  g.kind = GrainKind::kPackedLhs;
  n_mc = std::max<std::int64_t>(1, n_mc);
  n_nt = std::max<std::int64_t>(1, n_nt);
  const std::int64_t target =
      std::int64_t{std::max(1, packed_oversample)} * std::max(1, workers);
  std::int64_t s = 1;
  while (n_mc * s < target && n_nt % (2 * s) == 0) s *= 2;
  g.sub_blocks = s;
  g.grain = n_nt / s;
  g.chunks = n_mc * s;
  return g;
}

std::int64_t row_block_for_workers(std::int64_t mc, std::int64_t m, int mr,
                                   int workers) {
  if (workers <= 1 || m <= 0) return mc;
  // Two row blocks per worker keep every worker a few chunks deep without
  // splitting row blocks (which would pack A more than once).
  const std::int64_t blocks = 2 * std::int64_t{workers};
  std::int64_t per = (m + blocks - 1) / blocks;
  per = (per + mr - 1) / mr * mr;
  return std::max<std::int64_t>(mr, std::min(mc, per));
}

bool split_columns(std::int64_t m, std::int64_t n, std::int64_t n_nt, int workers) {
  return workers > 1 && m <= n / 4 && n_nt >= 2 * std::int64_t{workers};
}

bool use_shared_a_prepack(int workers, const GrainPlan& packed_grain) {
  if (workers >= 16) return true;
  return workers > 1 && packed_grain.sub_blocks > 1;
}

}  // namespace tessera::core
