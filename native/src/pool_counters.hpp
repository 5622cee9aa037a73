// Per-Context counter storage for the native pool (SPEC 2.2 diagnostics).
//
// One cache-line cell per participant index, each with a single writer at a
// time, so counting needs no read-modify-write: a relaxed load plus a
// relaxed store (two plain moves on x86) instead of a locked add, and no
// cache line is shared between writers.
//  - cell 0: the dispatching caller. Regions of one pool family run one at
//    a time (its dispatch lock), so one caller writes it at a time; the lock
//    acquire/release orders successive writers.
//  - cell i >= 1: the worker running participant i of the current region;
//    successive regions are ordered by the same lock plus the region's
//    done/ticket hand-offs.
//  - serial fallbacks come from any thread at any time (that is what makes
//    them fallbacks), so they have their own atomic, updated with fetch_add.
// Readers (snapshot) may run concurrently with writers; they see some
// recent value of each field (exact once the regions they care about have
// returned).
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
  // In ticks_now() units (converted to ns when read): two unordered tick
  // reads around a body cost far less than two steady_clock reads.
  std::atomic<std::uint64_t> worker_active_ticks{0};
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
  alignas(64) std::atomic<std::uint64_t> serial_fallbacks_{0};
};

}  // namespace tessera::native
