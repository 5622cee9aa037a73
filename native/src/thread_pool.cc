#include "native/src/thread_pool.hpp"

#include <algorithm>
#include <climits>
#include <system_error>
#include <utility>

#include "native/src/affinity.hpp"
#include "native/src/clock.hpp"
#include "native/src/fork_guard.hpp"
#include "native/src/futex.hpp"
#include "tessera/platform/executor.hpp"

// Memory ordering, step by step (ruy style). One region with w participants:
//
//  D1  dispatcher: done_.store((w-1) << 1, relaxed); for each worker i < w:
//      slot.body / slot.counters / slot.stop (plain writes).
//  D2  dispatcher: slot.word.exchange(next_ticket, acq_rel).
//  W1  worker i: slot.word.load(acquire) returns next_ticket.
//      D1 -> W1 are ordered by the release/acquire pair D2 -> W1, so the
//      worker reads the job (and done_'s reset value) only after they were
//      written; the dispatcher writes them again only after E2 below.
//  W2  worker i: body(i), then its counter cell and (first error only)
//      first_error_, all plain or relaxed writes.
//  W3  worker i: done_.fetch_sub(2, release).
//  E1  caller: done_.load(acquire) (or a failed CAS with acquire) reads
//      pending == 0.
//      W2 -> E1 are ordered by W3 -> E1: the acquire load reads the value of
//      the last fetch_sub, and every worker's fetch_sub is a release RMW in
//      the same release sequence, so the caller synchronises with all of
//      them. After E1 the caller may read every body's output, the counter
//      cells and first_error_, and may reuse the slots (E2).
//  E2  next region's D1 (relaxed store to done_): after E1 read the last
//      value in done_'s modification order, so by coherence the reset is
//      ordered after every decrement of this region.
//
// Parking needs no fences: each futex word is changed only by atomic RMWs
// (exchange, compare-exchange, fetch_sub), whose single modification order
// rules out a lost wake-up:
//  - worker: CAS(word: ticket -> ticket|kParked), then futex_wait(word,
//    ticket|kParked). dispatcher: exchange(word, next) returns the old
//    value; if it has kParked, futex_wake. If the exchange came first the
//    CAS fails (the ticket changed) and the worker sees the job; if the CAS
//    came first the exchange sees kParked and wakes, and futex_wait either
//    finds the word already changed (returns at once) or is woken.
//  - caller: CAS(done_: v -> v|kCallerParked) while pending > 0, then
//    futex_wait(done_, v|kCallerParked). last worker: fetch_sub returns
//    2|kCallerParked exactly when it took pending to 0 after the caller
//    parked; then it wakes. Same argument.
//  - A last worker's futex_wake may land after the caller already returned
//    (and started the next region): a spurious wake, which every wait loop
//    tolerates by re-checking its word.
//
// Idle release: a worker whose idle deadline passes does
// CAS(word: ticket[|kParked] -> ticket|kExited, acq_rel) and ends its
// thread. It succeeds only if no new ticket was exchanged in; otherwise the
// CAS fails and the worker runs the job it just found. The dispatcher's
// exchange returns kExited exactly when the thread is gone (or going): it
// joins it (join synchronises with the thread's end) and starts a new
// thread whose `seen` ticket is the old one, so the new thread finds the job
// already posted. Thread creation synchronises with the new thread's start,
// so D1 is visible to it as well.

namespace tessera::native {

namespace {

constexpr std::int64_t kNoDeadline = INT64_MAX;

}  // namespace

ThreadPool::ThreadPool(PoolConfig config)
    : config_(std::move(config)),
      fork_generation_((install_fork_handler(), fork_generation())),
      slots_(config_.width > 1
                 ? std::make_unique<Slot[]>(
                       static_cast<std::size_t>(config_.width - 1))
                 : nullptr) {
  // More participants than CPUs (only possible with an injected topology or
  // a hand-made policy: resolution never oversubscribes): spinning would
  // steal the CPU from participants with work (see spin_wait.hpp).
  const bool oversubscribed = config_.width > available_cpu_count();
  caller_spin_ = SpinBudget(config_.spin_policy, config_.spin_budget, oversubscribed);
  worker_cpu_ = config_.worker_cpus;
  if (!worker_cpu_.empty()) {
    auto used = [&](int cpu) {
      return std::find(worker_cpu_.begin(), worker_cpu_.end(), cpu) != worker_cpu_.end();
    };
    caller_cpu_ = current_cpu();
    if (caller_cpu_ >= 0 && !used(caller_cpu_)) {
      spare_cpu_ = caller_cpu_;
    } else {
      for (int cpu : allowed_cpus()) {
        if (!used(cpu)) {
          spare_cpu_ = cpu;
          break;
        }
      }
    }
  }
  caller_spin_.set_contention_signal(&contention_);
  for (int i = 1; i < config_.width; ++i) {
    slot(i).spin = SpinBudget(config_.spin_policy, config_.spin_budget, oversubscribed);
    slot(i).spin.set_contention_signal(&contention_);
  }
  try {
    for (int i = 1; i < config_.width; ++i) start_worker(i, 0);
  } catch (...) {
    stop_all();
    throw;
  }
}

ThreadPool::~ThreadPool() { stop_all(); }

bool ThreadPool::orphaned() const noexcept {
  return fork_generation() != fork_generation_;
}

void ThreadPool::stop_all() noexcept {
  if (orphaned()) {
    // Forked child: the threads are not in this process, so neither join
    // nor detach may touch them (both are undefined for them;
    // ThreadSanitizer aborts on the detach). Keep the handles forever
    // instead (a joinable std::thread terminates the process when
    // destroyed); reachable from a global, so not a leak.
    static std::mutex orphans_mutex;
    static auto* orphans = new std::vector<std::thread>;
    const std::lock_guard<std::mutex> lock(orphans_mutex);
    for (int i = 1; i < config_.width; ++i) {
      if (slot(i).thread.joinable()) orphans->push_back(std::move(slot(i).thread));
    }
    return;
  }
  // Tell every worker first, then join: they wind down in parallel.
  for (int i = 1; i < config_.width; ++i) {
    Slot& s = slot(i);
    if (!s.thread.joinable()) continue;
    // Same publication as a job (D1/D2): the worker reads stop after it
    // sees the new ticket. A worker that already left (idle release) just
    // gets joined.
    s.stop = true;
    s.posted += kTicketStep;
    const std::uint32_t old = s.word.exchange(s.posted, std::memory_order_acq_rel);
    if ((old & kParked) != 0) futex_wake_all(&s.word);
  }
  for (int i = 1; i < config_.width; ++i) {
    if (slot(i).thread.joinable()) slot(i).thread.join();
  }
}

void ThreadPool::start_worker(int index, std::uint32_t seen) {
  Slot& s = slot(index);
  live_workers_.fetch_add(1, std::memory_order_relaxed);
  try {
    s.thread = std::thread([this, index, seen] { worker_main(index, seen); });
  } catch (...) {
    live_workers_.fetch_sub(1, std::memory_order_relaxed);
    throw;
  }
  if (!worker_cpu_.empty()) {
    const int cpu = worker_cpu_[static_cast<std::size_t>(index - 1)];
    const std::string why = pin_thread_to_cpu(s.thread, cpu);
    if (!why.empty()) record_pin_failure(index, cpu, why);
  }
}

void ThreadPool::follow_caller() {
  const int cpu = current_cpu();
  if (cpu == caller_cpu_ || cpu < 0) return;
  caller_cpu_ = cpu;
  for (int i = 1; i < config_.width; ++i) {
    int& pinned = worker_cpu_[static_cast<std::size_t>(i - 1)];
    if (pinned != cpu) continue;
    // A worker whose thread ended (idle release) is pinned to the new CPU
    // when it restarts.
    if (slot(i).thread.joinable()) {
      const std::string why = pin_thread_to_cpu(slot(i).thread, spare_cpu_);
      if (!why.empty()) {
        record_pin_failure(i, spare_cpu_, why);
        return;
      }
    }
    pinned = spare_cpu_;
    spare_cpu_ = cpu;
    caller_collisions_.fetch_add(1, std::memory_order_relaxed);
    return;
  }
}

int ThreadPool::worker_cpu(int index) const noexcept {
  return worker_cpu_.empty() ? -1 : worker_cpu_[static_cast<std::size_t>(index - 1)];
}

std::uint64_t ThreadPool::caller_collisions() const noexcept {
  return caller_collisions_.load(std::memory_order_relaxed);
}

void ThreadPool::record_pin_failure(int index, int cpu, const std::string& why) {
  std::string text = "worker " + std::to_string(index) +
                     ": could not pin to CPU " + std::to_string(cpu) + ": " +
                     why;
  const std::lock_guard<std::mutex> lock(pin_mutex_);
  // A restarted worker (idle release) fails the same way again: report each
  // distinct failure once.
  for (const std::string& seen : pin_failures_) {
    if (seen == text) return;
  }
  pin_failures_.push_back(std::move(text));
}

std::vector<std::string> ThreadPool::pin_failures() const {
  const std::lock_guard<std::mutex> lock(pin_mutex_);
  return pin_failures_;
}

void ThreadPool::wait_for_recorders(const PoolCounters* counters) const noexcept {
  // A forked child has no workers: a slot caught mid-record by the fork
  // would never clear.
  if (orphaned()) return;
  for (int i = 1; i < config_.width; ++i) {
    // Acquire pairs with the worker's release stores (see worker_main).
    while (slots_[i - 1].recording.load(std::memory_order_acquire) == counters) {
      std::this_thread::yield();
    }
  }
}

int ThreadPool::live_workers() const noexcept {
  return live_workers_.load(std::memory_order_relaxed);
}

void ThreadPool::record_error() noexcept {
#if defined(__cpp_exceptions)
  // First one wins; the winner alone writes first_error_, published to the
  // caller by W3 -> E1 (or program order, for the caller's own body).
  if (!failed_.exchange(true, std::memory_order_relaxed)) {
    first_error_ = std::current_exception();
  }
#endif
}

void ThreadPool::invoke(FunctionRef<void(int)> body, int participant) noexcept {
#if defined(__cpp_exceptions)
  try {
    body(participant);
  } catch (...) {
    record_error();
  }
#else
  body(participant);
#endif
}

void ThreadPool::run(int w, FunctionRef<void(int)> body,
                     PoolCounters* counters) {
  // One predictable branch: with counters off the whole region runs the
  // kCount = false instantiation, which has no counter code at all.
  if (counters != nullptr) {
    run_impl<true>(w, body, counters);
  } else {
    run_impl<false>(w, body, nullptr);
  }
}

template <bool kCount>
void ThreadPool::run_impl(int w, FunctionRef<void(int)> body,
                          PoolCounters* counters) {
  CounterCell* caller_cell = nullptr;
  if constexpr (kCount) caller_cell = &counters->cell(0);
  if (spare_cpu_ >= 0) follow_caller();

  // D1: pending = w - 1 workers, caller not parked.
  done_.store(static_cast<std::uint32_t>(w - 1) << 1, std::memory_order_relaxed);
  // Participants whose worker thread could not be (re)started run on the
  // caller after its own part. Empty (no allocation) in the normal case.
  std::vector<int> on_caller;
  for (int i = 1; i < w; ++i) {
    Slot& s = slot(i);
    s.body.emplace(body);
    s.counters = kCount ? &counters->cell(i) : nullptr;
    s.lease = counters;
    // Tickets wrap modulo 2^32; only (in)equality with the worker's last
    // ticket matters, and a worker sees every ticket posted to it.
    s.posted += kTicketStep;
    // D2: publish the job. The acquire half pairs with the worker's flag
    // CAS only to read its flags; nothing else is read through it.
    const std::uint32_t old = s.word.exchange(s.posted, std::memory_order_acq_rel);
    if ((old & kParked) != 0) {
      futex_wake_all(&s.word);
      if constexpr (kCount) bump(caller_cell->wakeups, 1);
    } else if ((old & kExited) != 0) {
      // Idle-released: reap the old thread, start a new one that finds this
      // job already posted (its `seen` is the previous ticket). No thread to
      // reap if the last restart failed (see below).
      if (s.thread.joinable()) s.thread.join();
      try {
        start_worker(i, old & ~kFlags);
      } catch (const std::system_error&) {
        // No thread: keep the slot marked exited so the next region retries,
        // and run this participant on the caller.
        s.word.store(s.posted | kExited, std::memory_order_relaxed);
        on_caller.push_back(i);
      }
    }
  }

  {
    platform::ParallelBodyScope region;
    invoke(body, 0);
    for (const int i : on_caller) {
      invoke(body, i);
      // Stands in for the missing worker's W3; the caller's own writes need
      // no publication.
      done_.fetch_sub(2, std::memory_order_relaxed);
    }
  }

  wait_for_workers<kCount>(caller_cell);
  if constexpr (kCount) bump(caller_cell->dispatches, 1);

#if defined(__cpp_exceptions)
  // Ordered after every worker's record_error by E1.
  if (failed_.load(std::memory_order_relaxed)) {
    std::exception_ptr error = std::move(first_error_);
    first_error_ = nullptr;
    failed_.store(false, std::memory_order_relaxed);
    std::rethrow_exception(error);
  }
#endif
}

template <bool kCount>
void ThreadPool::wait_for_workers(CounterCell* caller_cell) {
  // E1 (fast path): the workers may already be done.
  std::uint32_t v = done_.load(std::memory_order_acquire);
  if ((v >> 1) == 0) return;
  if constexpr (kCount) bump(caller_cell->caller_waits, 1);

  std::uint64_t spins = 0;
  std::uint64_t parks = 0;
  const bool clocked = caller_spin_.needs_clock();
  const std::int64_t start = clocked ? now_ns() : 0;
  std::int64_t last = start;
  const bool spun = caller_spin_.spin(
      [&] {
        v = done_.load(std::memory_order_acquire);  // E1
        return (v >> 1) == 0;
      },
      start, kNoDeadline, &spins, &last);
  if (!spun) {
    while ((v >> 1) != 0) {
      if ((v & kCallerParked) == 0) {
        // Failure reloads v with acquire (E1 when it reads pending == 0).
        if (!done_.compare_exchange_weak(v, v | kCallerParked,
                                         std::memory_order_acquire,
                                         std::memory_order_acquire)) {
          continue;
        }
        v |= kCallerParked;
      }
      ++parks;
      futex_wait(&done_, v, -1);
      v = done_.load(std::memory_order_acquire);  // E1
    }
    if (clocked) last = now_ns();
  }
  if (clocked) caller_spin_.learn(last - start, !spun);
  if constexpr (kCount) {
    bump(caller_cell->spins, spins);
    bump(caller_cell->parks, parks);
  }
}

std::optional<std::uint32_t> ThreadPool::wait_for_ticket(
    Slot& s, std::uint32_t seen, std::uint64_t* spins, std::uint64_t* parks) {
  const auto is_new = [seen](std::uint32_t v) {
    return (v & ~kFlags) != seen;
  };
  // W1 (fast path): the next job may already be posted.
  std::uint32_t v = s.word.load(std::memory_order_acquire);
  if (is_new(v)) return v & ~kFlags;

  const bool timed = config_.release_when_idle && futex_has_timeout();
  const bool clocked = timed || s.spin.needs_clock();
  const std::int64_t start = clocked ? now_ns() : 0;
  const std::int64_t deadline =
      timed ? start + config_.idle_release_ms * 1'000'000 : kNoDeadline;
  std::int64_t last = start;
  if (s.spin.spin(
          [&] {
            v = s.word.load(std::memory_order_acquire);  // W1
            return is_new(v);
          },
          start, deadline, spins, &last)) {
    if (clocked) s.spin.learn(last - start, false);
    return v & ~kFlags;
  }

  // Park. v is the last value read: seen, or seen|kParked after a wake-up
  // that was spurious or timed out.
  while (!is_new(v)) {
    std::int64_t remaining = -1;
    if (timed) {
      remaining = deadline - now_ns();
      if (remaining <= 0) {
        // Idle for idle_release_ms: try to leave. Fails (reloading v with
        // acquire, W1) exactly when a new ticket arrived meanwhile.
        if (s.word.compare_exchange_strong(v, seen | kExited,
                                           std::memory_order_acq_rel,
                                           std::memory_order_acquire)) {
          return std::nullopt;
        }
        continue;
      }
    }
    if ((v & kParked) == 0) {
      if (!s.word.compare_exchange_strong(v, seen | kParked,
                                          std::memory_order_acq_rel,
                                          std::memory_order_acquire)) {
        continue;  // a ticket arrived (v reloaded, W1)
      }
      v = seen | kParked;
    }
    ++*parks;
    futex_wait(&s.word, v, remaining);
    v = s.word.load(std::memory_order_acquire);  // W1
  }
  if (clocked) s.spin.learn(now_ns() - start, true);
  return v & ~kFlags;
}

void ThreadPool::worker_main(int index, std::uint32_t seen) {
  // Worker threads only ever run bodies: a run() issued from inside one is
  // nested (see executor.hpp).
  const platform::ParallelBodyScope region;
  Slot& s = slot(index);
  for (;;) {
    std::uint64_t spins = 0;
    std::uint64_t parks = 0;
    const std::optional<std::uint32_t> ticket =
        wait_for_ticket(s, seen, &spins, &parks);
    if (!ticket || s.stop) {
      live_workers_.fetch_sub(1, std::memory_order_relaxed);
      return;
    }
    seen = *ticket;
    CounterCell* const cell = s.counters;
    const FunctionRef<void(int)> body = *s.body;
    if (cell == nullptr) {
      // The next counted region must be timed: the span since the last
      // counted one would include this one (a store to a worker-private
      // line).
      s.active_time.countdown = 0;
      invoke(body, index);
      // W3: publishes the body's writes and first_error_.
      const std::uint32_t old = done_.fetch_sub(2, std::memory_order_release);
      if (old == (2 | kCallerParked)) futex_wake_all(&done_);
      // One pause before polling the slot again: the caller is about to
      // write this slot's line (the next job), and a poll in the middle of
      // those writes pulls the line back and forth between the two cores.
      // Back-to-back empty regions measured 108 -> 90 ns with it (the
      // counted path below gets the same gap from its post-W3 record).
      cpu_relax();
      continue;
    }
    PoolCounters* const lease = s.lease;
    // Found at once (no park, within the first spin block): a back-to-back
    // region, whose start time is sampled (ActiveTimeSampler).
    const bool at_once = parks == 0 && spins <= static_cast<std::uint64_t>(kSpinBlock);
    const bool timed = !at_once || s.active_time.due();
    const std::uint64_t t0 = timed ? ticks_now() : 0;
    invoke(body, index);
    // This wait's spins and parks are charged to the region that ended it
    // (single-writer bumps, published by W3).
    bump(cell->spins, spins);
    bump(cell->parks, parks);
    // Announced before W3 (so the caller's E1 makes it visible to the
    // owner's wait_for_recorders): `lease` stays alive until it is cleared.
    // Release, here and below: an owner that reads a later value of this
    // word also sees the cell writes before it. A store to this worker's
    // own line: no cache-line transfer.
    s.recording.store(lease, std::memory_order_release);
    // W3.
    const std::uint32_t old = done_.fetch_sub(2, std::memory_order_release);
    if (old == (2 | kCallerParked)) futex_wake_all(&done_);
    // After W3, off the critical path: the body's end time and its record.
    // The caller may have returned already, and the slot's job fields may be
    // rewritten by the next region meanwhile, so only the locals are used.
    const std::uint64_t t1 = ticks_now();
    const std::uint64_t active = timed ? s.active_time.timed(t1 - t0)
                                       : s.active_time.untimed(t1 - s.active_time.previous_end);
    s.active_time.previous_end = t1;
    cell->worker_active_ticks.fetch_add(active, std::memory_order_relaxed);
    s.recording.store(nullptr, std::memory_order_release);
  }
}


}  // namespace tessera::native
