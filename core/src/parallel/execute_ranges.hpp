// execute_ranges: split a one-dimensional total into contiguous blocks and
// run them on the current executor (SPEC 2.6).
//
// It replaces the serial loop
//     fn(0, total);
// and calls fn(begin, end) on disjoint blocks covering [0, total) exactly
// once each. Every callback runs inside a RegionScope, so a nested
// execute_ranges sees region_depth() > 0 and runs its own total as one block.
// Outside any ExecutorScope there is no executor: one block, on the caller.
// The blocks never depend on anything but (total, schedule, executor width,
// depth), and kernels write only their own block: outputs do not depend on
// the worker count.
#pragma once

#include <cstddef>

#include "tessera/platform/function_ref.hpp"

namespace tessera::core {

struct RangeSchedule {
  // A block smaller than this is not worth a participant of its own.
  std::size_t min_block = 1;
  // Block boundaries (all but the final end) are multiples of this, e.g. a
  // SIMD width or a cache line of elements.
  std::size_t block_multiple = 1;
  // At most this many participants (0: no limit beyond the executor width).
  int max_participants = 0;
  // If > 0, use this many participants when the other limits allow.
  int preferred_participants = 0;
};

// The block layout execute_ranges will use: `blocks` blocks of `block_size`
// elements (the last one shorter). blocks == 1 means one serial call.
struct RangePlan {
  std::size_t block_size = 0;
  int blocks = 1;
};

// Pure planning rule, exposed for tests: `width` is the executor's width (1
// when there is none), `depth` the caller's region depth.
RangePlan plan_ranges(std::size_t total, const RangeSchedule& schedule,
                      int width, int depth) noexcept;

void execute_ranges(std::size_t total, const RangeSchedule& schedule,
                    FunctionRef<void(std::size_t, std::size_t)> fn);

}  // namespace tessera::core
