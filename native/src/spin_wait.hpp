// Spin-then-park budgets (design.md §Spin and park): how long a waiting thread
// (a worker waiting for work, a caller waiting for workers) spins before it
// blocks in the OS. Every policy is bounded, so every wait eventually parks.
#pragma once

#include <atomic>
#include <cstdint>
#include <thread>

#include "native/src/clock.hpp"
#include "tessera/platform/execution_policy.hpp"

namespace tessera::native {

// One pause of a spin loop: tells the core (and an SMT sibling) that this
// thread is busy-waiting. ~26 ns per PAUSE on this Zen 5 guest.
inline void cpu_relax() noexcept {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield" ::: "memory");
#endif
}

// Adaptive policy constants. How they were chosen (bench/dispatch_bench.cc,
// on a 2-vCPU Zen 5 KVM guest of the development machines):
//  - waking a parked thread costs ~20-45 us here when both vCPUs had gone
//    idle (futex ping-pong after a 300 us sleep: median ~22 us, p90 ~45 us;
//    a region after a 5-20 ms gap, which finds its worker parked, takes
//    ~50-90 us end to end), so spinning less than that before parking saves
//    nothing: the floor is 50 us, the classic "spin as long as a wake costs"
//    break-even.
//  - libgomp spins ~300,000 PAUSEs before sleeping (measured by the bench's
//    gap sweep: it still answers a region after a 5 ms gap from a spin,
//    burning 5 ms of CPU per gap, but not after 10 ms). To answer a region
//    that comes after a 2 ms gap as fast as OpenMP does, a worker must
//    still be spinning then. The learned budget is twice the
//    last wait that a longer spin would have caught, capped at 4 ms: a gap
//    up to ~2 ms is answered by a spinning worker; anything longer parks
//    after at most 4 ms, and repeated long gaps halve the budget back to
//    the floor (so a pool idling at e.g. 100 Hz burns ~50 us per gap).
inline constexpr std::int64_t kAdaptiveFloorNs = 50'000;
inline constexpr std::int64_t kAdaptiveCapNs = 4'000'000;
// A fresh pool starts low: until it has seen a gap worth spinning through,
// parking early is the cheap guess (a pool created and used once, or whose
// new threads have not been scheduled yet, should not burn a millisecond).
inline constexpr std::int64_t kAdaptiveInitialNs = 100'000;
// Oversubscribed pools (more participants than CPUs the process may use,
// e.g. a test forcing 8 participants on 2 CPUs): a spinning thread there
// takes the CPU from a thread that has work, so the adaptive policy shrinks
// to a short spin that yields the CPU on every iteration (libgomp likewise
// throttles its spin to 1,000 iterations when threads exceed CPUs).
// Measured here: 2,000 regions of 8 participants on 2 CPUs took 16.8 s with
// the plain adaptive spin, see tests/native/thread_pool_test.cc.
inline constexpr std::int64_t kOversubscribedSpinNs = 20'000;
// A spin block (16 PAUSEs, ~0.4 us) that took longer than this means the
// spinning thread lost its CPU to another thread meanwhile (the machine is
// busier than its CPUs: other processes, more threads than cores). Spinning
// on then only delays the threads that have work, while a parked thread is
// rescheduled promptly when woken, so the adaptive policy stops spinning at
// once and halves its budget. The threshold sits above this VM's background
// noise (interrupts and host steal: over 2 ms spins, the longest block was
// ~30 us in half of them and > 200 us in ~5% under moderate load) and below
// a scheduler time slice (~0.75-3 ms), which is what a real preemption by a
// competing thread costs.
inline constexpr std::int64_t kPreemptedBlockNs = 500'000;
// Two preemptions seen by any waiters of a pool within this window mark the
// whole pool contended for this long; meanwhile its adaptive waiters spin
// only briefly before parking. Why pool-wide: the thread that loses its CPU
// is often not the one spinning (a worker descheduled in its body leaves the
// caller spinning for it, undetected), and under contention a woken thread
// is scheduled sooner than a spinning one gets its next time slice.
// Measured here: 10^5 two-participant regions under ThreadSanitizer took
// 25 s on this 2-CPU VM with two compiler processes competing (~1 s
// without them); with this rule, ~4 s. Why two sightings: a quiet VM still
// stalls a vCPU for > 0.5 ms now and then, and one such stall must not turn
// 50 ms of regions into futex wake-ups.
inline constexpr std::int64_t kContentionWindowNs = 50'000'000;
inline constexpr std::int64_t kContendedSpinNs = 5'000;

// Shared by the waiters of one pool (see kContentionWindowNs). Relaxed
// throughout: it is a hint, and a lost update only delays the switch.
struct ContentionSignal {
  std::atomic<std::int64_t> last_preempted_ns{INT64_MIN / 2};
  std::atomic<std::int64_t> contended_until_ns{0};

  void preempted_at(std::int64_t now) noexcept {
    const std::int64_t previous =
        last_preempted_ns.exchange(now, std::memory_order_relaxed);
    if (now - previous < kContentionWindowNs) {
      contended_until_ns.store(now + kContentionWindowNs, std::memory_order_relaxed);
    }
  }
  bool contended_at(std::int64_t now) const noexcept {
    return now < contended_until_ns.load(std::memory_order_relaxed);
  }
};

// Clock reads per spin: one per block of this many PAUSEs (~0.4 us), so the
// clock costs < 10% of a spinning thread's time and a duration budget
// overshoots by at most one block.
inline constexpr int kSpinBlock = 16;

// The spin part of one wait, per resolved spin policy. One instance per
// waiting thread (a worker owns one; the caller side of a pool owns one,
// used under the pool's dispatch lock): not thread-safe.
class SpinBudget {
 public:
  // Park immediately (a placeholder until assigned).
  SpinBudget() noexcept : policy_(platform::SpinPolicy::kParkImmediately) {}
  // `oversubscribed`: the waiting threads outnumber the CPUs; only the
  // adaptive policy reacts (the fixed ones do what they were told).
  SpinBudget(platform::SpinPolicy policy, std::int64_t budget,
             bool oversubscribed = false) noexcept;

  // Shares preemption sightings with the other waiters of a pool (adaptive
  // policy only; null: none).
  void set_contention_signal(ContentionSignal* signal) noexcept {
    contention_ = signal;
  }

  // Spins until ready() returns true or the budget (or `deadline_ns`, an
  // absolute now_ns() time) runs out. Returns true when ready() became
  // true. Adds the PAUSEs spun to *spins and stores the last clock reading
  // (or `start_ns` if none was needed) in *last_now_ns. ready() is called
  // at least once, even with a zero budget. The adaptive policy also stops
  // early when it finds it was preempted (see kPreemptedBlockNs).
  template <class Ready>
  bool spin(Ready&& ready, std::int64_t start_ns, std::int64_t deadline_ns,
            std::uint64_t* spins, std::int64_t* last_now_ns);

  // Learns from a finished wait (adaptive policy only): `waited_ns` from
  // the start of the wait until the event, `parked` when the spin had run
  // out first (or was cut short by preemption).
  void learn(std::int64_t waited_ns, bool parked) noexcept;

  // Whether spin() needs the wait's start time (duration-based budgets).
  bool needs_clock() const noexcept {
    return policy_ == platform::SpinPolicy::kAdaptive ||
           policy_ == platform::SpinPolicy::kFixedDuration;
  }
  // The current duration budget in ns (adaptive and fixed_duration).
  std::int64_t budget_ns() const noexcept { return budget_ns_; }

 private:
  platform::SpinPolicy policy_;
  bool yield_ = false;           // yield the CPU instead of PAUSE
  std::int64_t iterations_ = 0;  // kFixedIterations
  std::int64_t budget_ns_ = 0;   // kAdaptive (learned), kFixedDuration
  bool preempted_ = false;       // the last spin ended by preemption
  ContentionSignal* contention_ = nullptr;
};

template <class Ready>
bool SpinBudget::spin(Ready&& ready, std::int64_t start_ns,
                      std::int64_t deadline_ns, std::uint64_t* spins,
                      std::int64_t* last_now_ns) {
  *last_now_ns = start_ns;
  preempted_ = false;
  if (ready()) return true;
  switch (policy_) {
    case platform::SpinPolicy::kParkImmediately:
      return false;
    case platform::SpinPolicy::kFixedIterations: {
      // Iteration budgets do not read the clock, except that an idle
      // deadline (if any) still bounds them, checked once per block.
      const bool has_deadline = deadline_ns != INT64_MAX;
      for (std::int64_t i = 0; i < iterations_; ++i) {
        cpu_relax();
        ++*spins;
        if (ready()) return true;
        if (has_deadline && (i % kSpinBlock) == kSpinBlock - 1) {
          *last_now_ns = now_ns();
          if (*last_now_ns >= deadline_ns) return false;
        }
      }
      return false;
    }
    case platform::SpinPolicy::kAdaptive:
    case platform::SpinPolicy::kFixedDuration: {
      const bool adaptive = policy_ == platform::SpinPolicy::kAdaptive;
      std::int64_t end = start_ns + budget_ns_;
      if (adaptive && contention_ != nullptr && contention_->contended_at(start_ns)) {
        end = start_ns + kContendedSpinNs;
      }
      if (deadline_ns < end) end = deadline_ns;
      std::int64_t previous = start_ns;
      for (;;) {
        for (int i = 0; i < kSpinBlock; ++i) {
          if (yield_) {
            std::this_thread::yield();
          } else {
            cpu_relax();
          }
          if (ready()) {
            *spins += static_cast<std::uint64_t>(i) + 1;
            return true;
          }
        }
        *spins += kSpinBlock;
        *last_now_ns = now_ns();
        if (adaptive && *last_now_ns - previous > kPreemptedBlockNs) {
          preempted_ = true;
          if (contention_ != nullptr) contention_->preempted_at(*last_now_ns);
          return false;
        }
        if (*last_now_ns >= end) return false;
        previous = *last_now_ns;
      }
    }
  }
  return false;
}

}  // namespace tessera::native
