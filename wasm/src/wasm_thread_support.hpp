// What the wasm threads pool needs from a threaded wasm target, and nothing
// more: start a thread, wait for it to end, futex wait/wake on a 32-bit word,
// a monotonic clock, and whether the calling thread may block. Two
// implementations, one per threaded wasm target:
//  - wasm_thread_support_emscripten.cc: Emscripten -pthread (pthread_create
//    on a pre-started Web Worker, emscripten_futex_*);
//  - wasm_thread_support_wasi.cc: wasm32-wasip1-threads built with Zig's
//    wasi-libc, which has no pthreads: tessera starts threads itself through
//    the host's `wasi.thread-spawn` import (design.md §WASI threads).
#pragma once

#include "tessera/platform/build_config.h"

#if TESSERA_THREADS_USABLE

#include <atomic>
#include <cstdint>
#include <string>

namespace tessera::wasm {

// A started thread, owned by whoever started it; join_thread ends the
// ownership. Opaque: each implementation keeps its own record behind it.
struct WasmThread {
  void* record = nullptr;
};

// Runs entry(arg) on a new thread. On failure returns false, leaves *thread
// empty and says why in *error (the call that failed, and what to do).
bool start_thread(void (*entry)(void*), void* arg, WasmThread* thread, std::string* error);

// Waits until the thread's entry has returned, then releases what
// start_thread allocated for it.
void join_thread(WasmThread* thread);

// Sleeps while *word == expected, until woken (a wake between the caller's
// load and this call is not lost: the comparison is atomic with the sleep).
void futex_wait(std::atomic<std::uint32_t>* word, std::uint32_t expected);

// Wakes up to `count` threads sleeping on *word; returns how many woke.
int futex_wake(std::atomic<std::uint32_t>* word, int count);

// Nanoseconds from an arbitrary fixed origin, monotonic.
double monotonic_ns();

// Whether the calling thread may sleep in futex_wait: not on a browser's main
// thread, where Atomics.wait throws.
bool caller_may_block();

// A number identifying the calling thread, distinct among running threads.
std::uintptr_t current_thread_id();

#if defined(__wasi__)
// Defined next to the thread-safe malloc (wasi_threads_malloc.cc): calling it
// makes the linker take that malloc into the program.
bool thread_safe_malloc_linked();
#endif

// A mutual-exclusion lock for short sections on every threaded wasm target
// (wasm32-wasip1-threads' libc++ has no std::mutex). Spins: sections are
// a few instructions, contention rare.
class SpinLock {
 public:
  bool try_lock() noexcept { return !locked_.exchange(true, std::memory_order_acquire); }
  void lock() noexcept {
    while (!try_lock()) {
      while (locked_.load(std::memory_order_relaxed)) {
      }
    }
  }
  void unlock() noexcept { locked_.store(false, std::memory_order_release); }

 private:
  std::atomic<bool> locked_{false};
};

// Holds a SpinLock until the end of the scope (std::lock_guard lives in
// <mutex>, which wasm32-wasip1-threads' libc++ leaves empty).
class SpinLockGuard {
 public:
  // Takes the lock, or adopts it when the caller holds it already.
  explicit SpinLockGuard(SpinLock& lock, bool already_held = false) : lock_(lock) {
    if (!already_held) lock_.lock();
  }
  ~SpinLockGuard() { lock_.unlock(); }
  SpinLockGuard(const SpinLockGuard&) = delete;
  SpinLockGuard& operator=(const SpinLockGuard&) = delete;

 private:
  SpinLock& lock_;
};

}  // namespace tessera::wasm

#endif  // TESSERA_THREADS_USABLE
