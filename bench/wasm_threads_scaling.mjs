// How tessera's wasm threads pool scales on WASI threads: sgemm N³ on the
// wasi-threads build at 1 and 2 threads under Node's node:wasi
// (toolchains/runners/run-wasi.mjs) and under the Wasmtime CLI the build
// was configured with (run-wasmtime.sh; skipped, saying so, without one),
// side by side with the native build at 1 and 2 threads, which is the
// machine's own two-thread scaling at that moment (a shared VM's second
// core is not always a whole core).
//
//   node bench/wasm_threads_scaling.mjs [--size N] [--rounds R] [--reps K]
//     (./dev bench wasi-threads builds both and runs this)
//
// Each round runs the four configurations once, in an order rotated from
// round to round; each run reports the median GFLOP/s of K repetitions
// inside one process (tessera-cli gemm). Reported: the median over rounds
// with the range, and the median over rounds of the per-round ratio 2T/1T
// (paired within a round, so a slow stretch of the machine cancels out).
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import process from 'node:process';

import { gflops, intOption, median, pairedRatio, presetWasmtime, range, root, rotatedRounds,
         runWasiModule, runWasmtimeModule, wasmtimeVersion } from './wasm_bench_support.mjs';

const args = process.argv.slice(2);
const size = intOption('wasm_threads_scaling', args, '--size', 1024);
const rounds = intOption('wasm_threads_scaling', args, '--rounds', 7);
const reps = intOption('wasm_threads_scaling', args, '--reps', 21);

const wasm = join(root, 'build/wasi-threads/tessera-cli.wasm');
const native = join(root, 'build/native/tessera-cli');
for (const file of [wasm, native]) {
  if (!existsSync(file)) {
    process.stderr.write(`wasm_threads_scaling: ${file} is missing (cmake --build --preset ` +
                         `${file === wasm ? 'wasi-threads' : 'native'})\n`);
    process.exit(2);
  }
}

const gemm = ['gemm', String(size), String(size), String(size), '--reps', String(reps)];
const configs = [
  { name: 'node:wasi 1T',
    run: () => gflops(runWasiModule(wasm, gemm, { env: { TESSERA_WASM_THREADS: '1' } })) },
  { name: 'node:wasi 2T',
    run: () => gflops(runWasiModule(wasm, gemm, { env: { TESSERA_WASM_THREADS: '2' } })) },
  { name: 'native 1T', run: () => gflops(execFileSync(native, [...gemm, '--threads', '1'])) },
  { name: 'native 2T', run: () => gflops(execFileSync(native, [...gemm, '--threads', '2'])) },
];
const pairs = [['wasi-threads, node:wasi', 0, 1], ['native', 2, 3]];
const wasmtime = presetWasmtime('wasi-threads');
if (wasmtime) {
  const under = (threads) => () => gflops(runWasmtimeModule(
      wasmtime, wasm, gemm, { threads: true, env: { TESSERA_WASM_THREADS: threads } }));
  configs.push({ name: 'wasmtime 1T', run: under('1') }, { name: 'wasmtime 2T', run: under('2') });
  pairs.push(['wasi-threads, wasmtime', 4, 5]);
  console.log(`wasmtime: ${wasmtimeVersion(wasmtime)} (${wasmtime})`);
} else {
  console.log('wasmtime: not measured: build/wasi-threads was configured without a Wasmtime CLI ' +
              '(./dev deps builds one)');
}

const results = rotatedRounds(configs, rounds);

console.log(`sgemm ${size}^3, ${rounds} rounds, median of ${reps} repetitions per run`);
console.log('config            GFLOP/s median   range');
configs.forEach((c, i) => {
  const xs = results[i];
  console.log(`${c.name.padEnd(18)}${median(xs).toFixed(2).padStart(14)}   ${range(xs)}`);
});
for (const [name, one, two] of pairs) {
  console.log(`${name} 2T/1T: median of per-round ratios ${pairedRatio(results[two], results[one])}`);
}
if (wasmtime) {
  console.log(`wasmtime / node, 1T: ${pairedRatio(results[4], results[0])}; ` +
              `2T: ${pairedRatio(results[5], results[1])}`);
}
