// wasm_thread_support.hpp on wasm32-wasip1-threads (the wasi-threads preset,
// built with Zig 0.11, whose wasi-libc has no pthreads). tessera starts its
// threads itself, following the wasi-threads ABI:
//  - the host's `wasi.thread-spawn(start_arg)` import starts a new instance
//    of this module on the same shared memory, on a new host thread, and
//    calls its exported `wasi_thread_start(tid, start_arg)`; it returns the
//    new thread's id (> 0) or a negative error (a host without threads);
//  - a new instance starts with the main thread's stack pointer and TLS
//    base, so wasi_thread_start (assembly, below: C++ cannot set the stack
//    pointer) first switches to the stack and TLS block start_thread
//    allocated for it, then calls tessera_wasi_thread_body
//    (wasi_thread_start.cc);
//  - after the body it marks the record done and wakes a joiner, touching no
//    memory afterwards, so the joiner may free the stack at once.
// thread_local destructors (__cxa_thread_atexit, which neither Zig's wasi-libc
// nor its libc++abi defines) run when the thread's body returns, and the
// main thread's at exit.
#include "wasm/src/wasm_thread_support.hpp"

#if TESSERA_THREADS_USABLE && defined(__wasi__)

#include <cstddef>
#include <cstdlib>
#include <ctime>
#include <new>

namespace tessera::wasm {
namespace {

// Each thread's stack. The pool's bodies keep their data on the heap (packed
// panels live in a Workspace); 1 MiB is the main thread's size under Zig.
constexpr std::size_t kStackBytes = std::size_t{1} << 20;
constexpr std::size_t kStackAlign = 16;

// What wasi_thread_start reads: the first three fields' offsets (0, 4, 8) are
// fixed by the assembly below.
struct ThreadRecord {
  char* stack_top;                  // offset 0: initial stack pointer
  void* tls_block;                  // offset 4: this thread's TLS block
  std::atomic<std::uint32_t> done;  // offset 8: 0 running, 1 body returned
  char* stack;
  void (*entry)(void*);
  void* arg;
};
static_assert(offsetof(ThreadRecord, tls_block) == 4 && offsetof(ThreadRecord, done) == 8,
              "wasi_thread_start reads these offsets");

// The wasi-threads import (0 or a positive thread id on success).
extern "C" __attribute__((import_module("wasi"), import_name("thread-spawn"))) std::int32_t
tessera_wasi_thread_spawn(void* start_arg);

constinit thread_local std::uintptr_t t_thread_id = 0;  // 0: the main thread

// thread_local destructors registered on this thread, newest first.
struct ExitHandler {
  void (*destructor)(void*);
  void* object;
  ExitHandler* next;
};
constinit thread_local ExitHandler* t_exit_handlers = nullptr;
constinit thread_local bool t_main_exit_hook = false;

void run_exit_handlers() {
  // A destructor may register another thread_local's: loop until none left.
  while (ExitHandler* h = t_exit_handlers) {
    t_exit_handlers = h->next;
    h->destructor(h->object);
    std::free(h);
  }
}

void run_main_thread_exit_handlers() { run_exit_handlers(); }

}  // namespace

extern "C" int __cxa_thread_atexit(void (*destructor)(void*), void* object, void* /*dso*/) {
  auto* h = static_cast<ExitHandler*>(std::malloc(sizeof(ExitHandler)));
  if (h == nullptr) return -1;
  *h = {destructor, object, t_exit_handlers};
  t_exit_handlers = h;
  if (t_thread_id == 0 && !t_main_exit_hook) {
    t_main_exit_hook = true;
    std::atexit(&run_main_thread_exit_handlers);
  }
  return 0;
}

// Called by wasi_thread_start on the new thread's own stack and TLS.
extern "C" void tessera_wasi_thread_body(std::int32_t tid, ThreadRecord* record) {
  t_thread_id = static_cast<std::uintptr_t>(tid);
  record->entry(record->arg);
  run_exit_handlers();
}

// wasi_thread_start, in assembly: wasi_thread_start.cc. Calling
// tessera_wasi_thread_start_linked makes the linker take that file too.
extern "C" int tessera_wasi_thread_start_linked();


bool start_thread(void (*entry)(void*), void* arg, WasmThread* thread, std::string* error) {
  // Calls that make the linker take wasi_threads_malloc.cc (the malloc a
  // second thread needs) and wasi_thread_start.cc (the entry point).
  thread_safe_malloc_linked();
  tessera_wasi_thread_start_linked();
  const std::size_t tls_align =
      __builtin_wasm_tls_align() > kStackAlign ? __builtin_wasm_tls_align() : kStackAlign;
  const std::size_t tls_bytes = (__builtin_wasm_tls_size() + tls_align - 1) / tls_align * tls_align;
  auto* record = static_cast<ThreadRecord*>(std::malloc(sizeof(ThreadRecord)));
  char* stack = static_cast<char*>(std::aligned_alloc(kStackAlign, kStackBytes));
  void* tls = std::aligned_alloc(tls_align, tls_bytes > 0 ? tls_bytes : tls_align);
  if (record == nullptr || stack == nullptr || tls == nullptr) {
    std::free(record);
    std::free(stack);
    std::free(tls);
    *error = "out of memory for a thread's stack and TLS block";
    return false;
  }
  new (record) ThreadRecord{stack + kStackBytes, tls, {0}, stack, entry, arg};
  const std::int32_t tid = tessera_wasi_thread_spawn(record);
  if (tid <= 0) {
    std::free(record);
    std::free(stack);
    std::free(tls);
    *error = "wasi thread-spawn returned " + std::to_string(tid) +
             " (the host runs no threads; run with a wasi-threads host, e.g. "
             "toolchains/runners/run-wasi.mjs or wasmtime -S threads=y)";
    return false;
  }
  thread->record = record;
  return true;
}

void join_thread(WasmThread* thread) {
  auto* record = static_cast<ThreadRecord*>(thread->record);
  if (record == nullptr) return;
  while (record->done.load(std::memory_order_acquire) == 0) futex_wait(&record->done, 0);
  std::free(record->tls_block);
  std::free(record->stack);
  std::free(record);
  thread->record = nullptr;
}

// Not inlined: measured on Node 20 (V8 11.3), when join_thread's loop had
// this wait inlined, Liftoff (V8's baseline compiler) ran it so that the
// wait returned once early and then slept through the notify meant for it,
// a join that never ended; the same code as a call, or compiled by TurboFan
// (node --no-liftoff), ends as it should.
__attribute__((noinline)) void futex_wait(std::atomic<std::uint32_t>* word,
                                          std::uint32_t expected) {
  __builtin_wasm_memory_atomic_wait32(reinterpret_cast<int*>(word), static_cast<int>(expected),
                                      -1);
}

int futex_wake(std::atomic<std::uint32_t>* word, int count) {
  return static_cast<int>(__builtin_wasm_memory_atomic_notify(reinterpret_cast<int*>(word),
                                                              static_cast<unsigned>(count)));
}

double monotonic_ns() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<double>(ts.tv_sec) * 1e9 + static_cast<double>(ts.tv_nsec);
}

// A WASI host runs the module's main thread where it may block (Node's main
// thread may Atomics.wait; a browser main thread is not a WASI host).
bool caller_may_block() { return true; }

std::uintptr_t current_thread_id() { return t_thread_id; }

}  // namespace tessera::wasm

#endif  // TESSERA_THREADS_USABLE && __wasi__
