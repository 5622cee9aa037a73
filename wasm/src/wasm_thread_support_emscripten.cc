// wasm_thread_support.hpp on Emscripten -pthread builds: pthreads on the
// module's pre-started Web Workers (-sPTHREAD_POOL_SIZE).
#include "wasm/src/wasm_thread_support.hpp"

#if TESSERA_THREADS_USABLE && defined(__EMSCRIPTEN__)

#include <emscripten/emscripten.h>
#include <emscripten/threading.h>
#include <pthread.h>

#include <cmath>
#include <cstring>

namespace tessera::wasm {
namespace {

struct PthreadRecord {
  pthread_t thread{};
  void (*entry)(void*) = nullptr;
  void* arg = nullptr;
};

void* run_entry(void* record) {
  PthreadRecord* r = static_cast<PthreadRecord*>(record);
  r->entry(r->arg);
  return nullptr;
}

}  // namespace

bool start_thread(void (*entry)(void*), void* arg, WasmThread* thread, std::string* error) {
  auto* record = new PthreadRecord{{}, entry, arg};
  const int rc = pthread_create(&record->thread, nullptr, &run_entry, record);
  if (rc != 0) {
    delete record;
    *error = std::string("pthread_create: ") + std::strerror(rc) +
             " (is -sPTHREAD_POOL_SIZE below TESSERA_WASM_THREADS?)";
    return false;
  }
  thread->record = record;
  return true;
}

void join_thread(WasmThread* thread) {
  auto* record = static_cast<PthreadRecord*>(thread->record);
  if (record == nullptr) return;
  pthread_join(record->thread, nullptr);
  delete record;
  thread->record = nullptr;
}

void futex_wait(std::atomic<std::uint32_t>* word, std::uint32_t expected) {
  emscripten_futex_wait(reinterpret_cast<volatile void*>(word), expected, INFINITY);
}

int futex_wake(std::atomic<std::uint32_t>* word, int count) {
  return emscripten_futex_wake(reinterpret_cast<volatile void*>(word), count);
}

double monotonic_ns() { return emscripten_get_now() * 1e6; }

bool caller_may_block() { return emscripten_is_main_browser_thread() == 0; }

std::uintptr_t current_thread_id() { return reinterpret_cast<std::uintptr_t>(pthread_self()); }

}  // namespace tessera::wasm

#endif  // TESSERA_THREADS_USABLE && __EMSCRIPTEN__
