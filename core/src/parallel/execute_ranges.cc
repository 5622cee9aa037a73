#include "core/src/parallel/execute_ranges.hpp"

#include <algorithm>
#include <cmath>

#include "tessera/platform/executor.hpp"

namespace tessera::core {

RangePlan plan_ranges(std::size_t total, const RangeSchedule& schedule,
                      int width, int depth) noexcept {
  RangePlan plan;
  plan.block_size = total;
  if (total == 0) {
    plan.blocks = 0;
    return plan;
  }
  const std::size_t min_block = std::max<std::size_t>(1, schedule.min_block);
  const std::size_t multiple =
      std::max<std::size_t>(1, schedule.block_multiple);
  if (depth > 0 || width <= 1 || total <= min_block) return plan;

  std::size_t limit = static_cast<std::size_t>(width);
  if (schedule.max_participants > 0) {
    limit = std::min(limit, static_cast<std::size_t>(schedule.max_participants));
  }
  if (schedule.preferred_participants > 0) {
    limit = std::min(limit,
                     static_cast<std::size_t>(schedule.preferred_participants));
  }
  // No more blocks than there are min_block-sized pieces of work.
  limit = std::min(limit, total / min_block);
  if (limit <= 1) return plan;

  std::size_t block = (total + limit - 1) / limit;
  block = (block + multiple - 1) / multiple * multiple;
  const std::size_t blocks = (total + block - 1) / block;
  if (blocks <= 1) return plan;
  plan.block_size = block;
  plan.blocks = static_cast<int>(blocks);
  return plan;
}

namespace {

// The executable width and depth of a target: no executor is width 1, a
// nested target is depth 1 (one block), whatever the thread's real depth.
int width_of(const RangeTarget& t) { return t.executor != nullptr ? t.width : 1; }
int depth_of(const RangeTarget& t) {
  return t.nested ? 1 : platform::parallel_body_depth();
}

// The one execution path of both entry points: `plan` decides, this runs.
// Callbacks run inside a ParallelBodyScope (the executor's own scope, if it
// keeps one, nests harmlessly), so whatever a callback calls runs serially.
void run_plan(platform::Executor* executor, std::size_t total, const RangePlan& plan,
              FunctionRef<void(std::size_t, std::size_t)> fn) {
  if (plan.blocks == 0) return;
  if (plan.blocks == 1) {
    const platform::ParallelBodyScope region;
    fn(0, total);
    return;
  }
  executor->run(plan.blocks, [&](int participant) {
    const platform::ParallelBodyScope region;
    const std::size_t begin = static_cast<std::size_t>(participant) * plan.block_size;
    const std::size_t end = std::min(total, begin + plan.block_size);
    fn(begin, end);
  });
}

}  // namespace

void execute_ranges(const RangeTarget& target, std::size_t total,
                    const RangeSchedule& schedule,
                    FunctionRef<void(std::size_t, std::size_t)> fn) {
  run_plan(target.executor, total,
           plan_ranges(total, schedule, width_of(target), depth_of(target)), fn);
}

double range_unit_cycles(const RangeCost& cost) noexcept {
  const double cycles = cost.bytes_read * kCyclesPerByteRead +
                        cost.bytes_written * kCyclesPerByteWritten + cost.compute_cycles;
  // Also catches NaN (the comparison is false).
  return cycles > 1e-3 ? cycles : 1e-3;
}

RangePlan plan_costed_ranges(std::size_t total, const RangeCost& cost, int width,
                             int depth) noexcept {
  const double unit = range_unit_cycles(cost);
  // Units per block so each block carries kMinBlockCycles; clamped so the
  // conversion back to size_t is defined.
  const double per_block = std::ceil(kMinBlockCycles / unit);
  const std::size_t min_block =
      per_block >= static_cast<double>(total) ? std::max<std::size_t>(total, 1)
                                              : static_cast<std::size_t>(per_block);
  RangeSchedule schedule;
  schedule.min_block = std::max<std::size_t>(1, min_block);
  schedule.block_multiple = std::max<std::size_t>(1, cost.block_multiple);
  return plan_ranges(total, schedule, width, depth);
}

void execute_costed_ranges(const RangeTarget& target, std::size_t total,
                           const RangeCost& cost,
                           FunctionRef<void(std::size_t, std::size_t)> fn) {
  run_plan(target.executor, total,
           plan_costed_ranges(total, cost, width_of(target), depth_of(target)), fn);
}

}  // namespace tessera::core
