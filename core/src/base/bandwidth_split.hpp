// The worker count and the split of a bandwidth-bound operation (dot, gemv,
// last-axis reductions, softmax): the bandwidth resolver (design.md §Bandwidth resolver) fed
// with the context's facts, then execute_ranges over whole units.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "core/src/base/context_state.hpp"
#include "core/src/parallel/bandwidth_resolver.hpp"
#include "core/src/parallel/execute_ranges.hpp"

namespace tessera::core {

// Workers for `bytes` touched over `jobs` indivisible units; a call nested in
// a parallel region runs serially. The inline serial test comes first: a
// small call then never asks the platform for its parallel depth (an
// out-of-line call).
inline BandwidthPlan plan_bandwidth_workers(const detail::ContextState& state,
                                            std::uint64_t bytes, std::uint64_t jobs,
                                            Parallelism parallelism) {
  if (bandwidth_serial(bytes, parallelism, state.parallel_facts, state.knobs) ||
      state.nested_call()) {
    return {};
  }
  return resolve_bandwidth(bytes, jobs, parallelism, state.parallel_facts, state.knobs,
                           /*explain=*/false);
}

// [0, total) in blocks of `multiple` units over `workers` participants.
// One worker: fn(0, total) on the caller, directly. The callbacks of these
// operations are leaf kernels that call nothing that could nest, so they
// need no ParallelBodyScope, and a small call skips the executor's
// bookkeeping.
template <class F>
inline void run_bandwidth_split(const detail::ContextState& state, int workers, std::size_t total,
                                std::size_t multiple, F&& fn) {
  if (workers <= 1) {
    if (total > 0) fn(std::size_t{0}, total);
    return;
  }
  RangeTarget target = state.range_target();
  target.width = std::min(target.width, workers);
  const RangeSchedule schedule{multiple, multiple, workers, workers};
  execute_ranges(target, total, schedule, fn);
}

}  // namespace tessera::core
