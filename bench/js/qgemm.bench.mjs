#!/usr/bin/env node
// ./dev bench js, the integer half: tessera's JavaScript matmulInteger and
// qlinearMatmul in Node next to onnxruntime-web's MatMulInteger and
// QLinearMatMul on the same shapes and inputs (one-node models built in
// memory: tests/js/package/onnx-models.mjs), A u8 and B i8 with per-tensor
// zero points (QLinearMatMul: y u8), in GOP/s (2 m n k / s).
//
//   node bench/js/qgemm.bench.mjs [--sizes 64,256,1024] [--threads 1,2] [--rounds 5]
//
// As bench/js/gemm.bench.mjs: one child process per thread count, rounds
// alternating between the libraries with a pause before each, each figure
// the median of round medians with their min..max. Both sides take typed
// arrays and copy them into their heaps and the result out on every call
// (onnxruntime-web its feeds and outputs); onnxruntime-web runs its SIMD
// threaded build.
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { alternateRounds, arg, runChild, summary } from './bench-support.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..', '..');
const sizes = arg('--sizes', '64,256,1024').split(',').map(Number);
const threadCounts = arg('--threads', '1,2').split(',').map(Number);
const rounds = Number(arg('--rounds', '5'));
const childThreads = arg('--child', null);

// Calls per library per round: about 0.5 GOP of work, at least 3.
const repsFor = (n) => Math.max(3, Math.round(5e8 / (2 * n ** 3)));

// The quantization both sides use.
const q = { aScale: 0.02, aZeroPoint: 128, bScale: 0.01, bZeroPoint: 0, yScale: 1.5, yZeroPoint: 120 };

async function child(threads) {
  const { load } = await import(path.join(root, 'build/js/package/index.node.js'));
  const t = await load({ threads, mode: 'inline' });
  const ort = await import('onnxruntime-web');
  const { matmulIntegerModel, qlinearMatmulModel } = await import('../../tests/js/package/onnx-models.mjs');
  ort.env.wasm.numThreads = threads;
  ort.env.wasm.simd = true;
  const results = [];
  for (const n of sizes) {
    const a = Uint8Array.from({ length: n * n }, (_, i) => (i * 37 + 11) & 255);
    const b = Int8Array.from({ length: n * n }, (_, i) => ((i * 53 + 7) & 255) - 128);
    const c = new Int32Array(n * n), y = new Uint8Array(n * n);
    const integer = await ort.InferenceSession.create(matmulIntegerModel(n, n, n), { executionProviders: ['wasm'] });
    const qlinear = await ort.InferenceSession.create(qlinearMatmulModel(n, n, n), { executionProviders: ['wasm'] });
    const A = new ort.Tensor('uint8', a, [n, n]), B = new ort.Tensor('int8', b, [n, n]);
    const integerFeeds = { A, B, a_zero_point: new ort.Tensor('uint8', Uint8Array.of(q.aZeroPoint), []),
                           b_zero_point: new ort.Tensor('int8', Int8Array.of(q.bZeroPoint), []) };
    const qlinearFeeds = {
      a: A, a_scale: new ort.Tensor('float32', Float32Array.of(q.aScale), []),
      a_zero_point: new ort.Tensor('uint8', Uint8Array.of(q.aZeroPoint), []),
      b: B, b_scale: new ort.Tensor('float32', Float32Array.of(q.bScale), []),
      b_zero_point: new ort.Tensor('int8', Int8Array.of(q.bZeroPoint), []),
      y_scale: new ort.Tensor('float32', Float32Array.of(q.yScale), []),
      y_zero_point: new ort.Tensor('uint8', Uint8Array.of(q.yZeroPoint), []),
    };
    const runs = [
      { op: 'MatMulInteger', library: 'tessera',
        fn: () => t.matmulIntegerSync({ m: n, n, k: n, a, b, c, aZeroPoint: q.aZeroPoint }) },
      { op: 'MatMulInteger', library: 'onnxruntime-web', fn: async () => { await integer.run(integerFeeds); } },
      { op: 'QLinearMatMul', library: 'tessera',
        fn: () => t.qlinearMatmulSync({ m: n, n, k: n, a, b, y, ...q }) },
      { op: 'QLinearMatMul', library: 'onnxruntime-web', fn: async () => { await qlinear.run(qlinearFeeds); } },
    ].map((r) => ({ ...r, medians: [] }));
    await alternateRounds(runs, { rounds, reps: repsFor(n), work: 2 * n ** 3 });
    for (const r of runs) results.push({ n, threads, op: r.op, library: r.library, ...summary(r.medians) });
    await integer.release();
    await qlinear.release();
  }
  const isa = t.info.isa;
  await t.dispose();
  console.log(JSON.stringify({ results, isa }));
}

async function parent() {
  const cpu = (os.cpus()[0]?.model ?? 'unknown CPU').trim();
  console.log(`tessera JS benchmark: integer GEMM n x n x n (A u8, B i8), GOP/s (median of ${rounds} ` +
              `alternating rounds, min..max), Node ${process.version}, ${cpu}`);
  const all = [];
  let isa = '';
  for (const threads of threadCounts) {
    const data = runChild(import.meta.url, threads, ['--sizes', sizes.join(','), '--rounds', String(rounds)]);
    all.push(...data.results);
    isa = data.isa;
  }
  const get = (n, threads, op, library) =>
    all.find((r) => r.n === n && r.threads === threads && r.op === op && r.library === library);
  const fmt = (r) => (r ? `${r.value.toFixed(1)} (${r.min.toFixed(1)}..${r.max.toFixed(1)})` : 'n/a');
  console.log(`tessera level: ${isa}; onnxruntime-web: wasm (SIMD, threaded build), numThreads as in the table\n`);
  console.log('| op | n | threads | tessera | onnxruntime-web | tessera / onnxruntime-web |');
  console.log('|---|---|---|---|---|---|');
  for (const op of ['MatMulInteger', 'QLinearMatMul']) {
    for (const n of sizes) {
      for (const threads of threadCounts) {
        const t = get(n, threads, op, 'tessera'), o = get(n, threads, op, 'onnxruntime-web');
        const ratio = t && o ? `${(t.value / o.value).toFixed(2)}x` : 'n/a';
        console.log(`| ${op} | ${n} | ${threads} | ${fmt(t)} | ${fmt(o)} | ${ratio} |`);
      }
    }
  }
}

if (childThreads !== null) await child(Number(childThreads));
else await parent();
