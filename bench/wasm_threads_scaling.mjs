// How tessera's wasm threads pool scales on WASI threads: sgemm N³ through
// toolchains/runners/run-wasi.mjs on the wasi-threads build at 1 and 2
// threads, side by side with the native build at 1 and 2 threads, which is
// the machine's own two-thread scaling at that moment (a shared VM's second
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
import { dirname, join } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
function option(name, fallback) {
  const i = args.indexOf(name);
  if (i < 0) return fallback;
  const value = Number(args[i + 1]);
  if (!Number.isInteger(value) || value < 1) {
    process.stderr.write(`wasm_threads_scaling: ${name} needs a positive integer\n`);
    process.exit(2);
  }
  return value;
}
const size = option('--size', 1024);
const rounds = option('--rounds', 7);
const reps = option('--reps', 21);

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
  { name: 'wasi-threads 1T', threads: 1,
    run: () => execFileSync(process.execPath, [join(root, 'toolchains/runners/run-wasi.mjs'), wasm, ...gemm],
                            { env: { ...process.env, TESSERA_WASM_THREADS: '1' } }) },
  { name: 'wasi-threads 2T', threads: 2,
    run: () => execFileSync(process.execPath, [join(root, 'toolchains/runners/run-wasi.mjs'), wasm, ...gemm],
                            { env: { ...process.env, TESSERA_WASM_THREADS: '2' } }) },
  { name: 'native 1T', threads: 1, run: () => execFileSync(native, [...gemm, '--threads', '1']) },
  { name: 'native 2T', threads: 2, run: () => execFileSync(native, [...gemm, '--threads', '2']) },
];

function gflops(output) {
  const m = /GFLOP\/s: ([0-9.]+)/.exec(String(output));
  if (!m) throw new Error(`no GFLOP/s in:\n${output}`);
  return Number(m[1]);
}
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const h = Math.floor(s.length / 2);
  return s.length % 2 ? s[h] : (s[h - 1] + s[h]) / 2;
};

const results = configs.map(() => []);
for (let r = 0; r < rounds; ++r) {
  for (let j = 0; j < configs.length; ++j) {
    const i = (j + r) % configs.length;
    results[i].push(gflops(configs[i].run()));
  }
}

console.log(`sgemm ${size}^3, ${rounds} rounds, median of ${reps} repetitions per run`);
console.log('config            GFLOP/s median   range');
configs.forEach((c, i) => {
  const xs = results[i];
  console.log(`${c.name.padEnd(18)}${median(xs).toFixed(2).padStart(14)}   ` +
              `${Math.min(...xs).toFixed(2)}-${Math.max(...xs).toFixed(2)}`);
});
for (const [name, one, two] of [['wasi-threads', 0, 1], ['native', 2, 3]]) {
  const ratios = results[two].map((x, r) => x / results[one][r]);
  console.log(`${name} 2T/1T: median of per-round ratios ${median(ratios).toFixed(2)}x ` +
              `(range ${Math.min(...ratios).toFixed(2)}-${Math.max(...ratios).toFixed(2)})`);
}
