// The message-passing pool (lib/message-pool.js), forced with pool:
// 'messages' since Node always has shared memory: GEMMs its cost model
// splits over helper workers (gemm, matmulInteger, qlinearMatmul) give the
// bits of the one-thread call on odd shapes, transposes, padded leading
// dimensions, beta, biases, activations, per-column quantization, f64 and
// tensors, inline and in worker mode; small calls stay on the caller; bad
// input is an error before anything is written.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { load } from 'tessera-wasm';

import { seeded } from './support.mjs';

// Large enough that the cost model splits it on the machines this runs on
// (4.4 GFLOP against 12.7 MB copied to and from the helper: predicted
// 0.84x the one-worker time even at 80 GFLOP/s); odd sizes.
const m = 2053, n = 1031, k = 1031;

function cases(Type) {
  const a = seeded(Type, m * k, 5, 1), b = seeded(Type, k * n, 5, 2);
  const at = seeded(Type, k * (m + 3), 5, 3), bt = seeded(Type, n * (k + 5), 5, 4);
  const c0 = seeded(Type, m * (n + 7), 5, 5);
  const biasColumn = seeded(Type, n, 5, 6), biasRow = seeded(Type, m, 5, 7);
  return [
    ['plain', { m, n, k, a, b }],
    ['transposes and padded lda, ldb', { m, n, k, a: at, b: bt, transA: true, transB: true, lda: m + 3, ldb: k + 5 }],
    ['beta and ldc > n (the gaps kept)', { m, n, k, a, b, c: c0, ldc: n + 7, alpha: 0.75, beta: 0.5 }],
    ['column bias and relu', { m, n, k, a, b, bias: biasColumn, activation: 'relu' }],
    ['row bias and gelu', { m, n, k, a, b, bias: biasRow, biasKind: 'row', activation: 'gelu' }],
  ];
}

// A fresh C for each call (c is written in place).
const withFreshC = (args) => (args.c ? { ...args, c: args.c.slice() } : { ...args });

for (const mode of ['inline', 'worker']) {
  test(`split GEMMs have the one-thread bits (${mode} mode, f32 and f64)`, async () => {
    const one = await load({ threads: 1, mode: 'inline' });
    const pooled = await load({ threads: 2, pool: 'messages', mode });
    try {
      assert.deepEqual(pooled.info.pool, { kind: 'message-passing', participants: 2 });
      assert.equal(pooled.info.threads, 2);
      assert.ok(pooled.info.fallbacks.some((f) => /message-passing pool/.test(f)), pooled.info.fallbacks.join('; '));
      for (const Type of [Float32Array, Float64Array]) {
        for (const [name, args] of cases(Type)) {
          const before = (await pooled.counters()).messagePoolSplitCalls;
          const got = await pooled.gemm(withFreshC(args));
          const counters = await pooled.counters();
          assert.equal(counters.messagePoolSplitCalls, before + 1, `${name}: not split (${counters.messagePoolLastPlan})`);
          // The caller's arrays are still its own (a worker gets copies, never them).
          assert.deepEqual([args.a.byteLength, args.b.byteLength], [args.a.buffer.byteLength, args.b.buffer.byteLength]);
          assert.ok(args.a.length > 0 && args.b.length > 0);
          const want = one.gemmSync(withFreshC(args));
          assert.equal(got.length, want.length);
          const bad = want.findIndex((v, i) => !Object.is(v, got[i]));
          assert.equal(bad, -1, `${Type.name} ${name}: element ${bad} is ${got[bad]}, the one-thread call gives ${want[bad]}`);
        }
      }
    } finally {
      one.dispose();
      await pooled.dispose();
    }
  });
}

// 8-bit operands from the seeded values in [-1, 1): spread over the type's range.
const bytes = (Type, count, stream) =>
  Type.from(seeded(Float64Array, count, 6, stream), (v) => Math.round(v * 127) + (Type === Uint8Array ? 128 : 0));

function integerCases() {
  const a = bytes(Uint8Array, m * k, 1), b = bytes(Int8Array, k * n, 2);
  const at = bytes(Int8Array, k * (m + 3), 3), bt = bytes(Uint8Array, n * (k + 5), 4);
  const c0 = Int32Array.from({ length: m * (n + 7) }, (_, i) => (i * 7919) % 20011 - 10005);
  const zeroPoints = Int32Array.from({ length: n }, (_, j) => (j % 7) - 3);
  const scales = Float32Array.from({ length: n }, (_, j) => 0.001 + (j % 11) * 1e-4);
  return [
    ['matmulInteger', 'u8 x i8, per-column zero points', { m, n, k, a, b, aZeroPoint: 3, bZeroPoint: zeroPoints }],
    ['matmulInteger', 'transposes, padded lda and ldb, beta 1, ldc > n',
     { m, n, k, a: at, b: bt, transA: true, transB: true, lda: m + 3, ldb: k + 5, c: c0, ldc: n + 7, beta: 1, aZeroPoint: -2, bZeroPoint: 130 }],
    ['qlinearMatmul', 'per-column scales, i8 output, ldy > n',
     { m, n, k, a, b, aScale: 0.02, aZeroPoint: 128, bScale: scales, bZeroPoint: zeroPoints, yScale: 0.5, yZeroPoint: -3,
       yType: 'i8', y: new Int8Array(m * (n + 2)).fill(7), ldy: n + 2 }],
  ];
}
const withFreshOutput = (args) => (args.c ? { ...args, c: args.c.slice() } : args.y ? { ...args, y: args.y.slice() } : { ...args });

for (const mode of ['inline', 'worker']) {
  test(`split integer GEMMs have the one-thread bits (${mode} mode)`, async () => {
    const one = await load({ threads: 1, mode: 'inline' });
    const pooled = await load({ threads: 2, pool: 'messages', mode });
    try {
      for (const [method, name, args] of integerCases()) {
        const before = (await pooled.counters()).messagePoolSplitCalls;
        const got = await pooled[method](withFreshOutput(args));
        const counters = await pooled.counters();
        assert.equal(counters.messagePoolSplitCalls, before + 1, `${method} ${name}: not split (${counters.messagePoolLastPlan})`);
        const want = one[`${method}Sync`](withFreshOutput(args));
        assert.equal(got.constructor, want.constructor);
        const bad = want.findIndex((v, i) => v !== got[i]);
        assert.equal(bad, -1, `${method} ${name}: element ${bad} is ${got[bad]}, the one-thread call gives ${want[bad]}`);
      }
    } finally {
      one.dispose();
      await pooled.dispose();
    }
  });
}

// Worker mode sends copies and gets their buffers back for the next
// copies (lib/spare-buffers.js); the pool hands each helper its previous
// block's buffer as the next block's output. Calls of changing sizes and
// types, inputs changed between calls, C passed or not: every result must
// be the one-thread call's, every returned array must own a buffer of
// exactly its size, and the caller's arrays must stay its own.
for (const threads of [1, 2]) {
  test(`worker mode's recycled buffers never leak into results (threads: ${threads})`, async () => {
    const one = await load({ threads: 1, mode: 'inline' });
    const t = await load(threads === 1 ? { threads, mode: 'worker' } : { threads, pool: 'messages', mode: 'worker' });
    try {
      const calls = [[Float32Array, m, n, k, 1], [Float32Array, 37, 29, 41, 2], [Float32Array, m, n, k, 3],
                     [Float64Array, m, n, k, 4], [Float32Array, m - 8, n, k, 5], [Float32Array, m, n, k, 6]];
      for (const [Type, mm, nn, kk, seed] of calls) {
        const a = seeded(Type, mm * kk, seed, 1), b = seeded(Type, kk * nn, seed, 2);
        const want = one.gemmSync({ m: mm, n: nn, k: kk, a, b });
        const got = await t.gemm({ m: mm, n: nn, k: kk, a, b });
        const where = `${Type.name} ${mm}x${nn}x${kk}`;
        assert.equal(got.buffer.byteLength, got.byteLength, `${where}: the result's buffer is not its own size`);
        assert.equal(got.findIndex((v, i) => !Object.is(v, want[i])), -1, `${where}: result differs`);
        // C passed: written in place, with the bits of a C-less call.
        const c = new Type(mm * nn).fill(7);
        assert.equal(await t.gemm({ m: mm, n: nn, k: kk, a, b, c }), c);
        assert.equal(c.findIndex((v, i) => !Object.is(v, want[i])), -1, `${where}: c differs`);
        assert.deepEqual([a.buffer.byteLength, b.buffer.byteLength, c.buffer.byteLength], [a.byteLength, b.byteLength, c.byteLength]);
      }
      if (threads === 2) assert.ok((await t.counters()).messagePoolSplitCalls >= 8, (await t.counters()).messagePoolLastPlan);
    } finally {
      one.dispose();
      await t.dispose();
    }
  });
}

test('split GEMMs on tensors write the output tensor and keep the operands', async () => {
  const one = await load({ threads: 1 });
  const pooled = await load({ threads: 2, pool: 'messages', mode: 'inline' });
  try {
    const [, args] = cases(Float32Array)[2];
    const ta = pooled.alloc(Float32Array, m * k), tb = pooled.alloc(Float32Array, k * n);
    const tc = pooled.alloc(Float32Array, args.c.length), tbias = pooled.alloc(Float32Array, n);
    ta.data.set(args.a);
    tb.data.set(args.b);
    tc.data.set(args.c);
    tbias.data.set(seeded(Float32Array, n, 5, 6));
    const result = await pooled.gemm({ ...args, a: ta, b: tb, c: tc, bias: tbias });
    assert.equal(result, tc);
    assert.equal(pooled.counters().messagePoolSplitCalls, 1, pooled.counters().messagePoolLastPlan);
    const want = one.gemmSync({ ...args, c: args.c.slice(), bias: tbias.data.slice() });
    assert.deepEqual(tc.data, want);
    assert.deepEqual(ta.data, args.a);
    assert.deepEqual(tb.data, args.b);
  } finally {
    one.dispose();
    pooled.dispose();
  }
});

test('the cost model keeps small calls and threads: serial on the caller, and says why', async () => {
  const pooled = await load({ threads: 2, pool: 'messages', mode: 'inline' });
  try {
    const small = 64;
    await pooled.gemm({ m: small, n: small, k: small, a: new Float32Array(small * small), b: new Float32Array(small * small) });
    let counters = pooled.counters();
    assert.deepEqual([counters.messagePoolSplitCalls, counters.messagePoolLocalCalls], [0, 1]);
    assert.match(counters.messagePoolLastPlan, /^64 x 64 x 64 on the caller: predicted/);
    const [, args] = cases(Float32Array)[0];
    await pooled.gemm({ ...args, threads: 'serial' });
    counters = pooled.counters();
    assert.deepEqual([counters.messagePoolSplitCalls, counters.messagePoolLocalCalls], [0, 2]);
    await pooled.gemm(args);
    counters = pooled.counters();
    assert.equal(counters.messagePoolSplitCalls, 1);
    assert.match(counters.messagePoolLastPlan, /split over 2 workers, rows (\d+) \+ (\d+) \(the caller's first, longer by the [\d.]+ ms a helper is measured to lag\): predicted/);
    const [, callerRows, helperRows] = counters.messagePoolLastPlan.match(/rows (\d+) \+ (\d+)/).map(Number);
    assert.equal(callerRows + helperRows, m);
    // The helper got B and its rows of A, and returned its rows of C.
    assert.equal(counters.messagePoolBytesSent, 4 * (k * n + helperRows * k));
    assert.match(counters.messagePoolLastPlan, /MB copied to and from each helper/);
  } finally {
    pooled.dispose();
  }
});

test('bad input to a pooled GEMM is an error naming the argument, and C is not written', async () => {
  const pooled = await load({ threads: 2, pool: 'messages', mode: 'inline' });
  try {
    const [, args] = cases(Float32Array)[2];
    const c = args.c.slice();
    for (const [bad, pattern] of [[{ lda: k - 1 }, /lda must be/], [{ bias: new Float32Array(3) }, /bias has 3 elements/],
                                  [{ b: new Float64Array(k * n) }, /a is f32 but b is f64/]]) {
      await assert.rejects(pooled.gemm({ ...args, c, ...bad }), (e) => e.code === 'invalid-argument' && pattern.test(e.message));
    }
    assert.deepEqual(c, args.c);
    // Lengths the pool must check itself, since it cuts the operands: a
    // short output (not read, so the kernel's own check would come only
    // after the blocks ran) and a short transposed A (a gather would pad
    // it with zeros).
    const [, plain] = cases(Float32Array)[0];
    const [, transposed] = cases(Float32Array)[1];
    const short = new Float32Array(m * n - 1).fill(3);
    await assert.rejects(pooled.gemm({ ...plain, c: short }),
                         (e) => e.code === 'invalid-argument' && /c has \d+ elements but needs/.test(e.message));
    assert.ok(short.every((v) => v === 3), 'the short c was written');
    await assert.rejects(pooled.gemm({ ...transposed, a: transposed.a.subarray(0, k * m) }),
                         (e) => e.code === 'invalid-argument' && /a has \d+ elements but needs/.test(e.message));
    const [, , integer] = integerCases()[0];
    await assert.rejects(pooled.matmulInteger({ ...integer, c: new Int32Array(m * n - 1) }),
                         (e) => e.code === 'invalid-argument' && /c has \d+ elements but needs/.test(e.message));
    assert.deepEqual([pooled.counters().messagePoolSplitCalls, pooled.counters().messagePoolLocalCalls], [0, 0]);
  } finally {
    pooled.dispose();
  }
});

test('dispose() during a split GEMM rejects it with disposed, never a wait for blocks that will not come', async () => {
  const pooled = await load({ threads: 2, pool: 'messages', mode: 'inline' });
  const [, args] = cases(Float32Array)[0];
  // Up to its first wait the call runs at once: the helper's block posted,
  // the caller's block computed; the helper's answer is still to come.
  const call = pooled.gemm(args);
  assert.equal(pooled.counters().messagePoolSplitCalls, 1, pooled.counters().messagePoolLastPlan);
  pooled.dispose();
  await assert.rejects(call, (e) => e.code === 'disposed');
});

test('a helper that dies fails the calls that need it instead of leaving them waiting', async () => {
  const pooled = await load({ threads: 2, pool: 'messages', mode: 'inline' });
  try {
    const [, args] = cases(Float32Array)[0];
    // The helper's worker goes away, as a killed or crashed one would.
    await pooled.messagePool.helpers[0].worker.terminate();
    await assert.rejects(pooled.gemm(args), (e) => e instanceof Error && /worker|disposed/.test(e.message));
  } finally {
    pooled.dispose();
  }
});

test('maxThreadsPerKernel caps the message pool: at 1 no helper starts, and info says why', async () => {
  const t = await load({ threads: 2, pool: 'messages', mode: 'inline', maxThreadsPerKernel: 1 });
  try {
    assert.deepEqual(t.info.pool, { kind: 'none', participants: 1 });
    assert.equal(t.info.threads, 1);
    assert.equal(t.messagePool, null);
    assert.ok(t.info.fallbacks.some((f) => /maxThreadsPerKernel: 1 leaves the message-passing pool no helper/.test(f)),
              t.info.fallbacks.join('; '));
  } finally {
    t.dispose();
  }
});
