#include "wasm/src/wasm_threads_pool.hpp"

#if TESSERA_THREADS_USABLE

#include <map>

#include "tessera/platform/executor.hpp"

namespace tessera::wasm {

platform::ExecutionCounters WasmCounters::snapshot() const {
  platform::ExecutionCounters c;
  c.dispatches = dispatches.load(std::memory_order_relaxed);
  c.serial_fallbacks = serial_fallbacks.load(std::memory_order_relaxed);
  c.spins = spins.load(std::memory_order_relaxed);
  c.parks = parks.load(std::memory_order_relaxed);
  c.wakeups = wakeups.load(std::memory_order_relaxed);
  c.caller_waits = caller_waits.load(std::memory_order_relaxed);
  c.worker_active_ns = worker_active_ns.load(std::memory_order_relaxed);
  return c;
}

namespace {

// Polls before parking. A poll is one atomic load (wasm has no pause
// instruction); some thousands of polls are a few microseconds: enough to
// catch back-to-back regions without burning a core between bursts.
constexpr std::uint64_t kSpinPolls = 4000;

}  // namespace

WasmThreadsPool::WasmThreadsPool(int width)
    : width_(width < 1 ? 1 : width),
      slots_(new Slot[width_ > 1 ? width_ - 1 : 1]),
      posted_(new bool[width_]()) {
  for (int i = 1; i < width_; ++i) {
    Slot& slot = slots_[i - 1];
    slot.pool = this;
    slot.index = i;
    std::string error;
    if (start_thread(&thread_entry, &slot, &slot.thread, &error)) {
      slot.started = true;
    } else {
      start_failures_.push_back("worker " + std::to_string(i) + ": " + error +
                                "; its share runs on the caller");
    }
  }
}

WasmThreadsPool::~WasmThreadsPool() {
  if (!stop_.load(std::memory_order_relaxed)) stop_workers();
  for (int i = 1; i < width_; ++i) {
    Slot& slot = slots_[i - 1];
    if (slot.started && !slot.joined) join_thread(&slot.thread);
  }
}

void WasmThreadsPool::stop_workers() {
  stop_.store(true, std::memory_order_relaxed);
  for (int i = 1; i < width_; ++i) {
    Slot& slot = slots_[i - 1];
    if (!slot.started) continue;
    // The release increment publishes stop_ to the worker's acquire load.
    slot.ticket.fetch_add(1, std::memory_order_release);
    futex_wake(&slot.ticket, 1);
  }
}

bool WasmThreadsPool::stop_and_join_running() {
  // Who is running is read before the stop: those threads are past their
  // start and exit as soon as they see it. The others exit when they start.
  std::unique_ptr<bool[]> running(new bool[width_]());
  for (int i = 1; i < width_; ++i) {
    running[i] = slots_[i - 1].ready.load(std::memory_order_acquire);
  }
  stop_workers();
  bool all = true;
  for (int i = 1; i < width_; ++i) {
    Slot& slot = slots_[i - 1];
    if (!slot.started) continue;
    if (running[i]) {
      join_thread(&slot.thread);
      slot.joined = true;
    } else {
      all = false;
    }
  }
  return all;
}

void WasmThreadsPool::thread_entry(void* slot) {
  Slot* s = static_cast<Slot*>(slot);
  s->pool->worker_main(*s);
}

int WasmThreadsPool::ready_workers() const noexcept {
  int ready = 0;
  for (int i = 1; i < width_; ++i) {
    ready += slots_[i - 1].ready.load(std::memory_order_acquire) ? 1 : 0;
  }
  return ready;
}

std::vector<std::string> WasmThreadsPool::start_failures() const {
  return start_failures_;
}

int WasmThreadsPool::started_workers() const noexcept {
  int started = 0;
  for (int i = 1; i < width_; ++i) started += slots_[i - 1].started ? 1 : 0;
  return started;
}

void WasmThreadsPool::worker_main(Slot& slot) {
  // A worker only ever runs bodies: it is inside a parallel region for its
  // whole life, so nested calls from its bodies run serially.
  platform::ParallelBodyScope in_region;
  std::uint32_t seen = slot.ticket.load(std::memory_order_acquire);
  // A pool stopped before this thread ran (release_idle_wasm_pools) bumped
  // the ticket already: either the load above saw the bump, and so stop_,
  // or the loop below sees the ticket change.
  if (stop_.load(std::memory_order_relaxed)) return;
  slot.ready.store(true, std::memory_order_release);
  for (;;) {
    std::uint32_t ticket = slot.ticket.load(std::memory_order_acquire);
    std::uint64_t polls = 0, parks = 0;
    while (ticket == seen && polls < kSpinPolls) {
      ++polls;
      ticket = slot.ticket.load(std::memory_order_acquire);
    }
    while (ticket == seen) {
      ++parks;
      futex_wait(&slot.ticket, seen);
      ticket = slot.ticket.load(std::memory_order_acquire);
    }
    seen = ticket;
    if (stop_.load(std::memory_order_relaxed)) return;
    // Acquire on the ticket above: body_ and counters_ are the posted job's.
    WasmCounters* counters = counters_;
    const double t0 = counters != nullptr ? monotonic_ns() : 0;
    (*body_)(slot.index);
    if (counters != nullptr) {
      counters->spins.fetch_add(polls, std::memory_order_relaxed);
      counters->parks.fetch_add(parks, std::memory_order_relaxed);
      counters->worker_active_ns.fetch_add(
          static_cast<std::uint64_t>(monotonic_ns() - t0), std::memory_order_relaxed);
    }
    // Release: this worker's writes happen-before the caller's acquire load
    // that sees pending_ reach 0.
    if (pending_.fetch_sub(1, std::memory_order_acq_rel) == 1) {
      futex_wake(&pending_, 1);
    }
  }
}

void WasmThreadsPool::run_serially(int participants, FunctionRef<void(int)> body,
                                   WasmCounters* counters) {
  if (counters != nullptr) {
    counters->serial_fallbacks.fetch_add(1, std::memory_order_relaxed);
  }
  platform::run_serially_in_region(participants, body);
}

void WasmThreadsPool::run(int participants, FunctionRef<void(int)> body,
                          WasmCounters* counters) {
  if (participants <= 1) {
    if (participants == 1) body(0);
    return;
  }
  if (participants > width_ || platform::parallel_body_depth() > 0 ||
      !dispatch_.try_lock()) {
    run_serially(participants, body, counters);
    return;
  }
  SpinLockGuard lock(dispatch_, /*already_held=*/true);
  if (counters != nullptr) counters->dispatches.fetch_add(1, std::memory_order_relaxed);

  body_.emplace(body);
  counters_ = counters;
  // Decide who runs what before posting: ready workers get their own index;
  // the caller keeps the indices of workers that are not running.
  bool* posted = posted_.get();
  std::uint32_t to_post = 0;
  for (int i = 1; i < participants; ++i) {
    posted[i] = slots_[i - 1].ready.load(std::memory_order_acquire);
    to_post += posted[i] ? 1 : 0;
  }
  pending_.store(to_post, std::memory_order_relaxed);
  for (int i = 1; i < participants; ++i) {
    if (!posted[i]) continue;
    Slot& slot = slots_[i - 1];
    // Release: body_, counters_ and pending_ above happen-before the
    // worker's acquire load of the new ticket.
    slot.ticket.fetch_add(1, std::memory_order_release);
    const int woken = futex_wake(&slot.ticket, 1);
    if (counters != nullptr && woken > 0) {
      counters->wakeups.fetch_add(static_cast<std::uint64_t>(woken),
                                  std::memory_order_relaxed);
    }
  }
  {
    platform::ParallelBodyScope in_region;
    body(0);
    for (int i = 1; i < participants; ++i) {
      if (!posted[i]) body(i);
    }
  }
  // Wait for the workers. The browser main thread may not block
  // (Atomics.wait throws there), so it only spins; others park after a while.
  std::uint32_t left = pending_.load(std::memory_order_acquire);
  if (left != 0 && counters != nullptr) {
    counters->caller_waits.fetch_add(1, std::memory_order_relaxed);
  }
  const bool may_block = caller_may_block();
  std::uint64_t polls = 0, parks = 0;
  while (left != 0) {
    if (may_block && polls >= kSpinPolls) {
      ++parks;
      futex_wait(&pending_, left);
    } else {
      ++polls;
    }
    left = pending_.load(std::memory_order_acquire);
  }
  if (counters != nullptr) {
    counters->spins.fetch_add(polls, std::memory_order_relaxed);
    counters->parks.fetch_add(parks, std::memory_order_relaxed);
  }
  body_.reset();
  counters_ = nullptr;
}

namespace {

struct PoolRegistry {
  SpinLock lock;
  std::map<int, std::shared_ptr<WasmThreadsPool>> pools;
};

PoolRegistry& pool_registry() {
  // Never destroyed: pools are released explicitly (release_idle_wasm_pools),
  // not by static destructors running after the runtime is gone.
  static PoolRegistry* registry = new PoolRegistry();
  return *registry;
}

}  // namespace

std::shared_ptr<WasmThreadsPool> shared_wasm_pool(int width) {
  // One pool per width ever asked for (normally exactly one: the width of
  // TESSERA_WASM_THREADS), kept until released.
  PoolRegistry& registry = pool_registry();
  SpinLockGuard lock(registry.lock);
  std::shared_ptr<WasmThreadsPool>& pool = registry.pools[width];
  if (pool == nullptr) pool = std::make_shared<WasmThreadsPool>(width);
  return pool;
}

int release_idle_wasm_pools() {
  std::vector<std::shared_ptr<WasmThreadsPool>> idle;
  PoolRegistry& registry = pool_registry();
  {
    SpinLockGuard lock(registry.lock);
    for (auto it = registry.pools.begin(); it != registry.pools.end();) {
      if (it->second.use_count() == 1) {
        idle.push_back(std::move(it->second));
        it = registry.pools.erase(it);
      } else {
        ++it;
      }
    }
  }
  int kept = 0;
  for (std::shared_ptr<WasmThreadsPool>& pool : idle) {
    // Joined outside the lock. Joining a thread that has not started could
    // wait for a Worker to load (a blocked browser main thread); such a
    // pool's memory stays for its threads, which exit as soon as they run.
    if (!pool->stop_and_join_running()) {
      new std::shared_ptr<WasmThreadsPool>(std::move(pool));  // kept for its late threads
      ++kept;
    }
  }
  SpinLockGuard lock(registry.lock);
  return kept + static_cast<int>(registry.pools.size());
}

}  // namespace tessera::wasm

#endif  // TESSERA_THREADS_USABLE
