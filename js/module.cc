// The JavaScript package's module: the tessera library behind its C API
// (js/bindings.json lists what is exported), plus the one function only
// a JavaScript embedder needs.
#include <emscripten/emscripten.h>

#include "tessera/platform/pool_provider.hpp"

// Called by dispose() after the instance's Context is destroyed and before
// its pthread Workers are terminated: the pool's threads end normally, so the
// browser tears their Workers (and the host Worker) down promptly. Returns
// the number of pools that could not be released (0 without threads).
extern "C" EMSCRIPTEN_KEEPALIVE int tsr_js_release_threads(void) {
  return tessera::platform::release_idle_pools();
}
