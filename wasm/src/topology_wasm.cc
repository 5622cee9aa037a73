// Topology and platform facts on wasm: the host's CPUs are not visible (and
// navigator.hardwareConcurrency is unreliable, design.md §Wasm threads pool),
// nothing can be pinned, and there are no cache facts. One CPU, with a note
// saying why.
#include "tessera/platform/build_config.h"

#include <cstdlib>
#include <string>

#if TESSERA_THREADS_USABLE && defined(__EMSCRIPTEN__)
#include <emscripten/threading.h>
#endif
#if defined(__EMSCRIPTEN__) && !TESSERA_THREADS_USABLE
#include <emscripten/emscripten.h>
#endif
#include "tessera/platform/execution_policy.hpp"
#include "tessera/platform/topology.hpp"

namespace tessera::platform {

Topology read_topology() {
  Topology t;
  t.cpus.push_back({0, 0, 0, CoreClass::kUnknown});
  t.online_count = 0;  // unknown
  t.from_os = false;
  t.notes.push_back(
      "wasm: the host's CPUs are not visible; one CPU assumed, no cache facts");
  return t;
}

#if defined(__EMSCRIPTEN__) && !TESSERA_THREADS_USABLE
// Module.tesseraThreadsUnavailable: its UTF-8 length, and a copy of it.
EM_JS(int, tessera_loader_reason_length, (), {
  var reason = (typeof Module === 'object' && Module['tesseraThreadsUnavailable']) || "";
  return lengthBytesUTF8(String(reason));
});
EM_JS(void, tessera_loader_reason_copy, (char* buffer, int size), {
  var reason = (typeof Module === 'object' && Module['tesseraThreadsUnavailable']) || "";
  stringToUTF8(String(reason), buffer, size);
});

std::string loader_threads_unavailable_reason() {
  const int length = tessera_loader_reason_length();
  if (length <= 0) return {};
  std::string reason(static_cast<std::size_t>(length) + 1, '\0');
  tessera_loader_reason_copy(reason.data(), length + 1);
  reason.resize(static_cast<std::size_t>(length));
  return reason;
}
#endif

PlatformFacts platform_facts() {
  PlatformFacts facts;
  facts.arch = cpu_features().arch;
  // The engine lowers SIMD128 itself (V8, SpiderMonkey, JavaScriptCore,
  // Wasmtime's Cranelift): a lowering bug there is outside every test
  // tessera runs, so each level is checked at load.
  facts.load_selftest_default = true;
  facts.threads_usable = TESSERA_THREADS_USABLE != 0;
  if (!facts.threads_usable) {
    facts.threads_unusable_reason = TESSERA_TARGET_NAME " is built without threads";
#if defined(__EMSCRIPTEN__) && !TESSERA_THREADS_USABLE
    // The JS loader (js/threading.mjs) took this build because the host
    // cannot run the threaded one, and says why.
    const std::string loader_reason = loader_threads_unavailable_reason();
    if (!loader_reason.empty()) {
      facts.threads_unusable_reason += "; the loader chose it because " + loader_reason;
    }
#endif
  }
#if TESSERA_THREADS_USABLE && defined(__EMSCRIPTEN__)
  // A -pthread module only instantiates where SharedArrayBuffer exists (its
  // memory is shared); the JS loader picks the single-threaded build where it
  // does not. Check anyway: a host can still lack Worker support.
  if (!emscripten_has_threading_support()) {
    facts.threads_usable = false;
    facts.threads_unusable_reason =
        "this JavaScript host has no SharedArrayBuffer/Worker threading support";
  }
#endif
  facts.affinity_supported = false;
  facts.caller_cpu = -1;
  facts.platform_name = "wasm";
  // Emscripten -pthread, wasi-threads: tessera's own pool, sized by
  // TESSERA_WASM_THREADS. (A wasi-threads module only instantiates where the
  // host gives it a shared memory and thread-spawn; whether thread-spawn
  // starts threads is known when the pool starts them: pool_provider_wasm.cc.)
  facts.pool_width_from_wasm_threads = facts.threads_usable;
  return facts;
}

}  // namespace tessera::platform
