// ThreadPool: one flat set of persistent workers of a fixed width; the
// building block of the native pool (TieredPool adds the dispatch lock, the
// nested/busy rules and the size tiers on top; PoolLease adds per-Context
// counters).
//
// Protocol, in short (details and every memory ordering in thread_pool.cc):
//  - Participant 0 is the calling thread; workers 1..width-1 are threads of
//    this pool. A region with w participants posts a job to workers 1..w-1
//    only: workers w.. are neither signalled nor woken.
//  - Each worker owns a cache-line slot whose 32-bit `word` is both its
//    ticket (the dispatcher's generation counter for that worker) and its
//    futex: the dispatcher writes the job into the slot and exchanges a new
//    ticket into the word; the worker spins on the word (per the spin
//    policy), then parks on it.
//  - Completion is one shared word (pending workers << 1 | caller-parked
//    bit): workers decrement it, the caller spins on it, then parks on it.
//  - Idle release: a worker that has waited idle_release_ms marks its word
//    "exited" and ends its thread; the next region that posts to it sees the
//    mark, joins the old thread and starts a new one, which finds its job
//    already posted.
#pragma once

#include <atomic>
#include <cstdint>
#include <exception>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "native/src/pool_counters.hpp"
#include "native/src/spin_wait.hpp"
#include "tessera/platform/execution_policy.hpp"
#include "tessera/platform/function_ref.hpp"

namespace tessera::native {

struct PoolConfig {
  int width = 1;  // participants, the caller included (>= 1)
  platform::SpinPolicy spin_policy = platform::SpinPolicy::kAdaptive;
  std::int64_t spin_budget = 0;
  // Worker i (participant i >= 1) is pinned to worker_cpus[i - 1]; empty:
  // no pinning. The caller is never pinned.
  std::vector<int> worker_cpus;
  bool release_when_idle = false;
  std::int64_t idle_release_ms = 1000;
};

class ThreadPool {
 public:
  // Starts width - 1 workers (pinning them when asked; failed pins are
  // recorded, not fatal). Throws std::system_error when a thread cannot be
  // started (TieredPool turns that into a Status).
  explicit ThreadPool(PoolConfig config);
  // Stops and joins every worker. No region may be running.
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  int width() const noexcept { return config_.width; }

  // Runs body(p) for p in [0, w), p = 0 on the calling thread, and returns
  // when all have returned; re-throws the first exception any of them threw
  // (after all have finished). Requires 2 <= w <= width() and exclusive use:
  // one region at a time (the owner's dispatch lock). `counters` may be
  // null (counters off: then no counter memory is touched).
  void run(int w, FunctionRef<void(int)> body, PoolCounters* counters);

  // Returns once no worker is still recording a finished region into
  // `counters` (the last region's worker time is written just after the
  // region completed, so the owner calls this before freeing them). A few
  // nanoseconds in practice; immediate in a forked child.
  void wait_for_recorders(const PoolCounters* counters) const noexcept;

  // Every failed pin so far ("worker 2: could not pin to CPU 7: ...").
  std::vector<std::string> pin_failures() const;
  // The CPU worker `index` (1..width-1) is pinned to now, -1 when unpinned.
  // Only between regions (dispatcher state); for tests and diagnostics.
  int worker_cpu(int index) const noexcept;
  // Times a worker was moved off the CPU the caller had migrated onto.
  std::uint64_t caller_collisions() const noexcept;
  // Workers whose thread is currently running (not idle-released). Exact
  // only between regions; meant for tests and diagnostics.
  int live_workers() const noexcept;
  // True in a child process forked after this pool was made: its workers do
  // not exist here, so run() must not be called (see fork_guard.hpp).
  bool orphaned() const noexcept;

 private:
  // Slot word layout: ticket in the bits above the two flag bits. Only the
  // dispatcher changes the ticket (by exchanging in a new value with both
  // flags clear); only the worker sets a flag (by compare-exchange from its
  // current ticket, which fails once a new ticket is in).
  static constexpr std::uint32_t kParked = 1;  // worker is (about to be) in futex_wait
  static constexpr std::uint32_t kExited = 2;  // worker thread ended (idle release)
  static constexpr std::uint32_t kFlags = kParked | kExited;
  static constexpr std::uint32_t kTicketStep = 4;

  struct alignas(64) Slot {
    // Line 1, written by the dispatcher before it publishes a ticket, read by
    // the worker after it sees the ticket.
    std::atomic<std::uint32_t> word{0};
    bool stop = false;
    std::optional<FunctionRef<void(int)>> body;
    CounterCell* counters = nullptr;  // this participant's cell, or null
    PoolCounters* lease = nullptr;    // whose cell it is
    // Line 2, dispatcher-private (used under the owner's dispatch lock, or
    // by the constructor/destructor).
    alignas(64) std::uint32_t posted = 0;  // last ticket exchanged in
    std::thread thread;
    // Line 3, worker-private: the waiting worker's adaptive spin state, and
    // the counters it is recording into after signalling completion (null
    // when none; read only by wait_for_recorders).
    alignas(64) SpinBudget spin;
    std::atomic<const PoolCounters*> recording{nullptr};
    ActiveTimeSampler active_time;
  };

  template <bool kCount>
  void run_impl(int w, FunctionRef<void(int)> body, PoolCounters* counters);
  template <bool kCount>
  void wait_for_workers(CounterCell* caller_cell);
  void worker_main(int index, std::uint32_t seen);
  // Waits for a ticket other than `seen`; returns it, or nullopt when the
  // worker was idle-released (its thread must end).
  std::optional<std::uint32_t> wait_for_ticket(Slot& slot, std::uint32_t seen,
                                               std::uint64_t* spins,
                                               std::uint64_t* parks);
  void start_worker(int index, std::uint32_t seen);
  void stop_all() noexcept;
  // body(participant), with a throw recorded (first one wins) instead of
  // propagated.
  void invoke(FunctionRef<void(int)> body, int participant) noexcept;
  void record_error() noexcept;
  void record_pin_failure(int index, int cpu, const std::string& why);
  // The caller is never pinned, so the OS may move it onto a pinned
  // worker's CPU; the two then share one CPU for every region while
  // another CPU idles (measured on 2 vCPUs: 8192x32x256 f32 on 2 workers
  // took 3.0 ms median against 0.37 ms, slower than one worker). Checked
  // at every dispatch (one sched_getcpu, ~2 ns): such a worker is re-pinned
  // to the spare CPU (one no worker uses, initially the caller's own) and
  // the CPU the caller took becomes the spare.
  void follow_caller();
  Slot& slot(int index) noexcept { return slots_[index - 1]; }

  const PoolConfig config_;
  const std::uint32_t fork_generation_;  // the process generation at creation
  std::unique_ptr<Slot[]> slots_;  // workers 1..width-1

  // Completion word: pending workers << 1 | kCallerParked.
  static constexpr std::uint32_t kCallerParked = 1;
  alignas(64) std::atomic<std::uint32_t> done_{0};
  // First exception of the current region (first_error_ is written only by
  // the thread that wins failed_.exchange).
  alignas(64) std::atomic<bool> failed_{false};
  std::exception_ptr first_error_;
  // Caller-side spin state (dispatcher-private).
  SpinBudget caller_spin_;
  // Preemption sightings shared by this pool's waiters (spin_wait.hpp).
  alignas(64) ContentionSignal contention_;

  mutable std::mutex pin_mutex_;
  std::vector<std::string> pin_failures_;
  // Dispatcher-private pinning state (see follow_caller): each worker's
  // current CPU, the caller's CPU at the last dispatch, and the spare CPU
  // (-1: none, so nothing is followed).
  std::vector<int> worker_cpu_;
  int caller_cpu_ = -1;
  int spare_cpu_ = -1;
  std::atomic<std::uint64_t> caller_collisions_{0};
  std::atomic<int> live_workers_{0};
};

}  // namespace tessera::native
