#include "core/src/parallel/batch_plan.hpp"

#include <algorithm>
#include <limits>

#include "tessera/platform/pool_tiers.hpp"

namespace tessera::core {
namespace {

constexpr std::uint64_t kMax = std::numeric_limits<std::uint64_t>::max();

// Saturating: shapes are validated elsewhere, but a plan must never wrap.
std::uint64_t mul(std::uint64_t a, std::uint64_t b) {
  if (a != 0 && b > kMax / a) return kMax;
  return a * b;
}
std::uint64_t add(std::uint64_t a, std::uint64_t b) { return b > kMax - a ? kMax : a + b; }

std::string shape_text(const BatchShape& s) {
  return std::to_string(s.batch) + (s.batch == 1 ? " element of " : " elements of ") +
         std::to_string(s.m) + "x" + std::to_string(s.n) + "x" + std::to_string(s.k);
}

int min_count(int a, std::uint64_t b) {
  return static_cast<int>(std::min<std::uint64_t>(static_cast<std::uint64_t>(a), b));
}

BatchPlan make(BatchPlanKind kind, int workers, std::string reason) {
  BatchPlan plan;
  plan.kind = kind;
  plan.workers = workers;
  plan.reason = std::move(reason);
  if (plan.kind == BatchPlanKind::kBatchParallel && plan.workers <= 1) {
    plan.kind = BatchPlanKind::kSerial;
    plan.workers = 1;
  }
  return plan;
}

}  // namespace

const char* batch_plan_kind_name(BatchPlanKind kind) noexcept {
  switch (kind) {
    case BatchPlanKind::kSerial: return "serial";
    case BatchPlanKind::kBatchParallel: return "batch_parallel";
    case BatchPlanKind::kSequentialInternal: return "sequential_internal";
  }
  return "unknown";
}

std::string BatchPlan::to_string() const {
  return std::string(batch_plan_kind_name(kind)) + "(" + std::to_string(workers) +
         "): " + reason;
}

BatchPlan resolve_batch(const BatchShape& s, Parallelism request, const BatchFacts& facts,
                        const ComputeKnobs& compute, const Knobs& knobs, bool explain) {
  // Every reason below is `explain ? text : {}`: only the chosen branch of
  // a conditional is evaluated, so the call path formats nothing.
  const std::string shape = explain ? shape_text(s) : std::string();
  // Rule 1.
  if (s.batch == 0 || s.m == 0 || s.n == 0) {
    return make(BatchPlanKind::kSerial, 1, explain ? shape + ": empty" : "");
  }
  if (s.k == 0) {
    return make(BatchPlanKind::kSerial, 1,
                explain ? shape + ": k = 0, no products (only beta)" : "");
  }
  // Rule 2.
  const int width = std::max(1, facts.width);
  if (request.is_serial()) return make(BatchPlanKind::kSerial, 1, explain ? "serial requested" : "");
  if (width == 1) return make(BatchPlanKind::kSerial, 1, explain ? "width is 1" : "");

  const std::uint64_t element_elems = add(add(mul(s.m, s.k), mul(s.k, s.n)), mul(s.m, s.n));
  const std::uint64_t footprint = mul(element_elems, std::max<std::uint64_t>(1, s.element_bytes));

  // Rule 3: gemv-shaped elements, whole on one worker each.
  if (s.m == 1 || s.n == 1) {
    if (s.batch == 1) {
      return make(BatchPlanKind::kSerial, 1,
                  explain ? shape + ": one gemv-shaped element stays whole on one worker" : "");
    }
    const std::uint64_t total_bytes = mul(footprint, s.batch);
    // Rule 2 has passed, so facts.width >= 2 is the width used here.
    const BandwidthPlan bw = resolve_bandwidth(total_bytes, s.batch, request, facts, knobs, explain);
    return make(BatchPlanKind::kBatchParallel, bw.workers,
                explain ? shape + ", gemv-shaped (each element whole on one worker): " + bw.reason
                        : "");
  }

  // Rule 4: the serial gate on the whole batch's work.
  const std::uint64_t element_mnk = mul(mul(s.m, s.n), s.k);
  const std::uint64_t total = mul(element_mnk, s.batch);
  if (total < compute.parallel_threshold) {
    return make(BatchPlanKind::kSerial, 1,
                explain ? shape + ": total m*n*k = " + std::to_string(total) +
                              " < TESSERA_PARALLEL_THRESHOLD = " +
                              std::to_string(compute.parallel_threshold)
                        : "");
  }
  const int explicit_n = request.count();
  const int internal_workers = explicit_n > 0 ? std::min(explicit_n, width) : width;

  // Rule 5.
  if (s.batch == 1) {
    return make(BatchPlanKind::kSequentialInternal, internal_workers,
                explain ? shape + ": one element, all parallelism inside it" : "");
  }
  // Rule 6.
  const bool element_passes_gate = element_mnk >= compute.parallel_threshold;
  const int at_once = min_count(width, s.batch);
  const std::uint64_t llc = facts.cache.l3 != 0 ? facts.cache.l3 : facts.cache.l2;
  if (element_passes_gate && s.batch < static_cast<std::uint64_t>(width)) {
    return make(BatchPlanKind::kSequentialInternal, internal_workers,
                explain ? shape + ": fewer elements than the " + std::to_string(width) +
                              " workers, each element m*n*k = " + std::to_string(element_mnk) +
                              " >= TESSERA_PARALLEL_THRESHOLD: parallel inside each"
                        : "");
  }
  if (element_passes_gate && llc != 0 && mul(footprint, static_cast<std::uint64_t>(at_once)) > llc) {
    return make(BatchPlanKind::kSequentialInternal, internal_workers,
                explain ? shape + ": DRAM-bound elements (" + std::to_string(at_once) + " x " +
                              std::to_string(footprint) + " bytes > last-level cache " +
                              std::to_string(llc) +
                              " bytes): one element at a time, parallel inside"
                        : "");
  }
  // Rule 7.
  if (explicit_n > 0) {
    const int workers = min_count(std::min(explicit_n, width), s.batch);
    return make(BatchPlanKind::kBatchParallel, workers,
                explain ? shape + ": threads(" + std::to_string(explicit_n) +
                              "), whole elements per worker" +
                              (workers < explicit_n ? ", capped by width and batch" : "")
                        : "");
  }
  const std::uint64_t per_worker = std::max<std::uint64_t>(1, compute.par_mnk_per_worker);
  const std::uint64_t wanted = std::max<std::uint64_t>(1, total / per_worker);
  const int capped = min_count(min_count(width, wanted), s.batch);
  // Snap down onto a tier (or the full pool) so the fork has no idle slack;
  // a target without tiers keeps the count as is.
  const int full = std::max(facts.pool_width, width);
  const int snapped = facts.tiers.empty() || capped >= full
                          ? capped
                          : std::max(1, platform::largest_tier_within(facts.tiers, capped));
  return make(BatchPlanKind::kBatchParallel, snapped,
              explain ? shape + ": total m*n*k = " + std::to_string(total) +
                            " / TESSERA_PAR_MNK_PER_WORKER = " + std::to_string(per_worker) +
                            " -> " + std::to_string(wanted) + ", capped by width " +
                            std::to_string(width) + " and batch, snapped to tier " +
                            std::to_string(snapped) + "; whole elements per worker"
                      : "");
}

}  // namespace tessera::core
