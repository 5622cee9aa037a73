// Clocks for the pool: a monotonic nanosecond clock (spin budgets, idle
// timers) and a cheap tick counter (the worker-active counter, which is read
// on the dispatch fast path when counters are on).
#pragma once

#include <chrono>
#include <cstdint>

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif

namespace tessera::native {

// steady_clock through the vDSO: ~25 ns per call on this machine (Zen 5
// KVM guest, clocksource tsc; measured with a 10^6-call loop), and its
// ordered TSC read stalls the pipeline, so the pool reads it only off the
// dispatch fast path or once per spin block.
inline std::int64_t now_ns() noexcept {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// A raw, unordered tick counter: the TSC on x86 (constant rate on every CPU
// tessera targets: invariant TSC), the virtual counter on aarch64, now_ns()
// elsewhere. Still not free: RDTSC is microcoded, ~13 ns per read in this
// guest (two around an empty call: 28 ns vs 2 ns without), about half of a
// steady_clock read. With counters on, a worker reads it once before its
// body, on the region's critical path (~1% of a region with 1 us of work,
// ~5-8% of an empty one; bench/dispatch_bench.cc), and once after it has
// signalled completion, off that path.
inline std::uint64_t ticks_now() noexcept {
#if defined(__x86_64__) || defined(__i386__)
  return __rdtsc();
#elif defined(__aarch64__)
  std::uint64_t v;
  asm volatile("mrs %0, cntvct_el0" : "=r"(v));
  return v;
#else
  return static_cast<std::uint64_t>(now_ns());
#endif
}

// Nanoseconds per tick. aarch64 reads the counter frequency; x86 measures
// the TSC against steady_clock between the first call in the process and
// this one (waiting until at least 1 ms separates them, so the first call
// may take ~1 ms; later calls are a clock read). Thread-safe.
double ns_per_tick() noexcept;
// Takes the x86 calibration anchor now if nobody has (no-op elsewhere), so
// a later ns_per_tick() need not wait.
void start_tick_calibration() noexcept;

}  // namespace tessera::native
