// --pre-js of the JavaScript package's module (js/CMakeLists.txt).
//
// Under Node, the require() the runtime calls (node-esm-shim.js declares
// it): Module.nodeRequire, which the package's Node glue passes
// (lib/platform-node.js, js/build-package.mjs), or, in a pthread worker,
// the require its CommonJS worker script put on globalThis.
if (typeof process === 'object' && process.versions && process.versions.node && !require) {
  require = Module['nodeRequire'] || globalThis.require;
  if (typeof require !== 'function') {
    throw new Error('tessera: under Node the module needs Module.nodeRequire (a require from node:module createRequire)');
  }
  // _scriptDir: the module's import.meta.url, which Emscripten captures
  // outside the factory (its optimizer does not take import.meta here).
  __filename = require('url').fileURLToPath(_scriptDir);
  __dirname = require('path').dirname(__filename);
}

// Module.tesseraEnv (set by the package's loader) becomes the module's
// environment before the library reads its knobs, e.g.
// { TESSERA_WASM_THREADS: '4' }. Emscripten 3.1.6 otherwise shows a fixed,
// made-up environment; the host's own (process.env) is deliberately not
// read: a library's configuration comes from its load() options.
Module['preRun'] = [].concat(Module['preRun'] || [], function tesseraEnv() {
  if (typeof ENV === 'object' && Module['tesseraEnv']) {
    Object.assign(ENV, Module['tesseraEnv']);
  }
});
