// The relaxed-SIMD level's sgemm against the SIMD128 level's, next to the
// 128-bit multiply-add peak of each (tessera-simd-peak, bench/wasm): the
// speed-up relaxed SIMD can give is the fused peak over the unfused one
// times what each kernel reaches of its own peak. And the two levels'
// integer GEMM (u8 x s8, int32 output: i32x4.dot_i16x8_s on int16 pairs
// against the relaxed i8 x i7 dot on 7-bit planes), the same N^3, in GOP/s,
// each as a share of its own step's peak (the relaxed one halved: two dots
// per 16 products).
//
//   node --experimental-wasm-relaxed-simd bench/wasm_relaxed_simd.mjs
//     [--size N] [--rounds R] [--reps K >= 5]
//   (./dev bench wasi-relaxed builds the wasi and wasi-relaxed presets and
//   runs this with the flag)
//
// Each round runs the wasi (SIMD128) and wasi-relaxed CLIs' sgemm N^3
// (median of K repetitions inside one process) and the peak program once
// each, in an order rotated from round to round. Reported: medians over
// rounds with ranges, each GEMM as a share of its level's peak, and the
// per-round ratios relaxed / SIMD128. Where the builds were configured with a
// Wasmtime CLI, the same two GEMMs of both levels run under it too, in the
// same rounds (Cranelift lowers the relaxed instructions its own way).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import process from 'node:process';

import { relaxedSimdSupported } from '../toolchains/runners/relaxed-simd.mjs';
import { figure, gflops, intOption, median, pairedRatio, presetWasmtime, range, root,
         rotatedRounds, runWasiModule, runWasmtimeModule, wasmtimeVersion }
  from './wasm_bench_support.mjs';

const script = 'wasm_relaxed_simd';
const args = process.argv.slice(2);
const size = intOption(script, args, '--size', 1024);
const rounds = intOption(script, args, '--rounds', 5);
const reps = intOption(script, args, '--reps', 5);
// V8 runs a function's first calls from its baseline compiler (Liftoff)
// and the optimized code only later: with fewer than five repetitions the
// median can be a baseline run (--reps 3 gave 19.4 and 31.2 GFLOP/s, a
// "1.61x" that is Liftoff's, not the levels').
if (reps < 5) {
  process.stderr.write(`${script}: --reps must be at least 5 (the first calls run V8's ` +
                       'baseline code; see the comment here)\n');
  process.exit(2);
}

if (!relaxedSimdSupported()) {
  process.stderr.write(`${script}: this engine does not validate relaxed SIMD (Node 20 needs ` +
                       '--experimental-wasm-relaxed-simd; Node 18 knows only pre-standard opcodes)\n');
  process.exit(2);
}
const simd128 = join(root, 'build/wasi/tessera-cli.wasm');
const relaxed = join(root, 'build/wasi-relaxed/tessera-cli.wasm');
const peak = join(root, 'build/wasi-relaxed/tessera-simd-peak.wasm');
for (const [file, preset] of [[simd128, 'wasi'], [relaxed, 'wasi-relaxed'], [peak, 'wasi-relaxed']]) {
  if (!existsSync(file)) {
    process.stderr.write(`${script}: ${file} is missing (./dev build ${preset})\n`);
    process.exit(2);
  }
}
// This process was started with the flag (relaxedSimdSupported() said so);
// its children need it too.
const nodeFlags = process.execArgv.filter((f) => f.startsWith('--experimental-wasm'));

const gemm = ['gemm', String(size), String(size), String(size), '--reps', String(reps)];
const qgemm = ['qgemm', String(size), String(size), String(size), '--reps', String(reps)];
const gops = (output) => figure(output, 'GOP/s: ');
const configs = [
  { run: () => gflops(runWasiModule(simd128, gemm, { nodeFlags })) },
  { run: () => gflops(runWasiModule(relaxed, gemm, { nodeFlags })) },
  { run: () => runWasiModule(peak, ['--runs', '5'], { nodeFlags }) },  // its output
  { run: () => gops(runWasiModule(simd128, qgemm, { nodeFlags })) },
  { run: () => gops(runWasiModule(relaxed, qgemm, { nodeFlags })) },
];
const wasmtime = presetWasmtime('wasi-relaxed');
if (wasmtime) {
  const under = (module, command, parse) => ({ run: () => parse(runWasmtimeModule(wasmtime, module, command)) });
  configs.push(under(simd128, gemm, gflops), under(relaxed, gemm, gflops),
               under(simd128, qgemm, gops), under(relaxed, qgemm, gops));
}
const [gemm128, gemmRelaxed, peakOutputs, qgemm128, qgemmRelaxed,
       wtGemm128, wtGemmRelaxed, wtQgemm128, wtQgemmRelaxed] = rotatedRounds(configs, rounds);
const peaks = {
  unfused: peakOutputs.map((out) => figure(out, 'peak f32x4 mul+add: ')),
  fused: peakOutputs.map((out) => figure(out, 'peak f32x4 relaxed_madd: ')),
  pairs: peakOutputs.map((out) => figure(out, 'peak i32x4.dot_i16x8_s+add: ')),
  // The exact relaxed GEMM runs two dots per 16 products (7-bit planes):
  // its reachable peak is half the instruction's.
  relaxedDot: peakOutputs.map(
      (out) => figure(out, 'peak i16x8.relaxed_dot_i8x16_i7x16_s+extadd+add: ') / 2),
};

console.log(`sgemm ${size}^3, one thread, ${rounds} rounds (median of ${reps} repetitions per ` +
            `run); peaks: best of 5 passes, 12 accumulators, f32x4`);
console.log('                         GFLOP/s median   range          share of its peak');
const row = (name, xs, peakXs) =>
  console.log(`${name.padEnd(25)}${median(xs).toFixed(2).padStart(14)}   ` +
              `${range(xs).padEnd(15)}${peakXs ? `${(100 * median(xs) / median(peakXs)).toFixed(0)}%` : ''}`);
row('peak mul+add (simd128)', peaks.unfused);
row('peak relaxed_madd', peaks.fused);
row('sgemm simd128', gemm128, peaks.unfused);
row('sgemm simd128_relaxed', gemmRelaxed, peaks.fused);
console.log(`relaxed / simd128, sgemm: ${pairedRatio(gemmRelaxed, gemm128)}`);
console.log(`relaxed / simd128, peak:  ${pairedRatio(peaks.fused, peaks.unfused)}`);
console.log(`\ninteger GEMM u8 x s8 ${size}^3, one thread     GOP/s median   range`);
row('peak dot_i16x8_s+add', peaks.pairs);
row('peak relaxed dot, planes', peaks.relaxedDot);
row('qgemm simd128', qgemm128, peaks.pairs);
row('qgemm simd128_relaxed', qgemmRelaxed, peaks.relaxedDot);
console.log(`relaxed / simd128, qgemm: ${pairedRatio(qgemmRelaxed, qgemm128)}`);
if (wasmtime) {
  console.log(`\nunder ${wasmtimeVersion(wasmtime)} (${wasmtime}), one thread, same rounds`);
  console.log('                         median           range');
  row('sgemm simd128', wtGemm128);
  row('sgemm simd128_relaxed', wtGemmRelaxed);
  row('qgemm simd128', wtQgemm128);
  row('qgemm simd128_relaxed', wtQgemmRelaxed);
  console.log(`relaxed / simd128, sgemm: ${pairedRatio(wtGemmRelaxed, wtGemm128)}`);
  console.log(`relaxed / simd128, qgemm: ${pairedRatio(wtQgemmRelaxed, wtQgemm128)}`);
  console.log(`wasmtime / node, sgemm simd128: ${pairedRatio(wtGemm128, gemm128)}; ` +
              `relaxed: ${pairedRatio(wtGemmRelaxed, gemmRelaxed)}`);
} else {
  console.log('\nwasmtime: not measured: build/wasi-relaxed was configured without a Wasmtime CLI ' +
              '(./dev deps builds one)');
}
