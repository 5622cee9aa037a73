// WASI without threads: the runtime hook behind thread_local objects with
// destructors. clang emits calls to __cxa_thread_atexit for them, but neither
// Debian's wasi-libc nor its wasm libc++abi (built without threads) defines
// it, so any such thread_local (e.g. the C API's per-thread error string)
// fails to link. In a module without threads the one thread ends when the
// process does, so registering the destructor as an exit handler runs it at
// the right time. Weak, so a libc or libc++abi that has the real one wins.
#include "tessera/platform/build_config.h"

// (wasi-threads defines the real one: wasm_thread_support_wasi.cc.)
#if defined(__wasi__) && !defined(_REENTRANT) && !TESSERA_THREADS_USABLE

extern "C" int __cxa_atexit(void (*destructor)(void*), void* object, void* dso);

extern "C" __attribute__((weak)) int __cxa_thread_atexit(void (*destructor)(void*),
                                                         void* object, void* dso) {
  return __cxa_atexit(destructor, object, dso);
}

#endif
