// Per-Context counter storage for the native pool (design.md §Counters).
//
// One cell (two cache lines, so the adjacent-line prefetcher does not pair
// two writers' cells) per participant index. Most fields have a single
// writer at a time, so counting them needs no read-modify-write: a relaxed
// load plus a relaxed store (two plain moves on x86), on a line nobody else
// writes.
//  - cell 0: the dispatching caller. Regions of one pool family run one at
//    a time (its dispatch lock), so one caller writes it at a time; the lock
//    acquire/release orders successive writers.
//  - cell i >= 1, spins and parks: the worker running participant i of the
//    current region, before it signals completion; successive regions are
//    ordered by the same lock plus the region's done/ticket hand-offs.
//  - cell i >= 1, worker_active_ticks: added with fetch_add by the worker
//    *after* it signalled completion, so the clock read that ends the
//    measurement is off the region's critical path (it costs ~13 ns here,
//    ~1.3% of a 1 us region; see bench/dispatch_bench.cc); the one that
//    starts it is taken only for some regions (ActiveTimeSampler). Workers of
//    different tier pools may do that concurrently for the same index,
//    hence the atomic add (on a line only those workers write). A snapshot
//    taken the instant run() returns may therefore miss the last region's
//    worker time for a few nanoseconds. Because the worker touches the cell
//    after the caller may have returned, the owner must not free the
//    counters while such a record is pending: each worker announces the
//    counters it is about to record into on its own pool slot, and the
//    owner waits for every slot to let go of them before freeing
//    (ThreadPool::wait_for_recorders). No counter line is shared between
//    the caller and a worker, so counting adds no cache-line transfer to a
//    region.
//  - serial fallbacks come from any thread at any time (that is what makes
//    them fallbacks), so they have their own atomic, updated with fetch_add.
// Readers (snapshot) may run concurrently with writers; they see some
// recent value of each field.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>

#include "native/src/clock.hpp"
#include "tessera/platform/execution_counters.hpp"

namespace tessera::native {

struct alignas(128) CounterCell {
  std::atomic<std::uint64_t> dispatches{0};
  std::atomic<std::uint64_t> spins{0};
  std::atomic<std::uint64_t> parks{0};
  std::atomic<std::uint64_t> wakeups{0};
  std::atomic<std::uint64_t> caller_waits{0};
  // In ticks_now() units (converted to ns when read): an unordered TSC read
  // is cheaper than steady_clock's ordered one.
  std::atomic<std::uint64_t> worker_active_ticks{0};
};

// Which regions a worker times, for worker_active_ticks. Reading the clock
// before the body puts it on the region's critical path (~13 ns of an empty
// two-participant region's ~100-150 ns), so a worker that found its region
// at once (no park, within one spin block: back-to-back regions) times only
// one region in kSampleEvery, and counts the others as the latest timed
// short region. The end time is read for every region, after completion
// (off the critical path): an untimed region whose span since the worker's
// previous end (its body plus under one spin block of waiting) reaches
// kLongTicks is counted as that span, and timing resumes for every region
// until a short one is seen again. So long regions are measured (the first
// of a run within a spin block of waiting), short back-to-back ones are
// estimated from a 1-in-16 sample, and a region after a wait is timed.
struct ActiveTimeSampler {
  static constexpr int kSampleEvery = 16;
  // ~2-8 us on x86 TSCs (1-4 GHz); longer on aarch64's slower counter,
  // which only means more regions are timed.
  static constexpr std::uint64_t kLongTicks = 8192;

  std::uint64_t previous_end = 0;
  std::uint64_t short_estimate = 0;
  int countdown = 0;

  bool due() const noexcept { return countdown == 0; }
  // Ticks to count for a timed region of `ticks`.
  std::uint64_t timed(std::uint64_t ticks) noexcept {
    if (ticks >= kLongTicks) {
      countdown = 0;
    } else {
      short_estimate = ticks;
      countdown = kSampleEvery - 1;
    }
    return ticks;
  }
  // Ticks to count for an untimed region that ended `span` ticks after
  // the worker's previous region.
  std::uint64_t untimed(std::uint64_t span) noexcept {
    if (span >= kLongTicks) {
      countdown = 0;
      return span;
    }
    if (countdown > 0) --countdown;
    return short_estimate < span ? short_estimate : span;
  }
};

// Single-writer increment (see above): not an atomic RMW.
inline void bump(std::atomic<std::uint64_t>& counter,
                 std::uint64_t amount) noexcept {
  counter.store(counter.load(std::memory_order_relaxed) + amount,
                std::memory_order_relaxed);
}

class PoolCounters {
 public:
  explicit PoolCounters(int participants)
      : cells_(std::make_unique<CounterCell[]>(
            static_cast<std::size_t>(participants))),
        participants_(participants) {
    // Start the tick calibration clock now, so the first snapshot (usually
    // much later) finds it already >= 1 ms old and does not wait.
    start_tick_calibration();
  }
  PoolCounters(const PoolCounters&) = delete;
  PoolCounters& operator=(const PoolCounters&) = delete;

  CounterCell& cell(int participant) noexcept { return cells_[participant]; }

  void add_serial_fallback() noexcept {
    serial_fallbacks_.fetch_add(1, std::memory_order_relaxed);
  }

  platform::ExecutionCounters snapshot() const noexcept {
    platform::ExecutionCounters out;
    constexpr auto r = std::memory_order_relaxed;
    std::uint64_t ticks = 0;
    for (int i = 0; i < participants_; ++i) {
      const CounterCell& c = cells_[i];
      out.dispatches += c.dispatches.load(r);
      out.spins += c.spins.load(r);
      out.parks += c.parks.load(r);
      out.wakeups += c.wakeups.load(r);
      out.caller_waits += c.caller_waits.load(r);
      ticks += c.worker_active_ticks.load(r);
    }
    out.worker_active_ns = static_cast<std::uint64_t>(
        static_cast<double>(ticks) * ns_per_tick());
    out.serial_fallbacks = serial_fallbacks_.load(r);
    return out;
  }

 private:
  std::unique_ptr<CounterCell[]> cells_;
  int participants_;
  alignas(128) std::atomic<std::uint64_t> serial_fallbacks_{0};
};

}  // namespace tessera::native
