// --pre-js of the JavaScript package's module (js/CMakeLists.txt):
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
