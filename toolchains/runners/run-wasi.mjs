// Runs a WASI preview1 command module under Node's node:wasi, as the test
// emulator of the `wasi` preset (CMAKE_CROSSCOMPILING_EMULATOR):
//
//   node run-wasi.mjs module.wasm [args...]
//   node run-wasi.mjs --pick relaxed.wasm simd128.wasm [args...]
//   node run-wasi.mjs [--no-thread-spawn] threads.wasm [args...]
//
// --pick runs the first module (a wasi-relaxed build) where this engine runs
// relaxed SIMD (relaxed-simd.mjs validates a tiny module) and the second
// (the plain wasi build) elsewhere; TESSERA_WASI_PICK=1 prints the choice.
//
// A module importing a shared memory and `wasi.thread-spawn` (the
// wasi-threads preset) gets both: the memory is made here with the limits
// the module declares, and thread-spawn starts a Worker on the same module
// and memory (wasi-threads.mjs). --no-thread-spawn makes every thread-spawn
// fail (return -1), as a host without threads would: tessera then runs
// serially and says why.
//
// argv[0] seen by the module is the module's file name; the remaining
// arguments and the whole process environment pass through unchanged (so
// TESSERA_* variables reach the module). The file system root is preopened
// as "/" (and the current directory as "."), so absolute paths work; note
// that wasi-libc starts with "/" as its working directory, so a relative
// path names a file under the host's "/", not under the current directory.
// The process exits with the module's exit code; a trap (unreachable,
// out-of-bounds access, stack overflow) prints the error and exits 1.
//
// Outside CMake the same module runs unchanged under other preview1 hosts,
// e.g. `wasmtime run --dir=. --env TESSERA_ISA=scalar module.wasm info`.
//
// Works on Debian 12's Node 18.20 as on Node 20+: features are detected, no
// command-line flag is needed (18 rejects --disable-warning, and its WASI
// object has `wasiImport` but no `getImportObject()`).
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import process from 'node:process';

// node:wasi prints an ExperimentalWarning when it loads; it would land in
// every test's output (and in the expected-output checks), so that one
// warning is dropped here and node:wasi is imported only after.
const emitWarning = process.emitWarning;
process.emitWarning = function filterWasiWarning(warning, ...rest) {
  const text = String(warning?.message ?? warning);
  const type = typeof rest[0] === 'string' ? rest[0] : rest[0]?.type ?? warning?.name;
  if (type === 'ExperimentalWarning' && /WASI/.test(text)) return;
  return emitWarning.call(process, warning, ...rest);
};
const { WASI } = await import('node:wasi');

let [modulePath, ...moduleArgs] = process.argv.slice(2);
let spawnEnabled = true;
if (modulePath === '--no-thread-spawn') {
  spawnEnabled = false;
  [modulePath, ...moduleArgs] = moduleArgs;
}
if (modulePath === '--pick') {
  const [relaxed, plain, ...rest] = moduleArgs;
  if (!relaxed || !plain) {
    process.stderr.write('usage: run-wasi.mjs --pick relaxed.wasm simd128.wasm [args...]\n');
    process.exit(2);
  }
  const { relaxedSimdSupported } = await import('./relaxed-simd.mjs');
  const useRelaxed = relaxedSimdSupported();
  modulePath = useRelaxed ? relaxed : plain;
  moduleArgs = rest;
  if (process.env.TESSERA_WASI_PICK === '1') {
    process.stderr.write(`run-wasi: relaxed SIMD ${useRelaxed ? 'runs' : 'does not run'} ` +
                         `here: ${modulePath}\n`);
  }
}
if (!modulePath) {
  process.stderr.write('usage: run-wasi.mjs module.wasm [args...]\n');
  process.exit(2);
}

const wasiOptions = {
  version: 'preview1',
  args: [basename(modulePath), ...moduleArgs],
  env: { ...process.env },
  preopens: { '.': process.cwd(), '/': '/' },
};
const wasi = new WASI({ ...wasiOptions, returnOnExit: true });

let code;
try {
  const bytes = await readFile(modulePath);
  const module = await WebAssembly.compile(bytes);
  const imports = typeof wasi.getImportObject === 'function'
    ? wasi.getImportObject()                          // Node >= 19.8 / 20
    : { wasi_snapshot_preview1: wasi.wasiImport };    // Node 18
  const threads = await import('./wasi-threads.mjs');
  // An imported memory (wasi-threads modules import a shared one) is made
  // here, as the module declares it.
  const limits = threads.memoryImport(bytes);
  if (limits) {
    const memory = new WebAssembly.Memory({ initial: limits.initial, maximum: limits.maximum,
                                            shared: limits.shared });
    imports[limits.module] = { ...imports[limits.module], [limits.name]: memory };
    if (threads.importsThreadSpawn(module)) {
      if (!limits.shared) throw new Error('a module importing wasi.thread-spawn needs a shared memory');
      const shared = threads.makeSharedThreadState({ module, memory, wasiOptions, spawnEnabled });
      // A thread's proc_exit or trap ends the process with its code.
      imports.wasi = { 'thread-spawn': threads.makeThreadSpawn(shared, (c) => process.exit(c)) };
    }
  }
  const instance = await WebAssembly.instantiate(module, imports);
  code = wasi.start(instance);
} catch (error) {
  process.stderr.write(`run-wasi: ${modulePath}: ${error?.stack ?? error}\n`);
  code = 1;
}
// Let stdout/stderr drain before leaving.
process.exitCode = code;
