#include "core/src/parallel/bandwidth_resolver.hpp"

#include <algorithm>
#include <cstdio>

#include "tessera/platform/pool_tiers.hpp"

namespace tessera::core {
namespace {

std::string bytes_text(std::uint64_t bytes) {
  char buf[48];
  if (bytes >= (std::uint64_t{1} << 20)) {
    std::snprintf(buf, sizeof buf, "%.3g MiB", static_cast<double>(bytes) / (1 << 20));
  } else if (bytes >= 1024) {
    std::snprintf(buf, sizeof buf, "%.3g KiB", static_cast<double>(bytes) / 1024);
  } else {
    std::snprintf(buf, sizeof buf, "%llu B", static_cast<unsigned long long>(bytes));
  }
  return buf;
}

std::string list_text(const std::vector<int>& values) {
  std::string text = "{";
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i != 0) text += ',';
    text += std::to_string(values[i]);
  }
  return text + "}";
}

int cap_by_jobs(int workers, std::uint64_t jobs) {
  if (jobs == 0) return workers;
  return static_cast<int>(std::min<std::uint64_t>(static_cast<std::uint64_t>(workers), jobs));
}

}  // namespace

std::string GemvFloor::reason() const {
  switch (source) {
    case Source::kKnob:
      return "TESSERA_GEMV_PARALLEL_BYTES";
    case Source::kPrivateL2:
      return "one core's private L2 (" + bytes_text(l2) + ")";
    case Source::kSharedL2:
      return "half of the shared L2 (" + bytes_text(l2) + "), no L3";
    case Source::kDefault:
      break;
  }
  return "no cache facts: default " + bytes_text(bytes);
}

BandwidthPlan resolve_bandwidth(std::uint64_t bytes, std::uint64_t jobs,
                                Parallelism request, const BandwidthFacts& facts,
                                const Knobs& knobs, bool explain) {
  // Every reason below is formatted only when `explain`: the call path
  // (a 16-element dot) would otherwise spend ~1 us in snprintf and malloc.
  BandwidthPlan plan;
  plan.bytes = bytes;
  const GemvFloor floor = gemv_parallel_floor(facts.cache, knobs);
  plan.floor_bytes = floor.bytes;
  const int width = std::max(1, facts.width);

  // Rules 1 and 2; the text names the first that holds.
  if (bandwidth_serial(bytes, request, facts, knobs)) {
    if (!explain) return plan;
    if (request.is_serial()) {
      plan.reason = "serial requested";
    } else if (width == 1) {
      plan.reason = "width is 1";
    } else {
      // Rule 2: the floor gates every parallel path.
      plan.reason = bytes_text(bytes) + " touched < floor " + bytes_text(floor.bytes) + " (" +
                    floor.reason() + "): fits one core's cache";
    }
    return plan;
  }
  int workers = 1;
  std::string why;
  if (!request.is_automatic()) {
    // Rule 3.
    workers = std::min(request.count(), width);
    if (explain) {
      why = "threads(" + std::to_string(request.count()) + ")" +
            (request.count() > width ? " capped by width " + std::to_string(width) : "");
    }
  } else if (knobs.gemv_thread_cap) {
    // Rule 4.
    workers = std::min(static_cast<int>(*knobs.gemv_thread_cap), width);
    if (explain) {
      why = "TESSERA_GEMV_THREAD_CAP = " + std::to_string(*knobs.gemv_thread_cap) +
            (static_cast<int>(*knobs.gemv_thread_cap) > width
                 ? " capped by width " + std::to_string(width)
                 : "");
    }
  } else {
    // Rule 5: the ladder of the pool's tiers (all strictly between 1 and
    // full width), or full width alone when it has none.
    const int full = std::max(facts.pool_width, width);
    const std::vector<int> full_only{full};
    const std::vector<int>& rungs = facts.tiers.empty() ? full_only : facts.tiers;
    const std::uint64_t step = knobs.gemv_tier_step.value_or(kDefaultGemvTierStep);
    std::uint64_t threshold = std::max<std::uint64_t>(1, floor.bytes);
    std::size_t rung = 0;
    // threshold * step <= bytes whenever the loop continues: no overflow.
    while (rung + 1 < rungs.size() && bytes / step >= threshold) {
      threshold *= step;
      ++rung;
    }
    workers = rungs[rung];
    if (explain) {
      why = "rung " + std::to_string(rung + 1) + " of ladder " + list_text(rungs) +
            " (one rung per " + std::to_string(step) + "x bytes)";
    }
    if (workers > width) {
      // The kernel's width is below the rung (max_threads_per_kernel): snap
      // down onto a tier so the fork still has no slack.
      const int snapped = platform::largest_tier_within(facts.tiers, width);
      workers = snapped > 1 ? snapped : width;
      if (explain) {
        why += ", lowered to " + std::to_string(workers) + " by width " + std::to_string(width);
      }
    }
  }
  // Rule 6.
  const int capped = cap_by_jobs(workers, jobs);
  if (capped < workers) {
    if (explain) why += ", capped by " + std::to_string(jobs) + " jobs";
    workers = capped;
  }
  plan.workers = std::max(1, workers);
  if (explain) {
    plan.reason = bytes_text(bytes) + " touched >= floor " + bytes_text(floor.bytes) + " (" +
                  floor.reason() + "); " + why;
  }
  return plan;
}

std::string BandwidthPlan::to_string() const {
  return std::to_string(workers) + (workers == 1 ? " worker: " : " workers: ") + reason;
}

}  // namespace tessera::core
