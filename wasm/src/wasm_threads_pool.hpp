// WasmThreadsPool: tessera's own pool for threaded wasm builds, Emscripten
// -pthread and wasm32-wasip1-threads (design.md §Wasm threads pool), on the
// primitives of wasm_thread_support.hpp. Its width comes from TESSERA_WASM_THREADS
// (default 8), not from the host: navigator.hardwareConcurrency / os.cpus() say
// little about what a page may use, and wasm has no affinity.
//
// Same contract as every tessera executor (platform/executor.hpp): the
// caller is participant 0; a busy pool or a nested call runs serially on the
// caller. Wasm specifics:
//  - Workers are started when the pool is made (at Context creation), never
//    lazily inside run(): a pthread that needs a new Web Worker only starts
//    once the creating thread yields to its event loop, so a run() that
//    waited for it would deadlock. The Emscripten module pre-starts its
//    pthread pool (-sPTHREAD_POOL_SIZE, sized from TESSERA_WASM_THREADS by
//    wasm/pthread_pool_size.js.in); a WASI host starts a thread per
//    thread-spawn. A worker that could not be started (pool exhausted:
//    EAGAIN; a host without threads) or is not running yet is simply not
//    posted to: the caller runs that participant's body itself. Same
//    indices, same results, never a hang or a trap.
//  - Workers park with futex waits (Atomics.wait underneath). A caller on the
//    browser's main thread must never Atomics.wait, so it only spins while
//    workers finish; other callers spin, then park.
//  - No exceptions (wasm builds use -fno-exceptions).
#pragma once

#include "tessera/platform/build_config.h"

// Only threaded wasm builds (emscripten -pthread, wasi-threads) have a wasm
// threads pool; wasi and emscripten-st have no threads at all.
#if TESSERA_THREADS_USABLE

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "tessera/platform/execution_counters.hpp"
#include "tessera/platform/function_ref.hpp"
#include "wasm/src/wasm_thread_support.hpp"

namespace tessera::wasm {

// Counter cells of one Context (a lease); see platform::ExecutionCounters.
struct WasmCounters {
  std::atomic<std::uint64_t> dispatches{0}, serial_fallbacks{0}, spins{0},
      parks{0}, wakeups{0}, caller_waits{0}, worker_active_ns{0};
  platform::ExecutionCounters snapshot() const;
};

class WasmThreadsPool {
 public:
  // Starts width - 1 workers; failures are recorded, not fatal.
  explicit WasmThreadsPool(int width);
  ~WasmThreadsPool();
  WasmThreadsPool(const WasmThreadsPool&) = delete;
  WasmThreadsPool& operator=(const WasmThreadsPool&) = delete;

  int width() const noexcept { return width_; }

  // body(p) for every p in [0, participants); see the header comment.
  // `counters` null: counters off (no counter memory touched).
  void run(int participants, FunctionRef<void(int)> body,
           WasmCounters* counters);

  // Workers whose thread has started and waits for work.
  int ready_workers() const noexcept;
  // Workers that could not be started ("worker 3: pthread_create: EAGAIN").
  std::vector<std::string> start_failures() const;
  // How many of the width - 1 workers were started (running or not yet).
  int started_workers() const noexcept;

  // Stops every worker and joins those already running; the others exit
  // when they start. True when every started worker was joined. Only for a
  // pool no Context uses (release_idle_wasm_pools).
  bool stop_and_join_running();

 private:
  struct alignas(64) Slot {
    // Ticket and futex word: the caller increments it to post a job; the
    // worker waits for it to change.
    std::atomic<std::uint32_t> ticket{0};
    // Set by the worker thread once it runs (release), read by the caller
    // (acquire) to decide whether to post to it.
    std::atomic<bool> ready{false};
    bool started = false;
    bool joined = false;
    WasmThread thread;
    WasmThreadsPool* pool = nullptr;
    int index = 0;
  };

  static void thread_entry(void* slot);
  void worker_main(Slot& slot);
  void run_serially(int participants, FunctionRef<void(int)> body,
                    WasmCounters* counters);
  void stop_workers();

  const int width_;
  std::unique_ptr<Slot[]> slots_;   // workers 1..width-1 at [index - 1]
  std::unique_ptr<bool[]> posted_;  // per region, dispatcher-private
  std::vector<std::string> start_failures_;

  // The posted job: written by the caller before it bumps a ticket
  // (release), read by the worker after it sees the new ticket (acquire).
  std::optional<FunctionRef<void(int)>> body_;
  WasmCounters* counters_ = nullptr;
  std::atomic<bool> stop_{false};
  // Workers still running the current region; futex word for a parked
  // caller. Workers decrement with release; the caller reads with acquire.
  alignas(64) std::atomic<std::uint32_t> pending_{0};
  // One region at a time: a second caller finds it locked and runs serially.
  SpinLock dispatch_;
};

// The process's wasm pool of `width` participants (created on first
// use and kept for the life of the process: its workers are pre-started
// pthreads, cheap to keep and costly to churn).
std::shared_ptr<WasmThreadsPool> shared_wasm_pool(int width);

// Ends the threads of every pool no Context uses any more, so that their
// Web Workers are idle, not parked in Atomics.wait, when the embedder
// terminates them (a JS instance's dispose()). Running workers are joined;
// one that has not started yet (joining it could wait for a Worker to load)
// exits when it starts, and its pool's memory is kept for it. Returns the
// number of pools not fully ended (still leased, or with such late threads).
// The next shared_wasm_pool() starts a new pool.
int release_idle_wasm_pools();

}  // namespace tessera::wasm

#endif  // TESSERA_THREADS_USABLE
