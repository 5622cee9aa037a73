// Whether this JavaScript engine runs WebAssembly relaxed SIMD, found by
// validating a tiny module that uses it (never by user agent or version):
// one function (v128, v128, v128) -> v128 returning f32x4.relaxed_madd of
// its parameters. A host that rejects it must get the plain SIMD128 build:
// a module with any relaxed instruction fails to compile as a whole.
//
//   import { relaxedSimdSupported } from './relaxed-simd.mjs';
//   node relaxed-simd.mjs            prints "relaxed SIMD: yes" or "... no"
//
// Node 20 runs it with --experimental-wasm-relaxed-simd; Chromium and
// wasmtime by default.
import process from 'node:process';
import { fileURLToPath } from 'node:url';

const kRelaxedMaddModule = new Uint8Array([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,  // "\0asm", version 1
  0x01, 0x08, 0x01, 0x60, 0x03, 0x7b, 0x7b, 0x7b, 0x01, 0x7b,  // type: (v128 x3) -> v128
  0x03, 0x02, 0x01, 0x00,  // function 0 has type 0
  0x0a, 0x0d, 0x01, 0x0b, 0x00,  // code: one body of 11 bytes, no locals
  0x20, 0x00, 0x20, 0x01, 0x20, 0x02,  // local.get 0, 1, 2
  0xfd, 0x85, 0x02,  // f32x4.relaxed_madd (0xfd 0x105)
  0x0b,  // end
]);

export function relaxedSimdSupported() {
  return WebAssembly.validate(kRelaxedMaddModule);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  process.stdout.write(`relaxed SIMD: ${relaxedSimdSupported() ? 'yes' : 'no'}\n`);
}
