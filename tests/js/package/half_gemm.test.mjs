// GEMM, gemv and dot on f16 / bf16 operands from JavaScript (gemmHalf,
// gemvHalf, dotHalf): the bits of gemm / gemv / dot on the widened operands
// on the same instance, within a double-precision reference's rounding
// bound computed here, every storage mix, a 16-bit C, the epilogue,
// transposes and strides, u16 tensors, both builds, inline and worker
// mode; the fast mode an 'unsupported' error; bad arguments named.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { load, TesseraError } from 'tessera-wasm';

// Deterministic values in [-1, 1).
function values(n, seed) {
  const out = new Float32Array(n);
  let s = seed >>> 0;
  for (let i = 0; i < n; ++i) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    out[i] = s / 2 ** 31 - 1;
  }
  return out;
}

// x rounded to the format: its bits, and the values widened back.
async function rounded(t, format, x) {
  if (format === 'f32') return { data: x, wide: x };
  const bits = format === 'f16' ? await t.toF16(x) : await t.toBf16(x);
  const wide = format === 'f16' ? await t.fromF16(bits) : await t.fromBf16(bits);
  return { data: bits, wide };
}

const sameBits = (x, y) =>
  x.length === y.length && new Uint32Array(x.buffer, x.byteOffset, x.length).every(
    (v, i) => v === new Uint32Array(y.buffer, y.byteOffset, y.length)[i]);

const modes = [[{ threads: 1, mode: 'inline' }, 'single-threaded inline'], [{ threads: 2, mode: 'inline' }, 'threaded inline'],
               [{ threads: 2, mode: 'worker' }, 'worker']];

test('gemmHalf: gemm\'s bits on the widened operands, every storage mix, shapes, transposes, epilogue', async () => {
  const shapes = [[1, 1, 1], [5, 7, 3], [17, 70, 33], [13, 9, 300], [0, 4, 2], [3, 2, 0]];
  const formats = ['f32', 'f16', 'bf16'];
  for (const [options, label] of modes) {
    const t = await load(options);
    try {
      let seed = 1;
      for (const [m, n, k] of shapes) {
        for (const aType of formats) {
          for (const bType of formats) {
            if (aType === 'f32' && bType === 'f32') continue;
            ++seed;
            const transA = seed % 2 === 0, transB = seed % 3 === 0;
            const a = await rounded(t, aType, values(m * k, seed)), b = await rounded(t, bType, values(k * n, seed + 99));
            const c0 = values(m * n, seed + 7);
            const beta = seed % 2 ? 0.5 : 0;
            const common = { m, n, k, alpha: 1.25, beta, transA, transB };
            const want = await t.gemm({ ...common, a: a.wide, b: b.wide, c: Float32Array.from(c0) });
            const got = await t.gemmHalf({ ...common, a: a.data, b: b.data, aType, bType, c: Float32Array.from(c0) });
            assert.ok(sameBits(got, want), `${label} ${aType} x ${bType} ${m}x${n}x${k}`);
            // Against double arithmetic on the widened values.
            for (let i = 0; i < m; ++i) {
              for (let j = 0; j < n; ++j) {
                let exact = 0, magnitude = 0;
                for (let p = 0; p < k; ++p) {
                  const av = transA ? a.wide[p * m + i] : a.wide[i * k + p];
                  const bv = transB ? b.wide[j * k + p] : b.wide[p * n + j];
                  exact += av * bv;
                  magnitude += Math.abs(av * bv);
                }
                const ref = 1.25 * exact + beta * c0[i * n + j];
                const bound = 2 * (k + 4) * 2 ** -23 * (1.25 * magnitude + Math.abs(beta * c0[i * n + j])) + 1e-38;
                assert.ok(Math.abs(got[i * n + j] - ref) <= bound, `${label} (${i},${j}) ${got[i * n + j]} vs ${ref}`);
              }
            }
          }
        }
      }
      // A bf16 C with a row bias and gelu: gemm's result with the epilogue, rounded.
      const a = await rounded(t, 'f16', values(6 * 11, 5)), b = await rounded(t, 'bf16', values(11 * 9, 6));
      const bias = values(6, 8);
      const want = await t.gemm({ m: 6, n: 9, k: 11, a: a.wide, b: b.wide, bias, biasKind: 'row', activation: 'gelu' });
      const got = await t.gemmHalf({ m: 6, n: 9, k: 11, a: a.data, aType: 'f16', b: b.data, bType: 'bf16', cType: 'bf16',
                                     bias, biasKind: 'row', activation: 'gelu' });
      assert.ok(got instanceof Uint16Array, label);
      assert.deepEqual(got, await t.toBf16(want), label);
    } finally {
      t.dispose();
    }
  }
});

test('gemvHalf and dotHalf: gemv\'s and dot\'s bits on the widened operands', async () => {
  for (const [options, label] of modes) {
    const t = await load(options);
    try {
      for (const format of ['f16', 'bf16']) {
        for (const trans of [false, true]) {
          const m = 37, n = 130;
          const a = await rounded(t, format, values(m * n, 3));
          const x = values(trans ? m : n, 4);
          const y0 = values(2 * (trans ? n : m), 5);
          const want = await t.gemv({ m, n, a: a.wide, x, y: Float32Array.from(y0), trans, beta: -0.5, incy: 2 });
          const got = await t.gemvHalf({ m, n, a: a.data, aType: format, x, y: Float32Array.from(y0), trans, beta: -0.5, incy: 2 });
          assert.ok(sameBits(got, want), `${label} gemv ${format} trans ${trans}`);
        }
        for (const n of [0, 1, 4097, 9000]) {
          const x = await rounded(t, format, values(2 * n, 10 + n)), y = await rounded(t, format, values(n, 20 + n));
          const want = await t.dot(x.wide, y.wide, { n, incx: -2 });
          const got = await t.dotHalf(x.data, y.data, { type: format, n, incx: -2 });
          assert.ok(Object.is(got, want), `${label} dot ${format} n=${n}: ${got} vs ${want}`);
        }
      }
    } finally {
      t.dispose();
    }
  }
});

test('gemmHalf: u16 tensors, Float16Array, the fast mode and bad arguments', async () => {
  const t = await load({ threads: 2, mode: 'inline' });
  try {
    const a = await rounded(t, 'bf16', values(8 * 8, 1)), b = await rounded(t, 'bf16', values(8 * 8, 2));
    const ta = t.alloc(Uint16Array, 64), tb = t.alloc(Uint16Array, 64), tc = t.alloc(Float32Array, 64);
    ta.data.set(a.data);
    tb.data.set(b.data);
    await t.gemmHalf({ m: 8, n: 8, k: 8, a: ta, aType: 'bf16', b: tb, bType: 'bf16', c: tc });
    const want = await t.gemm({ m: 8, n: 8, k: 8, a: a.wide, b: b.wide });
    assert.ok(sameBits(tc.data, want));
    for (const x of [ta, tb, tc]) x.dispose();
    if (typeof globalThis.Float16Array === 'function') {
      const h = new globalThis.Float16Array((await rounded(t, 'f16', values(64, 3))).wide);
      const got = await t.gemmHalf({ m: 8, n: 8, k: 8, a: h, b: h });
      assert.ok(sameBits(got, await t.gemm({ m: 8, n: 8, k: 8, a: Float32Array.from(h), b: Float32Array.from(h) })));
    }
    // The fast mode: bf16 by bf16 only, and no wasm level has a bf16 dot
    // product (the error names the level).
    assert.throws(() => t.gemmHalfSync({ m: 2, n: 2, k: 2, a: new Uint16Array(4), aType: 'f16', b: new Uint16Array(4), bType: 'f16', mode: 'fast' }),
                  (e) => e instanceof TesseraError && e.code === 'unsupported' && /options.mode fast multiplies bf16 by bf16 \(a is f16\)/.test(e.message));
    assert.throws(() => t.gemmHalfSync({ m: 2, n: 2, k: 2, a: new Uint16Array(4), aType: 'bf16', b: new Uint16Array(4), bType: 'bf16', mode: 'fast' }),
                  (e) => e instanceof TesseraError && e.code === 'unsupported' && /options.mode fast: ISA level \w+ \(\w+\) has no bf16 dot-product GEMM kernel/.test(e.message));
    const bad = (fn, pattern) => assert.throws(fn, (e) => e instanceof TesseraError && e.code === 'invalid-argument' && pattern.test(e.message));
    bad(() => t.gemmHalfSync({ m: 2, n: 2, k: 2, a: new Uint16Array(4), b: new Float32Array(4) }), /gemmHalf: a holds 16-bit values: say which format with aType/);
    bad(() => t.gemmHalfSync({ m: 2, n: 2, k: 2, a: new Float32Array(4), aType: 'f16', b: new Float32Array(4) }), /gemmHalf: a is f32 but aType is f16/);
    bad(() => t.gemmHalfSync({ m: 2, n: 2, k: 2, a: new Int16Array(4), b: new Float32Array(4) }), /gemmHalf: a must be a Float32Array, a Float16Array, a Uint16Array/);
    bad(() => t.gemmHalfSync({ m: 2, n: 2, k: 2, a: new Uint16Array(3), aType: 'f16', b: new Float32Array(4) }), /gemmHalf: a has 3 elements but needs 4/);
    bad(() => t.gemmHalfSync({ m: 2, n: 2, k: 2, a: new Float32Array(4), b: new Float32Array(4), mode: 'quick' }), /mode must be 'exact' or 'fast'/);
    bad(() => t.gemvHalfSync({ m: 2, n: 2, a: new Float32Array(4), x: new Float32Array(2) }), /gemvHalf: a must be f16 or bf16 \(got f32\)/);
    bad(() => t.dotHalfSync(new Uint16Array(2), new Uint16Array(2), { type: 'f32' }), /dotHalf: type must be 'f16' or 'bf16'/);
  } finally {
    t.dispose();
  }
});
