// Runs a WASI preview1 command module under Node's node:wasi, as the test
// emulator of the `wasi` preset (CMAKE_CROSSCOMPILING_EMULATOR):
//
//   node --disable-warning=ExperimentalWarning run-wasi.mjs module.wasm [args...]
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
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import process from 'node:process';
import { WASI } from 'node:wasi';

const [modulePath, ...moduleArgs] = process.argv.slice(2);
if (!modulePath) {
  process.stderr.write('usage: run-wasi.mjs module.wasm [args...]\n');
  process.exit(2);
}

const wasi = new WASI({
  version: 'preview1',
  args: [basename(modulePath), ...moduleArgs],
  env: { ...process.env },
  preopens: { '.': process.cwd(), '/': '/' },
  returnOnExit: true,
});

let code;
try {
  const module = await WebAssembly.compile(await readFile(modulePath));
  const instance = await WebAssembly.instantiate(module, wasi.getImportObject());
  code = wasi.start(instance);
} catch (error) {
  process.stderr.write(`run-wasi: ${modulePath}: ${error?.stack ?? error}\n`);
  code = 1;
}
// Let stdout/stderr drain before leaving.
process.exitCode = code;
