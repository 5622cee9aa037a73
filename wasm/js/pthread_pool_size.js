// --pre-js of every Emscripten -pthread link (toolchains/modules/
// TesseraTarget.cmake): sizes the pre-started pthread pool to match the wasm
// threads pool (design.md §Wasm threads pool), so tessera never has to
// create a thread lazily while its caller blocks.
// -sPTHREAD_POOL_SIZE=tesseraPthreadPoolSize() evaluates this when the
// module starts.
//
// Width: Module.tesseraWasmThreads (what a JS loader passes as its `threads`
// option), else TESSERA_WASM_THREADS from the Node environment, else 8 —
// the same default as the C++ knob. The pool needs width - 1 workers (the
// caller is participant 0); Module.tesseraExtraPthreads (default 2) more are
// kept for the application's own threads.
function tesseraPthreadPoolSize() {
  var threads = Module['tesseraWasmThreads'];
  if (!threads && typeof process === 'object' && process.env &&
      process.env['TESSERA_WASM_THREADS']) {
    threads = parseInt(process.env['TESSERA_WASM_THREADS'], 10);
  }
  if (!(threads >= 1 && threads <= 256)) threads = 8;
  var extra = Module['tesseraExtraPthreads'];
  if (!(extra >= 0)) extra = 2;
  return threads - 1 + extra;
}
