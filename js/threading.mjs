// Picks the Emscripten build a JavaScript host can run
// (design.md §Serial fallback): the -pthread build needs SharedArrayBuffer
// (in browsers: a cross-origin isolated page, COOP + COEP on every
// response). Where it is missing, a threaded module would fail to load (its
// memory is shared), so the loader takes the single-threaded build instead
// and hands it the reason, which the module reports as the resolved
// policy's threads_reason: threads unusable -> serial, with a diagnostic,
// never a failure.

import { readFileSync } from 'node:fs';

import { threadingSupport } from './package/lib/threading-support.js';

// { ok, reason } for a global object: the package's own test.
export { threadingSupport };

// TESSERA_WASM_THREADS' default and range: the one definition the C++ knob
// and the module's pre-js are built from.
export const wasmThreads = JSON.parse(
  readFileSync(new URL('../platform/wasm_threads.json', import.meta.url), 'utf8'));

// builds: { threaded: path-or-url, single: path-or-url }.
// Returns { url, threaded, reason }.
export function chooseBuild(builds, g = globalThis) {
  const support = threadingSupport(g);
  if (support.ok) return { url: builds.threaded, threaded: true, reason: '' };
  return { url: builds.single, threaded: false, reason: support.reason };
}

// The Module settings a tessera Emscripten program reads at start-up:
// tesseraWasmThreads sizes the pre-started pthread pool
// (wasm/pthread_pool_size.js.in); tesseraThreadsUnavailable is the reason
// the single-threaded build was chosen (wasm/src/topology_wasm.cc).
export function moduleSettings(choice, { threads } = {}) {
  const settings = {};
  if (threads !== undefined) {
    const { min, max } = wasmThreads;
    if (!Number.isInteger(threads) || threads < min || threads > max) {
      throw new RangeError(`threads must be an integer in [${min}, ${max}] (got ${threads})`);
    }
    settings.tesseraWasmThreads = threads;
  }
  if (!choice.threaded) settings.tesseraThreadsUnavailable = choice.reason;
  return settings;
}
