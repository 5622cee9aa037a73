// The batched-GEMM plan (design.md §Batch plan): Serial / BatchParallel /
// SequentialInternal, one test per rule, on injected machines and knobs.
#include "core/src/parallel/batch_plan.hpp"

#include <doctest/doctest.h>

#include <string>

#include "support/test_support.hpp"
#include "tessera/platform/pool_tiers.hpp"

namespace tessera::core {
namespace {

using test::kMiB;

BatchFacts batch_facts(int cores, bool l3 = true) {
  BatchFacts f;
  f.width = cores;
  f.pool_width = cores;
  f.tiers = platform::pool_tier_widths(cores, 2);
  f.cache.l2 = 1 * kMiB;
  f.cache.l3 = l3 ? 32 * kMiB : 0;
  return f;
}

const ComputeKnobs kCompute = default_compute_knobs(platform::CpuArch::kX86_64);
using test::kAuto;

BatchPlan plan(std::uint64_t batch, std::uint64_t m, std::uint64_t n, std::uint64_t k,
               const BatchFacts& f, Parallelism request = kAuto, const Knobs& knobs = {}) {
  return resolve_batch({batch, m, n, k, 4}, request, f, kCompute, knobs);
}

using test::contains;

TEST_CASE("rule 1: an empty batch or k = 0 is serial") {
  CHECK(plan(0, 64, 64, 64, batch_facts(16)).kind == BatchPlanKind::kSerial);
  CHECK(plan(100, 0, 64, 64, batch_facts(16)).kind == BatchPlanKind::kSerial);
  CHECK(plan(100, 64, 0, 64, batch_facts(16)).kind == BatchPlanKind::kSerial);
  const BatchPlan k0 = plan(100, 512, 512, 0, batch_facts(16));
  CHECK(k0.kind == BatchPlanKind::kSerial);
  CHECK(contains(k0.reason, "k = 0"));
}

TEST_CASE("rule 2: serial() and width 1 are serial") {
  CHECK(plan(1000, 256, 256, 256, batch_facts(16), Parallelism::serial()).kind ==
        BatchPlanKind::kSerial);
  const BatchPlan p = plan(1000, 256, 256, 256, batch_facts(1));
  CHECK(p.kind == BatchPlanKind::kSerial);
  CHECK(p.workers == 1);
}

TEST_CASE("rule 3: gemv-shaped elements stay whole on one worker, never sequential_internal") {
  for (int cores : {2, 8, 16, 64}) {
    for (bool l3 : {true, false}) {
      const BatchFacts f = batch_facts(cores, l3);
      // Large single gemv: serial in a batch (it is not split).
      CHECK(plan(1, 1, 4096, 4096, f).kind == BatchPlanKind::kSerial);
      CHECK(plan(1, 4096, 1, 4096, f).kind == BatchPlanKind::kSerial);
      // Many large gemvs: whole elements per worker.
      const BatchPlan many = plan(256, 1, 4096, 4096, f);
      CHECK(many.kind == BatchPlanKind::kBatchParallel);
      CHECK(many.workers >= 2);
      CHECK(many.workers <= cores);
      CHECK(contains(many.reason, "gemv-shaped"));
      CHECK(plan(256, 4096, 1, 4096, f, Parallelism::threads(cores)).kind !=
            BatchPlanKind::kSequentialInternal);
    }
  }
}

TEST_CASE("rule 3: gemv-shaped batches below the byte floor are serial") {
  // 64 elements of 1x16x16 floats: 72 KiB touched in all.
  CHECK(plan(64, 1, 16, 16, batch_facts(16)).kind == BatchPlanKind::kSerial);
  CHECK(plan(64, 1, 16, 16, batch_facts(16), Parallelism::threads(4)).kind ==
        BatchPlanKind::kSerial);
  Knobs k;
  k.gemv_parallel_bytes = 1024;  // the floor knob applies here too
  CHECK(plan(64, 1, 16, 16, batch_facts(16), kAuto, k).kind == BatchPlanKind::kBatchParallel);
}

TEST_CASE("rule 3: explicit threads(n) on gemv-shaped elements is exact, capped by the batch") {
  CHECK(plan(256, 1, 4096, 4096, batch_facts(16), Parallelism::threads(3)).workers == 3);
  CHECK(plan(5, 1, 4096, 4096, batch_facts(16), Parallelism::threads(12)).workers == 5);
}

TEST_CASE("rule 4: total work below TESSERA_PARALLEL_THRESHOLD is serial, even for threads(n)") {
  // 4 x 16^3 = 16384 << 48*48*256.
  const BatchPlan p = plan(4, 16, 16, 16, batch_facts(16), Parallelism::threads(4));
  CHECK(p.kind == BatchPlanKind::kSerial);
  CHECK(contains(p.reason, "TESSERA_PARALLEL_THRESHOLD"));
  ComputeKnobs low = kCompute;
  low.parallel_threshold = 1000;
  CHECK(resolve_batch({4, 16, 16, 16, 4}, Parallelism::threads(4), batch_facts(4), low, {}).kind ==
        BatchPlanKind::kBatchParallel);
}

TEST_CASE("rule 5: one large element is sequential_internal with the full width") {
  const BatchPlan p = plan(1, 512, 512, 512, batch_facts(16));
  CHECK(p.kind == BatchPlanKind::kSequentialInternal);
  CHECK(p.workers == 16);
  CHECK(plan(1, 512, 512, 512, batch_facts(16), Parallelism::threads(6)).workers == 6);
}

TEST_CASE("rule 6: fewer large elements than workers are sequential_internal") {
  const BatchPlan p = plan(2, 256, 256, 256, batch_facts(16));
  CHECK(p.kind == BatchPlanKind::kSequentialInternal);
  CHECK(contains(p.reason, "fewer elements"));
  // Small elements are not worth parallelising inside: whole per worker.
  CHECK(plan(8, 64, 64, 64, batch_facts(16)).kind != BatchPlanKind::kSequentialInternal);
}

TEST_CASE("rule 6: DRAM-bound elements are sequential_internal") {
  // 1024^3 f32: 12 MiB per element, 16 at once overflow a 32 MiB L3.
  const BatchPlan p = plan(64, 1024, 1024, 1024, batch_facts(16));
  CHECK(p.kind == BatchPlanKind::kSequentialInternal);
  CHECK(contains(p.reason, "DRAM-bound"));
  // Without an L3 the L2 is the last level: smaller elements already spill.
  CHECK(plan(64, 256, 256, 256, batch_facts(16, false)).kind == BatchPlanKind::kSequentialInternal);
  // The same elements on a machine whose L3 holds them: whole per worker.
  CHECK(plan(64, 256, 256, 256, batch_facts(16, true)).kind == BatchPlanKind::kBatchParallel);
}

TEST_CASE("rule 7: many cache-resident elements are batch_parallel, snapped onto a tier") {
  // 1000 x 64^3 = 262 M; / 2 M = 131 -> capped at 16 -> tier 16.
  BatchPlan p = plan(1000, 64, 64, 64, batch_facts(16));
  CHECK(p.kind == BatchPlanKind::kBatchParallel);
  CHECK(p.workers == 16);
  // 60 x 64^3 = 15.7 M / 2 M = 7 -> snapped down onto tier 4 of {4, 8}.
  p = plan(60, 64, 64, 64, batch_facts(16));
  CHECK(p.kind == BatchPlanKind::kBatchParallel);
  CHECK(p.workers == 4);
  // 2 cores: no tiers.
  p = plan(1000, 64, 64, 64, batch_facts(2));
  CHECK(p.kind == BatchPlanKind::kBatchParallel);
  CHECK(p.workers == 2);
}

TEST_CASE("rule 7: explicit threads(n) is exact, capped by width and batch") {
  CHECK(plan(1000, 64, 64, 64, batch_facts(16), Parallelism::threads(3)).workers == 3);
  CHECK(plan(1000, 64, 64, 64, batch_facts(16), Parallelism::threads(50)).workers == 16);
  const BatchPlan p = plan(20, 64, 64, 64, batch_facts(64), Parallelism::threads(32));
  CHECK(p.kind == BatchPlanKind::kBatchParallel);
  CHECK(p.workers == 20);
}

TEST_CASE("rule 7: a count of 1 is serial, not batch_parallel(1)") {
  // 3 x 64^3 = 786 K >= threshold; / 2 M -> 1 worker.
  const BatchPlan p = plan(3, 64, 64, 64, batch_facts(16));
  CHECK(p.kind == BatchPlanKind::kSerial);
  CHECK(p.workers == 1);
}

TEST_CASE("the call path (explain = false) decides exactly as the printed plan, without text") {
  const Parallelism requests[] = {kAuto, Parallelism::serial(), Parallelism::threads(3)};
  for (const int cores : {1, 2, 16}) {
    for (const bool l3 : {true, false}) {
      const BatchFacts f = batch_facts(cores, l3);
      for (const Parallelism request : requests) {
        for (const std::uint64_t batch : {0, 1, 2, 7, 1000}) {
          for (const std::uint64_t m : {0, 1, 8, 64, 512}) {
            for (const std::uint64_t k : {0, 1, 64, 1024}) {
              const BatchShape shape{batch, m, 64, k, 4};
              const BatchPlan told = resolve_batch(shape, request, f, kCompute, {});
              const BatchPlan quiet = resolve_batch(shape, request, f, kCompute, {}, false);
              CHECK(quiet.kind == told.kind);
              CHECK(quiet.workers == told.workers);
              CHECK(quiet.reason.empty());
              CHECK_FALSE(told.reason.empty());
            }
          }
        }
      }
    }
  }
}

TEST_CASE("plans are printable with their kind, workers and reason") {
  const BatchPlan p = plan(1000, 64, 64, 64, batch_facts(16));
  const std::string text = p.to_string();
  CHECK(contains(text, "batch_parallel(16)"));
  CHECK(contains(text, "1000 elements of 64x64x64"));
  CHECK(std::string(batch_plan_kind_name(BatchPlanKind::kSequentialInternal)) ==
        "sequential_internal");
}

}  // namespace
}  // namespace tessera::core
