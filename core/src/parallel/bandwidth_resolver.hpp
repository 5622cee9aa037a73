// The bandwidth-bound worker-count resolver (design.md §Bandwidth resolver) for
// gemv, dot and other kernels that do O(1) arithmetic per byte. The compute
// ramp of GEMM does not apply: what decides is whether the bytes touched still
// fit one core's cache.
//
// Rules, in order (each is a test in tests/core/bandwidth_resolver_test.cc):
//  1. serial(), or a context/kernel width of 1 -> 1 worker.
//  2. The floor: bytes touched below the parallel floor -> 1 worker, even
//     for an explicit threads(n) (as GEMM's serial gate: splitting a vector
//     one core streams from its own cache only adds fork/join and shared-
//     cache contention).
//     The floor comes from the cache model: with an L3, one core's private
//     L2; without an L3, half of the (shared, cluster) L2 — the cluster's
//     other cores use the rest, so a working set past half of it already
//     spills; with no cache facts (wasm, unknown systems) 1 MiB, a typical
//     private L2 of current x86 and Arm cores.
//     TESSERA_GEMV_PARALLEL_BYTES replaces the floor.
//  3. Explicit threads(n): exactly n, capped by the width and by the jobs.
//  4. TESSERA_GEMV_THREAD_CAP: replaces the ladder with that fixed width
//     (capped by the width and the jobs).
//  5. The ladder: the rungs are the pool's tiers, all below its full width
//     (platform/pool_tiers.hpp). At the floor the smallest rung;
//     one rung up for every TESSERA_GEMV_TIER_STEP x (default 8) more bytes;
//     never past the largest rung. gemv saturates memory bandwidth before it
//     runs out of cores, so full width is not on the ladder. No gradual ramp:
//     a few workers is the dip of the bandwidth curve (fork/join paid,
//     bandwidth not yet won), so the count jumps from 1 to a rung.
//     Decision: a context with no tier strictly between 1 and full width
//     (full width <= 3, or TESSERA_POOL_CLASSES = 0) has a one-rung ladder:
//     full width. The alternative — never parallel — would leave a 2-core
//     machine's second core, and its share of bandwidth, idle on every
//     vector larger than the cache.
//  6. The result never exceeds the number of jobs (e.g. register panels of
//     rows), and a result of 1 is serial.
// A pure function of its arguments.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/src/parallel/cache_facts.hpp"
#include "tessera/knobs.hpp"
#include "tessera/parallelism.hpp"
#include "tessera/platform/topology.hpp"

namespace tessera::core {

// The cache facts the floor needs.
inline constexpr std::uint64_t kDefaultGemvFloorBytes = std::uint64_t{1} << 20;
inline constexpr std::uint32_t kDefaultGemvTierStep = 8;

// The floor and where it came from: plain numbers, so that the call path of
// a 16-element dot decides without building text; reason() writes it.
struct GemvFloor {
  enum class Source { kKnob, kPrivateL2, kSharedL2, kDefault };
  std::uint64_t bytes = 0;
  Source source = Source::kDefault;
  std::uint64_t l2 = 0;  // the L2 the floor derives from (kPrivateL2, kSharedL2)
  // "one core's private L2 (1 MiB)", "TESSERA_GEMV_PARALLEL_BYTES", ...
  std::string reason() const;
};
inline GemvFloor gemv_parallel_floor(const CacheFacts& cache, const Knobs& knobs) {
  using Source = GemvFloor::Source;
  if (knobs.gemv_parallel_bytes) return {*knobs.gemv_parallel_bytes, Source::kKnob, 0};
  if (cache.l2 != 0 && cache.l3 != 0) return {cache.l2, Source::kPrivateL2, cache.l2};
  if (cache.l2 != 0) return {cache.l2 / 2, Source::kSharedL2, cache.l2};
  return {kDefaultGemvFloorBytes, Source::kDefault, 0};
}

// Where a bandwidth-bound call may run.
struct BandwidthFacts {
  int width = 1;            // the participants one kernel may use (context
                            // effective threads lowered by max per kernel)
  int pool_width = 0;       // the executor's width (0: the same as width)
  // platform::pool_tier_widths(pool_width, pool classes): the pool's
  // sub-pools, ascending, all below pool_width.
  std::vector<int> tiers;
  CacheFacts cache;
};

struct BandwidthPlan {
  int workers = 1;
  std::uint64_t bytes = 0;        // bytes touched
  std::uint64_t floor_bytes = 0;  // the parallel floor in force
  std::string reason;
  // "4 workers: 12 MiB touched >= 8 x floor 1 MiB -> rung 2 of {2,4}"
  std::string to_string() const;
};

// Rules 1 and 2, the decision alone: true when the call runs on one worker
// whatever else holds. resolve_bandwidth decides with it first; the call
// paths test it inline and skip the resolver (its call is a third of a
// 16-element dot).
inline bool bandwidth_serial(std::uint64_t bytes, Parallelism request, const BandwidthFacts& facts,
                             const Knobs& knobs) {
  return request.is_serial() || facts.width <= 1 || bytes == 0 ||
         bytes < gemv_parallel_floor(facts.cache, knobs).bytes;
}

// bytes: bytes the call touches (reads + writes). jobs: the most pieces the
// call can be split into (0 = unlimited).
// explain = false leaves `reason` empty: the call paths decide without
// formatting text.
BandwidthPlan resolve_bandwidth(std::uint64_t bytes, std::uint64_t jobs,
                                Parallelism request, const BandwidthFacts& facts,
                                const Knobs& knobs, bool explain = true);

}  // namespace tessera::core
