#!/usr/bin/env node
// ./dev bench js: sgemm through tessera's JavaScript API in Node next to the
// libraries JavaScript users pick today (@tensorflow/tfjs-backend-wasm and
// onnxruntime-web, matmul of the same shapes) and next to tessera's own
// figures (the same wasm build's tessera-cli, and native AVX2 at one
// thread), plus the fixed cost of one tiny call, inline and in worker mode.
//
//   node bench/js/gemm.bench.mjs [--sizes 64,256,1024] [--threads 1,2,4] [--rounds 5]
//
// One child process per thread count (onnxruntime-web fixes its thread
// count when it first starts); inside it, rounds alternate between the
// libraries (tessera, tfjs, ort, tessera, ...; the order rotates each
// round, with a pause before each library) so a noisy neighbour hits all
// of them; each figure is the median over rounds of each round's median,
// with the min..max of the round medians. What each call copies: 'tessera'
// takes typed arrays (A and B copied into its heap, C copied out, as
// onnxruntime-web does with its feeds and outputs); 'tessera (heap
// tensors)' uses operands resident in its heap; tfjs-backend-wasm has A and
// B resident (tf.tensor2d once) and copies C out (dataSync). Every peer runs its best kernel in
// Node: tfjs-backend-wasm its SIMD build (its threads are disabled in Node),
// onnxruntime-web its SIMD threaded build.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { alternateRounds, arg, median, runChild, summary } from './bench-support.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..', '..');
const sizes = arg('--sizes', '64,256,1024').split(',').map(Number);
const threadCounts = arg('--threads', '1,2,4').split(',').map(Number);
const rounds = Number(arg('--rounds', '5'));
const childThreads = arg('--child', null);

// Calls per library per round: about 0.2 GFLOP of work, at least 3.
const repsFor = (n) => Math.max(3, Math.round(2e8 / (2 * n ** 3)));

async function child(threads) {
  const { load } = await import(path.join(root, 'build/js/package/index.node.js'));
  const t = await load({ threads, mode: 'inline' });
  const libraries = [{
    name: 'tessera',
    prepare: (n, a, b) => {
      const c = new Float32Array(n * n);
      return () => t.gemmSync({ m: n, n, k: n, a, b, c });
    },
  }, {
    name: 'tessera (heap tensors)',
    prepare: (n, a, b) => {
      const ta = t.alloc(Float32Array, n * n), tb = t.alloc(Float32Array, n * n), tc = t.alloc(Float32Array, n * n);
      ta.data.set(a);
      tb.data.set(b);
      return () => t.gemmSync({ m: n, n, k: n, a: ta, b: tb, c: tc });
    },
  }];
  let tfInfo = 'not run';
  if (threads === 1) {
    const tf = await import('@tensorflow/tfjs-core');
    const wasm = await import('@tensorflow/tfjs-backend-wasm');
    wasm.setWasmPaths(path.join(root, 'node_modules/@tensorflow/tfjs-backend-wasm/dist/') + '/');
    await tf.setBackend('wasm');
    tfInfo = `simd ${tf.env().getBool('WASM_HAS_SIMD_SUPPORT')}, threads ${tf.env().getBool('WASM_HAS_MULTITHREAD_SUPPORT')}`;
    libraries.push({
      name: 'tfjs-backend-wasm',
      prepare: (n, a, b) => {
        const ta = tf.tensor2d(a, [n, n]), tb = tf.tensor2d(b, [n, n]);
        return () => { const c = tf.matMul(ta, tb); c.dataSync(); c.dispose(); };
      },
    });
  }
  const ort = await import('onnxruntime-web');
  const { matmulModel } = await import('../../tests/js/package/onnx-models.mjs');
  ort.env.wasm.numThreads = threads;
  ort.env.wasm.simd = true;
  const sessions = new Map();
  for (const n of sizes) sessions.set(n, await ort.InferenceSession.create(matmulModel(n, n, n), { executionProviders: ['wasm'] }));
  libraries.push({
    name: 'onnxruntime-web',
    prepare: (n, a, b) => {
      const feeds = { A: new ort.Tensor('float32', a, [n, n]), B: new ort.Tensor('float32', b, [n, n]) };
      const s = sessions.get(n);
      return async () => { await s.run(feeds); };
    },
  });

  const results = [];
  for (const n of sizes) {
    const a = Float32Array.from({ length: n * n }, (_, i) => ((i * 7) % 13) / 13 - 0.5);
    const b = Float32Array.from({ length: n * n }, (_, i) => ((i * 5) % 11) / 11 - 0.5);
    const runs = libraries.map((lib) => ({ lib, fn: lib.prepare(n, a, b), medians: [] }));
    await alternateRounds(runs, { rounds, reps: repsFor(n), work: 2 * n ** 3 });
    for (const r of runs) {
      const f = summary(r.medians);
      results.push({ n, threads, library: r.lib.name, gflops: f.value, min: f.min, max: f.max });
    }
  }

  // The fixed cost of one tiny call (8 x 8 x 8), inline.
  const tiny = { m: 8, n: 8, k: 8, a: new Float32Array(64).fill(1), b: new Float32Array(64).fill(1), c: new Float32Array(64) };
  const perCall = (fn, count) => {
    const meds = [];
    for (let round = 0; round < 5; ++round) {
      const t0 = performance.now();
      for (let i = 0; i < count; ++i) fn();
      meds.push((performance.now() - t0) / count * 1000);
    }
    return median(meds);
  };
  const tinyInline = perCall(() => t.gemmSync(tiny), 20000);
  t.dispose();
  let tinyWorker = null;
  if (threads === 1) {
    const w = await load({ threads: 1, mode: 'worker' });
    for (let i = 0; i < 200; ++i) await w.gemm(tiny);
    const meds = [];
    for (let round = 0; round < 5; ++round) {
      const t0 = performance.now();
      for (let i = 0; i < 2000; ++i) await w.gemm(tiny);
      meds.push((performance.now() - t0) / 2000 * 1000);
    }
    tinyWorker = median(meds);
    await w.dispose();
  }
  for (const s of sessions.values()) await s.release();
  console.log(JSON.stringify({ results, tinyInline, tinyWorker, tfInfo, build: t.info.build }));
}

function cliFigure(command, args) {
  try {
    const out = execFileSync(command, args, { encoding: 'utf8', env: { ...process.env } });
    const m = out.match(/GFLOP\/s: ([0-9.]+)/);
    return m ? Number(m[1]) : null;
  } catch {
    return null;
  }
}

async function parent() {
  const cpu = (os.cpus()[0]?.model ?? 'unknown CPU').trim();
  console.log(`tessera JS benchmark: sgemm n x n x n, GFLOP/s (median of ${rounds} alternating rounds, min..max), ` +
              `Node ${process.version}, ${cpu}, ${os.availableParallelism?.() ?? os.cpus().length} logical CPUs`);
  const all = [];
  let tiny = {};
  let tfInfo = '';
  for (const threads of threadCounts) {
    const data = runChild(import.meta.url, threads, ['--sizes', sizes.join(','), '--rounds', String(rounds)]);
    all.push(...data.results);
    if (threads === 1) {
      tiny = { inline: data.tinyInline, worker: data.tinyWorker };
      tfInfo = data.tfInfo;
    }
  }
  // tessera's own figures: the same wasm build through its CLI (one
  // thread), and native AVX2 at one thread.
  const cliWasm = {}, native = {};
  for (const n of sizes) {
    const reps = String(Math.max(15, Math.min(200, 5 * repsFor(n))));
    const st = path.join(root, 'build/emscripten-st/tessera-cli.js');
    if (existsSync(st)) cliWasm[n] = cliFigure(process.execPath, [st, 'gemm', String(n), String(n), String(n), '--reps', reps]);
    const nat = path.join(root, 'build/native/tessera-cli');
    if (existsSync(nat)) native[n] = cliFigure(nat, ['gemm', String(n), String(n), String(n), '--reps', reps, '--threads', '1', '--isa', 'avx2']);
  }
  const fmt = (r) => (r ? `${r.gflops.toFixed(1)} (${r.min.toFixed(1)}..${r.max.toFixed(1)})` : 'n/a');
  const libs = ['tessera', 'tessera (heap tensors)', 'tfjs-backend-wasm', 'onnxruntime-web'];
  console.log(`\n| n | threads | ${libs.join(' | ')} | tessera-cli same wasm build (1 thread) | native AVX2 (1 thread) |`);
  console.log(`|---|---|${libs.map(() => '---').join('|')}|---|---|`);
  for (const n of sizes) {
    for (const threads of threadCounts) {
      const cells = libs.map((lib) => fmt(all.find((r) => r.n === n && r.threads === threads && r.library === lib)));
      console.log(`| ${n} | ${threads} | ${cells.join(' | ')} | ${threads === 1 ? cliWasm[n]?.toFixed(1) ?? 'n/a' : ''} | ${threads === 1 ? native[n]?.toFixed(1) ?? 'n/a' : ''} |`);
    }
  }
  const get = (n, threads, lib) => all.find((r) => r.n === n && r.threads === threads && r.library === lib)?.gflops;
  console.log('\nratios (medians):');
  for (const n of sizes) {
    const t1 = get(n, 1, 'tessera'), tf1 = get(n, 1, 'tfjs-backend-wasm');
    const t2 = get(n, 2, 'tessera'), ort2 = get(n, 2, 'onnxruntime-web');
    const parts = [];
    if (t1 && tf1) parts.push(`1 thread vs tfjs-backend-wasm ${(t1 / tf1).toFixed(2)}x`);
    if (t2 && ort2) parts.push(`2 threads vs onnxruntime-web ${(t2 / ort2).toFixed(2)}x`);
    if (t1 && cliWasm[n]) parts.push(`JS API / CLI of the same build ${(t1 / cliWasm[n]).toFixed(3)}`);
    if (t1 && native[n]) parts.push(`vs native AVX2 ${(t1 / native[n]).toFixed(2)}x`);
    console.log(`  sgemm ${n}: ${parts.join('; ')}`);
  }
  console.log(`\ntiny call (8x8x8 gemm, typed arrays): inline ${tiny.inline?.toFixed(2)} us, worker mode ${tiny.worker?.toFixed(1)} us`);
  console.log(`tfjs-backend-wasm: ${tfInfo}; onnxruntime-web: wasm, numThreads as in the table`);
}

if (childThreads !== null) await child(Number(childThreads));
else await parent();
