// --pre-js for tessera's Emscripten *programs* (tessera-tests, tessera-cli,
// tessera-demo), so that `node program.js args...` behaves like a native
// command: it is the whole "runner" for Emscripten output, and CMake's
// CMAKE_CROSSCOMPILING_EMULATOR is plain `node` (no flags; Node 20 rejects
// the --experimental-wasm-threads that emcmake would add).
//
// Only in Node, only on the main thread (pthread workers load this same
// script with Module.ENVIRONMENT_IS_PTHREAD already set, and get the compiled
// module and the environment from the main thread):
//  * The process environment becomes the program's environment (getenv), so
//    TESSERA_* variables reach it. Emscripten 3.1.6 otherwise shows a fixed,
//    made-up environment (USER=web_user, ...).
//  * The .wasm bytes are read here and handed over as Module.wasmBinary.
//    Node 20 has a global fetch(), which this Emscripten's loader tries on a
//    plain file path and fails ("Failed to parse URL"); with the bytes given
//    it never fetches.
// The library itself is not linked with this file; browsers never see it.
//  * A launcher that require()s the program (cli/tessera-cli.mjs) hands
//    its Module settings over in globalThis.tesseraModuleSettings: the
//    generated script's own `var Module` shadows any global Module.
if (typeof process === 'object' && process.versions && process.versions.node &&
    !Module['ENVIRONMENT_IS_PTHREAD']) {
  if (typeof globalThis.tesseraModuleSettings === 'object') {
    Object.assign(Module, globalThis.tesseraModuleSettings);
  }
  Module['preRun'] = [].concat(Module['preRun'] || [], function tesseraNodeEnv() {
    if (typeof ENV === 'object') {
      Object.assign(ENV, process.env);
      // A launcher's `threads` option is the TESSERA_WASM_THREADS knob.
      if (Module['tesseraWasmThreads']) {
        ENV['TESSERA_WASM_THREADS'] = String(Module['tesseraWasmThreads']);
      }
    }
  });
  if (!Module['wasmBinary'] && typeof __filename === 'string') {
    var tesseraWasmPath = __filename.replace(/\.c?js$/, '.wasm');
    if (require('fs').existsSync(tesseraWasmPath)) {
      Module['wasmBinary'] = require('fs').readFileSync(tesseraWasmPath);
    }
  }
}
