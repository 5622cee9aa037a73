// The bandwidth-bound resolver (design.md §Bandwidth resolver): one test per
// rule, with injected machines (2, 8, 16, 64 cores; with and without L3) and
// knobs.
#include "core/src/parallel/bandwidth_resolver.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "support/test_support.hpp"
#include "tessera/platform/pool_tiers.hpp"

namespace tessera::core {
namespace {

constexpr std::uint64_t kKiB = 1024;
using test::kMiB;

// A context of `cores` participants on a machine with a 1 MiB private L2
// and (optionally) a 32 MiB L3, tiers per TESSERA_POOL_CLASSES = classes.
BandwidthFacts bandwidth_facts(int cores, bool l3 = true, int classes = 2) {
  const platform::Topology t =
      platform::make_synthetic_topology(cores, 1, 1 * kMiB, l3 ? 32 * kMiB : 0);
  BandwidthFacts f;
  f.width = cores;
  f.pool_width = cores;
  f.tiers = platform::pool_tier_widths(cores, classes);
  f.cache = CacheFacts::from_topology(t);
  return f;
}

using test::kAuto;

using test::contains;

TEST_CASE("rule 1: serial() is one worker whatever the size") {
  const BandwidthPlan p =
      resolve_bandwidth(1ull << 40, 0, Parallelism::serial(), bandwidth_facts(16), Knobs{});
  CHECK(p.workers == 1);
  CHECK(contains(p.reason, "serial"));
}

TEST_CASE("rule 1: a width of 1 is one worker") {
  BandwidthFacts f = bandwidth_facts(16);
  f.width = 1;
  CHECK(resolve_bandwidth(1ull << 40, 0, Parallelism::threads(8), f, Knobs{}).workers == 1);
}

TEST_CASE("rule 2: the floor with an L3 is one core's private L2") {
  const GemvFloor floor = gemv_parallel_floor(CacheFacts{0, 1 * kMiB, 32 * kMiB, ""}, Knobs{});
  CHECK(floor.bytes == 1 * kMiB);
  CHECK(contains(floor.reason(), "private L2"));
}

TEST_CASE("rule 2: the floor without an L3 is half of the shared L2") {
  const GemvFloor floor = gemv_parallel_floor(CacheFacts{0, 4 * kMiB, 0, ""}, Knobs{});
  CHECK(floor.bytes == 2 * kMiB);
  CHECK(contains(floor.reason(), "no L3"));
}

TEST_CASE("rule 2: without cache facts the floor is the documented 1 MiB default") {
  CHECK(gemv_parallel_floor(CacheFacts{}, Knobs{}).bytes == kDefaultGemvFloorBytes);
  CHECK(kDefaultGemvFloorBytes == 1 * kMiB);
}

TEST_CASE("rule 2: TESSERA_GEMV_PARALLEL_BYTES replaces the floor") {
  Knobs k;
  k.gemv_parallel_bytes = 123 * kKiB;
  const GemvFloor floor = gemv_parallel_floor(CacheFacts{0, 1 * kMiB, 32 * kMiB, ""}, k);
  CHECK(floor.bytes == 123 * kKiB);
  CHECK(floor.reason() == "TESSERA_GEMV_PARALLEL_BYTES");
  CHECK(resolve_bandwidth(123 * kKiB - 1, 0, kAuto, bandwidth_facts(16), k).workers == 1);
  CHECK(resolve_bandwidth(123 * kKiB, 0, kAuto, bandwidth_facts(16), k).workers == 4);
}

TEST_CASE("rule 2: below the floor is serial, even for an explicit threads(n)") {
  for (int cores : {2, 8, 16, 64}) {
    for (bool l3 : {true, false}) {
      const BandwidthFacts f = bandwidth_facts(cores, l3);
      const std::uint64_t floor = gemv_parallel_floor(f.cache, Knobs{}).bytes;
      CHECK(resolve_bandwidth(floor - 1, 0, kAuto, f, Knobs{}).workers == 1);
      const BandwidthPlan explicit_plan =
          resolve_bandwidth(floor - 1, 0, Parallelism::threads(cores), f, Knobs{});
      CHECK(explicit_plan.workers == 1);
      CHECK(contains(explicit_plan.reason, "< floor"));
      CHECK(resolve_bandwidth(0, 0, kAuto, f, Knobs{}).workers == 1);
    }
  }
}

TEST_CASE("rule 3: explicit threads(n) is exact above the floor, capped by width and jobs") {
  const BandwidthFacts f = bandwidth_facts(16);
  CHECK(resolve_bandwidth(4 * kMiB, 0, Parallelism::threads(3), f, Knobs{}).workers == 3);
  CHECK(resolve_bandwidth(4 * kMiB, 0, Parallelism::threads(16), f, Knobs{}).workers == 16);
  CHECK(resolve_bandwidth(4 * kMiB, 0, Parallelism::threads(40), f, Knobs{}).workers == 16);
  CHECK(resolve_bandwidth(4 * kMiB, 5, Parallelism::threads(12), f, Knobs{}).workers == 5);
}

TEST_CASE("rule 4: TESSERA_GEMV_THREAD_CAP replaces the ladder with a fixed width") {
  Knobs k;
  k.gemv_thread_cap = 3;
  const BandwidthFacts f = bandwidth_facts(16);
  for (std::uint64_t bytes : {1 * kMiB, 8 * kMiB, 1024 * kMiB}) {
    const BandwidthPlan p = resolve_bandwidth(bytes, 0, kAuto, f, k);
    CHECK(p.workers == 3);
    CHECK(contains(p.reason, "TESSERA_GEMV_THREAD_CAP"));
  }
  k.gemv_thread_cap = 100;
  CHECK(resolve_bandwidth(8 * kMiB, 0, kAuto, f, k).workers == 16);
  // The cap never lifts the floor.
  CHECK(resolve_bandwidth(kMiB / 2, 0, kAuto, f, k).workers == 1);
}

TEST_CASE("rule 5: at the floor the smallest rung; one rung up per 8x bytes; never full width") {
  // 16 cores, 2 classes: tiers (the ladder) {4, 8}.
  const BandwidthFacts f = bandwidth_facts(16);
  CHECK(f.tiers == std::vector<int>{4, 8});
  CHECK(resolve_bandwidth(1 * kMiB, 0, kAuto, f, Knobs{}).workers == 4);
  CHECK(resolve_bandwidth(8 * kMiB - 1, 0, kAuto, f, Knobs{}).workers == 4);
  CHECK(resolve_bandwidth(8 * kMiB, 0, kAuto, f, Knobs{}).workers == 8);
  CHECK(resolve_bandwidth(64 * kMiB, 0, kAuto, f, Knobs{}).workers == 8);
  CHECK(resolve_bandwidth(1ull << 50, 0, kAuto, f, Knobs{}).workers == 8);

  // 64 cores, 3 classes: tiers (the ladder) {8, 16, 32}.
  Knobs three;
  const BandwidthFacts g = bandwidth_facts(64, true, 3);
  CHECK(g.tiers == std::vector<int>{8, 16, 32});
  CHECK(resolve_bandwidth(1 * kMiB, 0, kAuto, g, three).workers == 8);
  CHECK(resolve_bandwidth(8 * kMiB, 0, kAuto, g, three).workers == 16);
  CHECK(resolve_bandwidth(64 * kMiB, 0, kAuto, g, three).workers == 32);
  CHECK(resolve_bandwidth(512 * kMiB, 0, kAuto, g, three).workers == 32);

  // 8 cores without an L3: floor = 512 KiB, tiers (the ladder) {2, 4}.
  const BandwidthFacts h = bandwidth_facts(8, false);
  CHECK(resolve_bandwidth(512 * kKiB, 0, kAuto, h, Knobs{}).workers == 2);
  CHECK(resolve_bandwidth(4 * kMiB, 0, kAuto, h, Knobs{}).workers == 4);
  CHECK(resolve_bandwidth(1024 * kMiB, 0, kAuto, h, Knobs{}).workers == 4);
}

TEST_CASE("rule 5: TESSERA_GEMV_TIER_STEP sets the bytes factor between rungs") {
  Knobs k;
  k.gemv_tier_step = 2;
  const BandwidthFacts f = bandwidth_facts(64, true, 3);  // ladder {8, 16, 32}
  CHECK(resolve_bandwidth(1 * kMiB, 0, kAuto, f, k).workers == 8);
  CHECK(resolve_bandwidth(2 * kMiB, 0, kAuto, f, k).workers == 16);
  CHECK(resolve_bandwidth(4 * kMiB, 0, kAuto, f, k).workers == 32);
}

TEST_CASE("rule 5: no gradual ramp: the count is 1 below the floor, else exactly a rung") {
  for (int cores : {8, 16, 64}) {
    const BandwidthFacts f = bandwidth_facts(cores, true, 3);
    const std::vector<int> rungs = f.tiers;
    int previous = 1;
    for (std::uint64_t bytes = 1024; bytes < (1ull << 42); bytes = bytes * 5 / 4 + 1) {
      const int w = resolve_bandwidth(bytes, 0, kAuto, f, Knobs{}).workers;
      CHECK((w == 1 || std::find(rungs.begin(), rungs.end(), w) != rungs.end()));
      CHECK(w >= previous);  // monotone in bytes
      previous = w;
    }
    CHECK(previous == rungs.back());
  }
}

TEST_CASE("rule 5: with no tier between 1 and full width, the ladder is full width") {
  // 2 cores: no tier (a halving of 2 is the caller alone).
  const BandwidthFacts two = bandwidth_facts(2);
  CHECK(two.tiers.empty());
  CHECK(resolve_bandwidth(1 * kMiB - 1, 0, kAuto, two, Knobs{}).workers == 1);
  CHECK(resolve_bandwidth(1 * kMiB, 0, kAuto, two, Knobs{}).workers == 2);
  CHECK(resolve_bandwidth(1ull << 40, 0, kAuto, two, Knobs{}).workers == 2);
  // TESSERA_POOL_CLASSES = 0: no tiers below full width.
  const BandwidthFacts flat = bandwidth_facts(8, true, 0);
  CHECK(flat.tiers.empty());
  CHECK(resolve_bandwidth(1 * kMiB, 0, kAuto, flat, Knobs{}).workers == 8);
}

TEST_CASE("rule 5: a rung above the kernel's width snaps down onto a tier") {
  BandwidthFacts f = bandwidth_facts(16);  // tiers {4, 8}
  f.width = 6;                   // max_threads_per_kernel = 6
  CHECK(resolve_bandwidth(64 * kMiB, 0, kAuto, f, Knobs{}).workers == 4);
  f.width = 3;  // no tier fits: the width itself
  CHECK(resolve_bandwidth(64 * kMiB, 0, kAuto, f, Knobs{}).workers == 3);
}

TEST_CASE("rule 6: never more workers than jobs") {
  const BandwidthFacts f = bandwidth_facts(16);
  const BandwidthPlan p = resolve_bandwidth(64 * kMiB, 3, kAuto, f, Knobs{});
  CHECK(p.workers == 3);
  CHECK(contains(p.reason, "3 jobs"));
  CHECK(resolve_bandwidth(64 * kMiB, 1, kAuto, f, Knobs{}).workers == 1);
}

TEST_CASE("plans print their count, the bytes, the floor and the rule") {
  const BandwidthPlan p = resolve_bandwidth(8 * kMiB, 0, kAuto, bandwidth_facts(16), Knobs{});
  const std::string text = p.to_string();
  CHECK(contains(text, "8 workers"));
  CHECK(contains(text, "8 MiB touched >= floor 1 MiB"));
  CHECK(contains(text, "ladder {4,8}"));
  CHECK(p.floor_bytes == 1 * kMiB);
  CHECK(p.bytes == 8 * kMiB);
}

TEST_CASE("the call path (explain = false) decides exactly as the printed plan, without text") {
  Knobs capped;
  capped.gemv_thread_cap = 3;
  Knobs floor_knob;
  floor_knob.gemv_parallel_bytes = 64 * kKiB;
  const Parallelism requests[] = {kAuto, Parallelism::serial(), Parallelism::threads(2),
                                  Parallelism::threads(40)};
  for (const int cores : {1, 2, 8, 16, 64}) {
    for (const bool l3 : {true, false}) {
      const BandwidthFacts f = bandwidth_facts(cores, l3);
      for (const Knobs& knobs : {Knobs{}, capped, floor_knob}) {
        for (const Parallelism request : requests) {
          for (std::uint64_t bytes = 0; bytes < (std::uint64_t{1} << 36);
               bytes = bytes * 3 + 1000) {
            for (const std::uint64_t jobs : {std::uint64_t{0}, std::uint64_t{1}, std::uint64_t{5}}) {
              const BandwidthPlan told = resolve_bandwidth(bytes, jobs, request, f, knobs);
              const BandwidthPlan quiet = resolve_bandwidth(bytes, jobs, request, f, knobs, false);
              CHECK(quiet.workers == told.workers);
              CHECK(quiet.floor_bytes == told.floor_bytes);
              CHECK(quiet.reason.empty());
              CHECK_FALSE(told.reason.empty());
            }
          }
        }
      }
    }
  }
}

}  // namespace
}  // namespace tessera::core
