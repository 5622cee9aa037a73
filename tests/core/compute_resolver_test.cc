// The compute-bound resolver (design.md §Compute resolver) and the job-grain
// rules (§Job cursor), as pure functions with injected widths (2, 8, 16, 64
// cores) and knobs. Each test is named after the rule it checks.
#include <doctest/doctest.h>

#include <atomic>
#include <vector>

#include "core/src/parallel/compute_resolver.hpp"
#include "core/src/parallel/home_range_cursor.hpp"
#include "core/src/parallel/job_cursor.hpp"
#include "tessera/platform/pool_tiers.hpp"
#include "tests/core/gemm_test_util.hpp"

namespace tessera::core {
namespace {

ComputeKnobs x86() { return default_compute_knobs(platform::CpuArch::kX86_64); }

// A request on a pool of `width` participants with x86-64's default of two
// halving tiers (platform::default_pool_classes).
ComputeRequest request(std::uint64_t mnk, Parallelism p, int width, std::int64_t jobs = 1 << 20,
                       int pool_classes = 2) {
  ComputeRequest r;
  r.mnk = mnk;
  r.parallelism = p;
  r.width = width;
  r.pool_width = width;
  r.pool_classes = pool_classes;
  r.jobs = jobs;
  return r;
}

TEST_CASE("defaults per architecture: full width 110e6 on x86-64, 14e6 on aarch64") {
  CHECK(default_compute_knobs(platform::CpuArch::kX86_64).full_width_mnk == 110'000'000);
  CHECK(default_compute_knobs(platform::CpuArch::kAarch64).full_width_mnk == 14'000'000);
  CHECK(default_compute_knobs(platform::CpuArch::kX86_64).parallel_threshold == 48 * 48 * 256);
  CHECK(default_compute_knobs(platform::CpuArch::kX86_64).par_mnk_per_worker == 2'000'000);
  CHECK(platform::default_pool_classes(platform::CpuArch::kX86_64) == 2);
  CHECK(platform::default_pool_classes(platform::CpuArch::kAarch64) == 1);
  CHECK(platform::default_pool_classes(platform::CpuArch::kWasm32) == 0);
  Knobs knobs;
  knobs.parallel_threshold = 7;
  knobs.par_mnk_per_worker = 9;
  knobs.full_width_mnk = 11;
  knobs.parallel_oversample = 3;
  knobs.packed_oversample = 5;
  const ComputeKnobs k = compute_knobs(knobs, platform::CpuArch::kX86_64);
  CHECK(k.parallel_threshold == 7);
  CHECK(k.par_mnk_per_worker == 9);
  CHECK(k.full_width_mnk == 11);
  CHECK(k.parallel_oversample == 3);
  CHECK(k.packed_oversample == 5);
}

TEST_CASE("serial gate: below the threshold one worker, even for threads(n)") {
  const std::uint64_t below = 48 * 48 * 256 - 1;
  for (int width : {2, 8, 16, 64}) {
    for (Parallelism p : {Parallelism(), Parallelism::threads(4), Parallelism::threads(64)}) {
      const ComputePlan plan = resolve_compute(request(below, p, width), x86());
      CHECK(plan.workers == 1);
      CHECK(plan.rule == ComputeRule::kSerialGate);
      CHECK(plan.reason.find("TESSERA_PARALLEL_THRESHOLD") != std::string::npos);
    }
  }
  // The knob moves the gate.
  ComputeKnobs k = x86();
  k.parallel_threshold = 0;
  CHECK(resolve_compute(request(1, Parallelism::threads(3), 8), k).workers == 3);
}

TEST_CASE("serial request and nested calls: one worker") {
  CHECK(resolve_compute(request(1ull << 40, Parallelism::serial(), 64), x86()).rule ==
        ComputeRule::kSerialRequested);
  ComputeRequest nested = request(1ull << 40, Parallelism::threads(8), 64);
  nested.nested = true;
  const ComputePlan plan = resolve_compute(nested, x86());
  CHECK(plan.workers == 1);
  CHECK(plan.rule == ComputeRule::kNested);
}

TEST_CASE("explicit threads(n): exactly n, capped only by width and jobs") {
  const std::uint64_t big = 1ull << 30;
  CHECK(resolve_compute(request(big, Parallelism::threads(3), 8), x86()).workers == 3);
  CHECK(resolve_compute(request(big, Parallelism::threads(7), 8), x86()).workers == 7);
  // Not snapped onto a tier: 3 stays 3 on a 16-wide machine.
  const ComputePlan three = resolve_compute(request(big, Parallelism::threads(3), 16), x86());
  CHECK(three.workers == 3);
  CHECK(three.rule == ComputeRule::kExplicit);
  // It forks into the smallest pool holding it (16 -> tiers 4, 8; full 16).
  CHECK(three.tier == 4);
  CHECK(resolve_compute(request(big, Parallelism::threads(5), 16), x86()).tier == 8);
  // Width cap.
  const ComputePlan capped = resolve_compute(request(big, Parallelism::threads(100), 8), x86());
  CHECK(capped.workers == 8);
  CHECK(capped.reason.find("capped by width 8") != std::string::npos);
  // Jobs cap.
  const ComputePlan jobs = resolve_compute(request(big, Parallelism::threads(6), 8, 4), x86());
  CHECK(jobs.workers == 4);
  CHECK(jobs.reason.find("4 jobs") != std::string::npos);
  // Explicit ignores the mnk ramp: a small-but-gated-in problem still gets n.
  CHECK(resolve_compute(request(48 * 48 * 256, Parallelism::threads(8), 8), x86()).workers == 8);
}

TEST_CASE("automatic: mnk / per-worker, snapped down onto a tier below full width") {
  const ComputeKnobs k = x86();  // 2 pool classes
  // 64 cores: tiers 16, 32 (below full width 64).
  CHECK(resolve_compute(request(10'000'000, {}, 64), k).workers == 1);   // 5 -> below 16
  CHECK(resolve_compute(request(40'000'000, {}, 64), k).workers == 16);  // 20 -> 16
  CHECK(resolve_compute(request(100'000'000, {}, 64), k).workers == 32); // 50 -> 32
  // 16 cores: tiers 4, 8.
  const ComputePlan p = resolve_compute(request(20'000'000, {}, 16), k);  // 10 -> 8
  CHECK(p.workers == 8);
  CHECK(p.tier == 8);
  CHECK(p.rule == ComputeRule::kAutomaticTier);
  CHECK(resolve_compute(request(100'000'000, {}, 16), k).workers == 8);  // 50 -> cap 16 -> 8
  CHECK(resolve_compute(request(9'000'000, {}, 16), k).workers == 4);    // 4 -> 4
  CHECK(resolve_compute(request(7'000'000, {}, 16), k).workers == 1);    // 3 -> none <= 3
  // 8 cores: tiers 2, 4.
  CHECK(resolve_compute(request(13'000'000, {}, 8), k).workers == 4);    // 6 -> 4
  CHECK(resolve_compute(request(5'000'000, {}, 8), k).workers == 2);     // 2 -> 2
  // Jobs cap before snapping.
  CHECK(resolve_compute(request(60'000'000, {}, 16, 5), k).workers == 4);
}

TEST_CASE("max_threads_per_kernel below the pool width: tiers stay the pool's own") {
  // A pool of 8 (tiers 2, 4) with kernels limited to 6 participants.
  ComputeRequest r = request(13'000'000, {}, 6);  // 6 -> tier 4, not a halving of 6
  r.pool_width = 8;
  ComputePlan p = resolve_compute(r, x86());
  CHECK(p.workers == 4);
  CHECK(p.tier == 4);
  r.mnk = 1ull << 30;  // full width: 6 participants fork into the full pool
  p = resolve_compute(r, x86());
  CHECK(p.workers == 6);
  CHECK(p.tier == 8);
  r.parallelism = Parallelism::threads(3);  // the smallest pool holding 3
  p = resolve_compute(r, x86());
  CHECK(p.workers == 3);
  CHECK(p.tier == 4);
}

TEST_CASE("full width: from TESSERA_FULL_WIDTH_MNK the automatic path uses every core") {
  const ComputeKnobs k = x86();
  for (int width : {2, 8, 16, 64}) {
    const ComputePlan plan = resolve_compute(request(110'000'000, {}, width), k);
    CHECK(plan.workers == width);
    CHECK(plan.tier == width);
    CHECK(plan.rule == ComputeRule::kFullWidth);
  }
  // aarch64's lower threshold.
  const ComputeKnobs arm = default_compute_knobs(platform::CpuArch::kAarch64);
  CHECK(resolve_compute(request(14'000'000, {}, 8, 1 << 20, 1), arm).workers == 8);
  CHECK(resolve_compute(request(13'999'999, {}, 8, 1 << 20, 1), arm).workers == 4);  // 6 -> tier 4
  // Still capped by jobs.
  CHECK(resolve_compute(request(1ull << 32, {}, 64, 10), k).workers == 10);
}

TEST_CASE("no tiers (wasm pool): the automatic count is not snapped") {
  ComputeKnobs k = default_compute_knobs(platform::CpuArch::kWasm32);
  const ComputePlan plan = resolve_compute(request(7'000'000, {}, 8, 1 << 20, 0), k);
  CHECK(plan.workers == 3);
  CHECK(plan.rule == ComputeRule::kAutomatic);
}

TEST_CASE("pools of 2 or 3 (no tier below full width): the ramp's count, not 1") {
  const ComputeKnobs k = x86();  // 2 pool classes, none of which fits
  for (int width : {2, 3}) {
    CAPTURE(width);
    const ComputePlan two = resolve_compute(request(100'000'000, {}, width), k);  // 50
    CHECK(two.workers == width);
    CHECK(two.tier == width);
    CHECK(two.rule == ComputeRule::kAutomatic);
    CHECK(two.reason.find("no pool tier below full width " + std::to_string(width)) !=
          std::string::npos);
    // The ramp itself: m*n*k / 2e6 workers, capped by the width and jobs.
    CHECK(resolve_compute(request(5'000'000, {}, width), k).workers == 2);       // 2
    CHECK(resolve_compute(request(3'000'000, {}, width), k).workers == 1);       // 1
    CHECK(resolve_compute(request(100'000'000, {}, width, 1), k).workers == 1);  // 1 job
  }
  CHECK(resolve_compute(request(7'000'000, {}, 3), k).workers == 3);  // 3
  // From 4 cores a tier of 2 exists, and products below full width snap.
  CHECK(resolve_compute(request(100'000'000, {}, 4), k).workers == 2);
  CHECK(resolve_compute(request(100'000'000, {}, 4), k).rule == ComputeRule::kAutomaticTier);
}

TEST_CASE("the per-worker knob scales the automatic ramp") {
  ComputeKnobs k = default_compute_knobs(platform::CpuArch::kWasm32);
  k.par_mnk_per_worker = 1'000'000;
  CHECK(resolve_compute(request(7'000'000, {}, 8, 1 << 20, 0), k).workers == 7);
}

TEST_CASE("generic grain: about oversample chunks per worker") {
  const GrainPlan g = generic_grain(1000, 4, 8);
  CHECK(g.kind == GrainKind::kGeneric);
  CHECK(g.grain == 32);  // ceil(1000 / 32)
  CHECK(g.chunks == 32);
  CHECK(generic_grain(5, 4, 8).grain == 1);
  CHECK(generic_grain(0, 4, 8).grain == 1);
  CHECK(generic_grain(1000, 1, 1).grain == 1000);
}

TEST_CASE("packed-LHS grain: whole row blocks, split by powers of two dividing n_nt") {
  // Enough row blocks: whole row blocks.
  GrainPlan g = packed_lhs_grain(16, 32, 4, 2);
  CHECK(g.grain == 32);
  CHECK(g.sub_blocks == 1);
  CHECK(g.chunks == 16);
  // 2 row blocks, 8 workers, target 16 chunks: split by 8.
  g = packed_lhs_grain(2, 32, 8, 2);
  CHECK(g.sub_blocks == 8);
  CHECK(g.grain == 4);
  CHECK(g.chunks == 16);
  // Only factors of n_nt: 12 = 4 * 3 splits by at most 4.
  g = packed_lhs_grain(1, 12, 8, 2);
  CHECK(g.sub_blocks == 4);
  CHECK(g.grain == 3);
  // An odd n_nt is never split.
  g = packed_lhs_grain(1, 7, 8, 2);
  CHECK(g.sub_blocks == 1);
  CHECK(g.grain == 7);
  // Every chunk lies inside one row block.
  for (std::int64_t n_nt : {1, 2, 6, 16, 40}) {
    for (int workers : {1, 2, 3, 8, 64}) {
      const GrainPlan p = packed_lhs_grain(3, n_nt, workers, 2);
      CHECK(n_nt % p.grain == 0);
    }
  }
}

TEST_CASE("shared A prepack: at 16 workers, or when private packing would repeat") {
  CHECK(use_shared_a_prepack(16, packed_lhs_grain(100, 8, 16, 2)));
  CHECK_FALSE(use_shared_a_prepack(4, packed_lhs_grain(100, 8, 4, 2)));
  CHECK(use_shared_a_prepack(4, packed_lhs_grain(1, 8, 4, 2)));
  CHECK_FALSE(use_shared_a_prepack(1, packed_lhs_grain(1, 8, 1, 2)));
}

TEST_CASE("row blocks shrink for many workers but stay multiples of mr") {
  CHECK(row_block_for_workers(280, 1000, 14, 1) == 280);
  CHECK(row_block_for_workers(280, 1000, 14, 2) == 252);  // ceil(1000/4)=250 -> 252
  CHECK(row_block_for_workers(280, 1000, 14, 64) == 14);
  CHECK(row_block_for_workers(280, 100, 14, 2) == 28);    // 25 -> 28
}

// Claims every chunk of 10007 jobs from `participants` threads through
// claim(participant, &b, &e) and counts what went wrong: chunks longer than
// `grain`, empty chunks, and jobs not claimed exactly once.
struct ClaimFaults {
  int oversized = 0, empty = 0, wrong = 0;
};
constexpr std::int64_t kClaimJobs = 10007;
template <class Claim>
ClaimFaults claim_every_job(int participants, std::int64_t grain, Claim claim) {
  std::vector<std::atomic<int>> seen(kClaimJobs);
  std::atomic<int> oversized{0}, empty{0};
  auto executor = test::gemm::wide_executor(8);
  executor->run(participants, [&](int participant) {
    std::int64_t b, e;
    while (claim(participant, &b, &e)) {
      if (e - b > grain) oversized.fetch_add(1);
      if (b >= e) empty.fetch_add(1);
      for (std::int64_t q = b; q < e; ++q) seen[q].fetch_add(1, std::memory_order_relaxed);
    }
  });
  ClaimFaults faults;
  faults.oversized = oversized.load();
  faults.empty = empty.load();
  for (auto& s : seen) faults.wrong += s.load() != 1;
  return faults;
}

TEST_CASE("job cursor: every job claimed exactly once under contention") {
  for (std::int64_t grain : {1, 3, 64}) {
    JobCursor cursor(kClaimJobs, grain);
    const ClaimFaults faults =
        claim_every_job(8, grain, [&](int, std::int64_t* b, std::int64_t* e) {
          return cursor.next_chunk(b, e);
        });
    CHECK(faults.oversized == 0);
    CHECK(faults.wrong == 0);
    std::int64_t b, e;
    CHECK_FALSE(cursor.next_chunk(&b, &e));
  }
  JobCursor empty(0, 4);
  std::int64_t b, e;
  CHECK_FALSE(empty.next_chunk(&b, &e));
}

TEST_CASE("home range cursor: every job claimed exactly once under contention") {
  for (std::int64_t grain : {1, 3, 64}) {
    for (int w : {1, 3, 8}) {
      HomeRangeCursor cursor(kClaimJobs, grain, w);
      const ClaimFaults faults =
          claim_every_job(w, grain, [&](int p, std::int64_t* b, std::int64_t* e) {
            return cursor.next_chunk(p, b, e);
          });
      CHECK(faults.oversized + faults.empty == 0);
      CHECK(faults.wrong == 0);
      std::int64_t b, e;
      for (int p = 0; p < w; ++p) CHECK_FALSE(cursor.next_chunk(p, &b, &e));
    }
  }
  HomeRangeCursor empty(0, 4, 3);
  std::int64_t b, e;
  CHECK_FALSE(empty.next_chunk(2, &b, &e));
}

TEST_CASE("home range cursor: a participant starts on its own range, then takes the others'") {
  // 100 jobs in chunks of 10 over 3 participants: home ranges of chunks
  // [0, 3), [3, 6), [6, 10).
  HomeRangeCursor cursor(100, 10, 3);
  std::int64_t b, e;
  REQUIRE(cursor.next_chunk(1, &b, &e));
  CHECK(b == 30);
  CHECK(e == 40);
  REQUIRE(cursor.next_chunk(2, &b, &e));
  CHECK(b == 60);
  // Participant 0 takes its three chunks in order, then the rest of
  // participant 1's range (chunks 4 and 5), then participant 2's.
  std::vector<std::int64_t> starts;
  while (cursor.next_chunk(0, &b, &e)) starts.push_back(b);
  CHECK(starts == std::vector<std::int64_t>{0, 10, 20, 40, 50, 70, 80, 90});
  // A last chunk shorter than the grain.
  HomeRangeCursor tail(25, 10, 2);
  REQUIRE(tail.next_chunk(1, &b, &e));
  CHECK(b == 10);
  REQUIRE(tail.next_chunk(1, &b, &e));
  CHECK(b == 20);
  CHECK(e == 25);
}

}  // namespace
}  // namespace tessera::core
