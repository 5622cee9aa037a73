// The integer GEMM from JavaScript: matmulInteger against a reference
// written here (exact sums), qlinearMatmul bit for bit against
// onnxruntime-web's QLinearMatMul (and matmulInteger against its
// MatMulInteger) on the same inputs, dynamicQuantizeLinear's parameters
// and output from their definition, u8 / i8 / i32 tensors, both builds,
// inline and worker mode, and bad arguments named.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { load, TesseraError } from 'tessera-wasm';

import { matmulIntegerModel, qlinearMatmulModel } from './onnx-models.mjs';

// A small deterministic generator (xorshift32).
function rng(seed) {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13; s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5; s >>>= 0;
    return s;
  };
}
const bytesOf = (Type, n, next) => Type.from({ length: n }, () => next() & 0xff);

// s(i, j) = sum_p (A(i,p) - za)(B(p,j) - zb[j]), row-major, wrapped to int32.
function referenceSums(m, n, k, a, za, b, zb) {
  const out = new Int32Array(m * n);
  for (let i = 0; i < m; ++i) {
    for (let j = 0; j < n; ++j) {
      let s = 0;
      const z = typeof zb === 'number' ? zb : zb[j];
      for (let p = 0; p < k; ++p) s += (a[i * k + p] - za) * (b[p * n + j] - z);
      out[i * n + j] = s;  // |s| < 2^53: exact, then wrapped by the Int32Array
    }
  }
  return out;
}

test('matmulInteger: exact sums for u8 x s8, s8 x s8 and u8 x u8, per tensor and per column, both builds', async () => {
  for (const threads of [1, 2]) {
    const t = await load({ threads, mode: 'inline' });
    try {
      const next = rng(7 + threads);
      for (const [m, n, k] of [[1, 1, 1], [7, 13, 29], [17, 64, 300], [0, 3, 4], [5, 6, 0]]) {
        for (const [A, B] of [[Uint8Array, Int8Array], [Int8Array, Int8Array], [Uint8Array, Uint8Array]]) {
          const a = bytesOf(A, m * k, next), b = bytesOf(B, k * n, next);
          const za = A === Uint8Array ? 9 : -4;
          const zbs = Int32Array.from({ length: n }, (_, j) => (B === Int8Array ? (j % 11) - 5 : j % 200));
          for (const zb of [B === Int8Array ? -3 : 17, zbs]) {
            const c = await t.matmulInteger({ m, n, k, a, b, aZeroPoint: za, bZeroPoint: zb });
            assert.ok(c instanceof Int32Array);
            assert.deepEqual(c, referenceSums(m, n, k, a, za, b, zb), `${A.name} x ${B.name} ${m}x${n}x${k}`);
          }
        }
      }
      // beta 1 accumulates into c; transposed B (a linear layer's weights, n x k).
      const m = 5, n = 9, k = 33;
      const a = bytesOf(Uint8Array, m * k, next), b = bytesOf(Int8Array, k * n, next);
      const bt = new Int8Array(n * k);
      for (let p = 0; p < k; ++p) for (let j = 0; j < n; ++j) bt[j * k + p] = b[p * n + j];
      const c = Int32Array.from({ length: m * n }, (_, i) => i * 1000);
      const want = referenceSums(m, n, k, a, 3, b, 2).map((v, i) => v + i * 1000);
      assert.deepEqual(t.matmulIntegerSync({ m, n, k, a, b: bt, transB: true, aZeroPoint: 3, bZeroPoint: 2, c, beta: 1 }),
                       want);
    } finally {
      t.dispose();
    }
  }
});

// onnxruntime-web's wasm backend in this process (one thread).
async function ortSession(model) {
  const ort = await import('onnxruntime-web');
  ort.env.wasm.numThreads = 1;
  return { ort, session: await ort.InferenceSession.create(model, { executionProviders: ['wasm'] }) };
}

test('qlinearMatmul gives onnxruntime-web QLinearMatMul bits, matmulInteger its MatMulInteger sums', async () => {
  const t = await load({ threads: 1, mode: 'inline' });
  try {
    const next = rng(2026);
    const cases = [
      { m: 7, n: 13, k: 29, aType: 'uint8', bType: 'int8', yType: 'uint8', perColumn: false },
      { m: 16, n: 40, k: 100, aType: 'uint8', bType: 'int8', yType: 'uint8', perColumn: true },
      { m: 33, n: 64, k: 257, aType: 'int8', bType: 'int8', yType: 'int8', perColumn: false },
      { m: 1, n: 300, k: 64, aType: 'uint8', bType: 'uint8', yType: 'uint8', perColumn: true },
    ];
    const arrays = { uint8: Uint8Array, int8: Int8Array };
    for (const c of cases) {
      const { m, n, k } = c;
      const A = arrays[c.aType], B = arrays[c.bType], Y = arrays[c.yType];
      const a = bytesOf(A, m * k, next), b = bytesOf(B, k * n, next);
      const za = A === Uint8Array ? 131 : -7;
      const count = c.perColumn ? n : 1;
      const zb = B.from({ length: count }, (_, j) => (B === Int8Array ? (j % 9) - 4 : 120 + (j % 17)));
      const bScale = Float32Array.from({ length: count }, (_, j) => 0.0031 + 0.00007 * j);
      const aScale = 0.0173, yScale = 0.0625 * Math.sqrt(k);
      const yZero = Y === Uint8Array ? 128 : 3;
      const { ort, session } = await ortSession(qlinearMatmulModel(m, n, k, c));
      const scalarOr = (T, values) => (c.perColumn ? new ort.Tensor(T, values, [1, n]) : new ort.Tensor(T, values, []));
      const feeds = {
        a: new ort.Tensor(c.aType, a, [m, k]),
        a_scale: new ort.Tensor('float32', Float32Array.of(aScale), []),
        a_zero_point: new ort.Tensor(c.aType, A.of(za), []),
        b: new ort.Tensor(c.bType, b, [k, n]),
        b_scale: scalarOr('float32', bScale),
        b_zero_point: scalarOr(c.bType, zb),
        y_scale: new ort.Tensor('float32', Float32Array.of(yScale), []),
        y_zero_point: new ort.Tensor(c.yType, Y.of(yZero), []),
      };
      const ortY = (await session.run(feeds)).y.data;
      const y = t.qlinearMatmulSync({
        m, n, k, a, b, aScale, aZeroPoint: za, yScale, yZeroPoint: yZero,
        bScale: c.perColumn ? bScale : bScale[0], bZeroPoint: c.perColumn ? zb : zb[0],
        yType: c.yType === 'uint8' ? 'u8' : 'i8',
      });
      assert.ok(y instanceof Y);
      const differ = y.reduce((count, v, i) => count + (v !== ortY[i]), 0);
      assert.equal(differ, 0, `${JSON.stringify(c)}: ${differ} of ${y.length} bytes differ from onnxruntime-web`);

      const mi = await ortSession(matmulIntegerModel(m, n, k, c));
      const ortC = (await mi.session.run({
        A: feeds.a, B: feeds.b, a_zero_point: feeds.a_zero_point, b_zero_point: scalarOr(c.bType, zb),
      })).Y.data;
      const cOut = t.matmulIntegerSync({ m, n, k, a, b, aZeroPoint: za, bZeroPoint: c.perColumn ? zb : zb[0] });
      assert.deepEqual(cOut, Int32Array.from(ortC), `${JSON.stringify(c)}: MatMulInteger`);
    }
  } finally {
    t.dispose();
  }
});

test('dynamicQuantizeLinear: onnxruntime\'s scale and zero point, y from the definition', async () => {
  const t = await load({ threads: 1, mode: 'inline' });
  try {
    const x = Float32Array.from({ length: 1000 }, (_, i) => Math.sin(i * 0.37) * 3.5 + 0.25);
    const { y, scale, zeroPoint } = t.dynamicQuantizeLinearSync(x);
    const lo = Math.min(0, ...x), hi = Math.max(0, ...x);
    const wantScale = Math.fround(Math.fround(hi - lo) / 255);
    assert.equal(scale, wantScale);
    const izp = Math.fround(0 - Math.fround(lo / wantScale));
    const rne = (v) => { const r = Math.round(v); return Math.abs(v % 1) === 0.5 && r % 2 !== 0 ? r - 1 : r; };
    assert.equal(zeroPoint, rne(Math.min(255, Math.max(0, izp))));
    for (let i = 0; i < x.length; ++i) {
      const q = Math.min(255, Math.max(0, rne(Math.fround(x[i] / scale)) + zeroPoint));
      assert.equal(y[i], q, `x[${i}] = ${x[i]}`);
    }
    // All zeros: scale 1, zero point 0 (onnxruntime's choice for an empty range).
    assert.deepEqual(t.dynamicQuantizeLinearSync(new Float32Array(5)), { y: new Uint8Array(5), scale: 1, zeroPoint: 0 });
    // A NaN is named, and y untouched.
    const out = new Uint8Array(3).fill(7);
    assert.throws(() => t.dynamicQuantizeLinearSync(Float32Array.of(1, NaN, 2), out),
                  (e) => e instanceof TesseraError && e.code === 'invalid-argument' && /x\[1\]/.test(e.message));
    assert.deepEqual(out, new Uint8Array(3).fill(7));
  } finally {
    t.dispose();
  }
});

test('integer tensors, worker mode, and bad arguments named', async () => {
  for (const mode of ['inline', 'worker']) {
    const t = await load({ threads: 2, mode });
    try {
      const m = 3, n = 4, k = 5;
      const next = rng(99);
      const a = bytesOf(Uint8Array, m * k, next), b = bytesOf(Int8Array, k * n, next);
      const ta = await t.alloc(Uint8Array, m * k), tb = await t.alloc(Int8Array, k * n);
      const tc = await t.alloc(Int32Array, m * n);
      assert.equal(ta.dtype, 'u8');
      assert.equal(tc.dtype, 'i32');
      ta.data.set(a);
      tb.data.set(b);
      const out = await t.matmulInteger({ m, n, k, a: ta, b: tb, c: tc, aZeroPoint: 1, bZeroPoint: -1 });
      assert.equal(out, tc);
      assert.deepEqual(tc.data, referenceSums(m, n, k, a, 1, b, -1));
      const viaArrays = await t.matmulInteger({ m, n, k, a, b, aZeroPoint: 1, bZeroPoint: -1 });
      assert.deepEqual(viaArrays, tc.data);
      const q = await t.dynamicQuantizeLinear(Float32Array.of(-1, 0, 2, 4));
      assert.equal(q.zeroPoint, 51);
      assert.deepEqual(Array.from(q.y), [0, 51, 153, 255]);
      const bad = [
        [{ m, n, k, a: new Float32Array(m * k), b }, /a must be a Uint8Array, an Int8Array/],
        [{ m, n, k, a, b, aZeroPoint: 256 }, /aZeroPoint must be an integer in \[0, 255\]/],
        [{ m, n, k, a, b, bZeroPoint: [1, 2] }, /bZeroPoint has 2 values but n = 4/],
        [{ m, n, k, a, b, beta: 2 }, /beta must be 0 or 1/],
        [{ m, n, k: -1, a, b }, /k must be an integer >= 0/],
        [{ m, n, k, a, b, c: new Float32Array(m * n) }, /c must be an Int32Array/],
        [{ m, n, k, a, b, scale: 1 }, /unknown option "scale"/],
      ];
      for (const [args, pattern] of bad) {
        await assert.rejects(t.matmulInteger(args), (e) => e instanceof TesseraError && e.code === 'invalid-argument' &&
                             pattern.test(e.message));
      }
      await assert.rejects(t.qlinearMatmul({ m, n, k, a, b, aScale: 0, bScale: 1, yScale: 1 }),
                           (e) => e.code === 'invalid-argument' && /aScale must be a positive finite number/.test(e.message));
      await assert.rejects(t.qlinearMatmul({ m, n, k, a, b, aScale: 1, bScale: [1, 1, NaN, 1], bZeroPoint: [0, 0, 0, 0], yScale: 1 }),
                           (e) => e.code === 'invalid-argument' && /bScale\[2\] must be a positive finite number/.test(e.message));
      // A multiplier that overflows f32 is the C API's check, passed through.
      await assert.rejects(t.qlinearMatmul({ m, n, k, a, b, aScale: 1e30, bScale: 1e30, yScale: 1e-30 }),
                           (e) => e.code === 'invalid-argument' && /multiplier/.test(e.message));
      for (const x of [ta, tb, tc]) x.dispose();
    } finally {
      await t.dispose();
    }
  }
});
