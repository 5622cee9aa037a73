// execute_ranges: split a one-dimensional total into contiguous blocks and
// run them on an executor (design.md §execute_ranges).
//
// It replaces the serial loop
//     fn(0, total);
// and calls fn(begin, end) on disjoint blocks covering [0, total) exactly
// once each. The executor and the width a kernel may use arrive explicitly
// (RangeTarget, from the Context: ContextState::range_target()), the same
// road GEMM takes; there is no thread-local "current executor". Every
// callback runs inside a ParallelBodyScope, so a nested execute_ranges (or
// any tessera kernel) called from a callback sees parallel_body_depth() > 0
// and runs as one block. The blocks never depend on anything but (total,
// schedule, width, depth), and kernels write only their own block: outputs
// do not depend on the worker count.
#pragma once

#include <cstddef>

#include "tessera/platform/executor.hpp"
#include "tessera/platform/function_ref.hpp"

namespace tessera::core {

// Where a range runs. A null executor (or width 1) runs one block on the
// caller; `nested` (a call from inside a parallel region that may not
// nest) does too.
struct RangeTarget {
  platform::Executor* executor = nullptr;
  int width = 1;  // participants one kernel may use (<= executor->width())
  bool nested = false;
};

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

// Pure planning rule, exposed for tests: `width` is the kernel's width (1
// when there is no executor), `depth` > 0 when the call is nested.
RangePlan plan_ranges(std::size_t total, const RangeSchedule& schedule,
                      int width, int depth) noexcept;

// Whether plan_ranges gives at most one block for `total` whatever the
// width and depth: fewer than two min_block pieces of work. A caller whose
// callback is a leaf kernel then calls it directly, without the executor's
// bookkeeping (most of a 16-element elementwise call's fixed cost).
inline bool always_one_block(std::size_t total, const RangeSchedule& schedule) noexcept {
  return total / (schedule.min_block > 1 ? schedule.min_block : 1) <= 1;
}

void execute_ranges(const RangeTarget& target, std::size_t total,
                    const RangeSchedule& schedule,
                    FunctionRef<void(std::size_t, std::size_t)> fn);

// What one unit of a costed range touches and computes
// (design.md §execute_ranges).
struct RangeCost {
  double bytes_read = 0;       // bytes loaded per unit
  double bytes_written = 0;    // bytes stored per unit
  double compute_cycles = 0;   // arithmetic cycles per unit, on one core
  // Block boundaries (all but the final end) are multiples of this.
  std::size_t block_multiple = 1;
};

// The cost model, in cycles of one core at a nominal 3 GHz (the exact clock
// does not matter: only the ratio to the per-block target does):
//   cycles(unit) = 0.3 * bytes_read + 0.6 * bytes_written + compute_cycles
// 0.3 cycles per byte read is ~10 GB/s streamed by one core, a conservative
// out-of-cache rate for current x86 and Arm cores; a byte written costs
// twice that (read-for-ownership plus the write-back).
inline constexpr double kCyclesPerByteRead = 0.3;
inline constexpr double kCyclesPerByteWritten = 0.6;
// Every block gets at least this much work: 16 us at 3 GHz. A dispatch to
// spinning workers costs ~1 us and to parked ones tens of us (~45 us to wake
// a sleeping thread on the 2-core VMs tessera is measured on), so smaller
// blocks would spend a large share of their time on the fork/join.
inline constexpr double kMinBlockCycles = 48'000;

// Cycles one unit costs under the model above (at least 1e-3, so a zero or
// negative cost is treated as nearly free rather than dividing by zero).
double range_unit_cycles(const RangeCost& cost) noexcept;

// Pure planning rule, exposed for tests: blocks of at least kMinBlockCycles
// of work each, at most one block per participant (so at most `width`
// blocks), boundaries on block_multiple; one serial block when the whole
// total is worth less than two blocks, when width <= 1 or when nested.
RangePlan plan_costed_ranges(std::size_t total, const RangeCost& cost, int width,
                             int depth) noexcept;

// Like execute_ranges, with the grain and the participant count planned
// from `cost` instead of a schedule. Same execution path and contract:
// disjoint blocks covering [0, total) once each, each inside a
// ParallelBodyScope; nested or executor-less calls are one block on the
// caller.
void execute_costed_ranges(const RangeTarget& target, std::size_t total,
                           const RangeCost& cost,
                           FunctionRef<void(std::size_t, std::size_t)> fn);

}  // namespace tessera::core
