// The installed package (npm pack + npm install of the tarball, not the
// source tree), against independent references: GEMM on odd shapes,
// transposes, strides and SharedArrayBuffer-backed inputs for both builds;
// the same bits for every thread count and the same bits as native SSE2;
// elementwise kernels bit for bit. Run by ./dev test (the js step).
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { load, TesseraError } from 'tessera-wasm';

import { fnv1a64, firstMismatch, referenceGemm, seeded } from './support.mjs';

const eps = { f32: 2 ** -24, f64: 2 ** -53 };
const builds = [
  // Pools wider than this 2-CPU host's cores: oversubscribe asks for them.
  { name: 'threads', options: { threads: 3, oversubscribe: true } },
  { name: 'single', options: { threads: 1 } },
];

for (const { name, options } of builds) {
  test(`gemm matches a double-precision reference (${name} build): odd sizes, transposes, padded leading dimensions`, async () => {
    const t = await load(options);
    try {
      assert.equal(t.info.build, name);
      const shapes = [[1, 1, 1], [7, 5, 3], [17, 31, 13], [64, 33, 65], [3, 130, 2], [0, 4, 5], [4, 0, 5], [4, 5, 0]];
      let seed = 1;
      for (const [m, n, k] of shapes) {
        for (const transA of [false, true]) {
          for (const transB of [false, true]) {
            for (const [Type, dtype] of [[Float32Array, 'f32'], [Float64Array, 'f64']]) {
              const lda = (transA ? m : k) + 3, ldb = (transB ? k : n) + 1, ldc = n + 2;
              const a = seeded(Type, Math.max(1, (transA ? k : m) * lda), seed, 1);
              const b = seeded(Type, Math.max(1, (transB ? n : k) * ldb), seed, 2);
              const c = seeded(Type, Math.max(1, m * ldc), seed++, 3);
              const c0 = c.slice();
              const args = { m, n, k, a, b, c, alpha: 1.5, beta: -0.5, transA, transB, lda, ldb, ldc };
              const returned = await t.gemm(args);
              assert.equal(returned, c, 'gemm returns the c it was given');
              const { ref, bound } = referenceGemm({ ...args, c: c0 }, eps[dtype]);
              const bad = firstMismatch(c, ldc, m, n, ref, bound);
              assert.equal(bad, null, `${dtype} ${m}x${n}x${k} tA=${transA} tB=${transB}: ${JSON.stringify(bad)}`);
              // Padding between rows is never written.
              for (let i = 0; i < m; ++i) {
                for (let j = n; j < ldc && i * ldc + j < c.length; ++j) assert.equal(c[i * ldc + j], c0[i * ldc + j]);
              }
            }
          }
        }
      }
    } finally {
      await t.dispose();
    }
  });
}

test('gemm reads SharedArrayBuffer-backed inputs at offsets and writes a shared output', async () => {
  const t = await load({ threads: 2 });
  try {
    const m = 9, n = 11, k = 13;
    const sab = new SharedArrayBuffer(4 * (5 + m * k + n * k + m * n + 7));
    const a = new Float32Array(sab, 4 * 5, m * k);
    const b = new Float32Array(sab, 4 * (5 + m * k), k * n);
    const c = new Float32Array(sab, 4 * (5 + m * k + k * n), m * n);
    a.set(seeded(Float32Array, m * k, 7, 1));
    b.set(seeded(Float32Array, k * n, 7, 2));
    await t.gemm({ m, n, k, a, b, c });
    const { ref, bound } = referenceGemm({ m, n, k, a, b }, eps.f32);
    assert.equal(firstMismatch(c, n, m, n, ref, bound), null);
  } finally {
    await t.dispose();
  }
});

test('the f32 GEMM has the same bits at 1, 2, 3 and 4 threads, and the native SSE2 / WASI hash', async () => {
  // tessera-cli gemm 517 389 263 --hash with TESSERA_ISA=sse2, and the WASI
  // build: cd9b655a72a80ea5 (README; pinned by ctest cli.gemm-hash).
  const m = 517, n = 389, k = 263;
  const a = seeded(Float32Array, m * k, 1, 1);
  const b = seeded(Float32Array, k * n, 1, 2);
  const hashes = [];
  for (const threads of [1, 2, 3, 4]) {
    const t = await load({ threads, oversubscribe: true });
    try {
      for (const parallel of [0, 'serial', threads]) {
        const c = await t.gemm({ m, n, k, a, b, threads: parallel });
        hashes.push(`${threads}/${parallel}:${fnv1a64(c)}`);
      }
    } finally {
      await t.dispose();
    }
  }
  for (const h of hashes) assert.equal(h.split(':')[1], 'cd9b655a72a80ea5', hashes.join(' '));
});

test('add, mul and relu are exact (one IEEE operation per element), in place too', async () => {
  const t = await load({ threads: 2 });
  try {
    for (const n of [0, 1, 7, 64, 65, 16385, 100003]) {
      const a = seeded(Float32Array, n, n, 1), b = seeded(Float32Array, n, n, 2);
      const sum = await t.add(a, b);
      const product = await t.mul(a, b);
      const relu = await t.relu(a);
      for (let i = 0; i < n; ++i) {
        assert.equal(sum[i], Math.fround(a[i] + b[i]));
        assert.equal(product[i], Math.fround(a[i] * b[i]));
        assert.ok(Object.is(relu[i], a[i] < 0 ? 0 : a[i]));
      }
      const inPlace = a.slice();
      assert.equal(t.addSync(inPlace, b, inPlace), inPlace);
      assert.deepEqual(inPlace, sum);
    }
    const specials = Float32Array.of(-0, 0, NaN, Infinity, -Infinity, -1e-45);
    const r = await t.relu(specials);
    assert.ok(Object.is(r[0], -0) || Object.is(r[0], 0));
    assert.ok(Number.isNaN(r[2]));
    assert.equal(r[3], Infinity);
    assert.equal(r[4], 0);
  } finally {
    await t.dispose();
  }
});

// The tests' own definitions (JavaScript doubles, rounded once to f32 with
// Math.fround: exact for + - * / sqrt); min / max as np.minimum / maximum.
const jsMinimum = (x, y) => (Number.isNaN(x) || Number.isNaN(y) ? NaN
  : x === y ? (Object.is(x, -0) || Object.is(y, -0) ? -0 : x) : Math.min(x, y));
const jsMaximum = (x, y) => (Number.isNaN(x) || Number.isNaN(y) ? NaN
  : x === y ? (Object.is(x, 0) || Object.is(y, 0) ? 0 : x) : Math.max(x, y));
const binaryRefs = {
  add: (x, y) => x + y, sub: (x, y) => x - y, mul: (x, y) => x * y, div: (x, y) => x / y,
  min: jsMinimum, max: jsMaximum,
};
const unaryRefs = { abs: Math.abs, neg: (x) => -x, sqrt: Math.sqrt, relu: (x) => (x < 0 ? 0 : x) };

test('every elementwise kernel, f32 and f64, matches its definition bit for bit (specials included)', async () => {
  const t = await load({ threads: 2 });
  try {
    for (const [Type, round] of [[Float32Array, Math.fround], [Float64Array, (x) => x]]) {
      for (const n of [0, 1, 7, 65, 16411]) {
        const a = seeded(Type, n, n, 1), b = seeded(Type, n, n, 2);
        const specials = [-0, 0, NaN, Infinity, -Infinity, 1e-45, -5e-324, 1, -1];
        for (let i = 0; i < n; i += 5) a[i] = specials[(i / 5) % specials.length];
        for (let i = 0; i < n; i += 7) b[i] = specials[(i / 7) % specials.length];
        const same = (x, y) => (Number.isNaN(x) ? Number.isNaN(y) : Object.is(x, y));
        for (const [op, ref] of Object.entries(binaryRefs)) {
          const out = await t[op](a, b);
          assert.ok(out instanceof Type, `${op} returns ${Type.name}`);
          for (let i = 0; i < n; ++i) {
            const want = round(ref(a[i], b[i]));
            assert.ok(same(want, out[i]), `${op} ${Type.name} [${i}]: ${a[i]}, ${b[i]} -> ${out[i]}, want ${want}`);
          }
        }
        for (const [op, ref] of Object.entries(unaryRefs)) {
          const out = t[`${op}Sync`](a);
          assert.ok(out instanceof Type, `${op} returns ${Type.name}`);
          for (let i = 0; i < n; ++i) {
            const want = round(ref(a[i]));
            assert.ok(same(want, out[i]), `${op} ${Type.name} [${i}]: ${a[i]} -> ${out[i]}, want ${want}`);
          }
        }
      }
    }
    await assert.rejects(t.sub(new Float32Array(2), new Float64Array(2)), TesseraError);
  } finally {
    await t.dispose();
  }
});

// Transcendentals: approximations, so checked within the documented ulp
// bounds (tessera::unary_op_ulp_bound: exp 1, log 1, tanh 2 (f64 3),
// sigmoid 2, gelu 256) against references in JavaScript doubles. For f32 a
// double reference is exact to well under 2^-28 of an f32 ulp; for f64 V8's
// Math functions (fdlibm) add up to 1 ulp of their own, so the f64 bounds
// get +1. gelu is referenced as x * sigmoid(2u), u = sqrt(2/pi)(x +
// 0.044715 x^3), the same function as 0.5 x (1 + tanh u) without its
// cancellation for negative x; sigmoid as e^x / (1 + e^x) for x < 0, so that
// the reference does not overflow where the result is subnormal.
const transcendentalRefs = {
  exp: { ref: Math.exp, bound: 1, ranges: { f32: [[-104, 89], [-1, 1]], f64: [[-746, 710], [-1, 1]] } },
  log: { ref: Math.log, bound: 1, ranges: { f32: [[1e-40, 3e38, 'geometric'], [0.5, 2]], f64: [[5e-324, 1.7e308, 'geometric'], [0.5, 2]] } },
  tanh: { ref: Math.tanh, bound: 2, bound64: 3, ranges: { f32: [[-12, 12], [-0.7, 0.7], [1e-30, 1, 'geometric']], f64: [[-12, 12], [-0.7, 0.7], [1e-30, 1, 'geometric']] } },
  sigmoid: { ref: (x) => (x < 0 ? Math.exp(x) / (1 + Math.exp(x)) : 1 / (1 + Math.exp(-x))), bound: 2, ranges: { f32: [[-110, 40], [-2, 2]], f64: [[-750, 40], [-2, 2]] } },
  gelu: {
    ref: (x) => x / (1 + Math.exp(-2 * Math.sqrt(2 / Math.PI) * (x + 0.044715 * x * x * x))),
    bound: 256, ranges: { f32: [[-10, 10], [1e-30, 1, 'geometric']], f64: [[-10, 10], [1e-30, 1, 'geometric']] },
  },
};

// The number of representable values between `got` and the reference
// rounded to the result type (as tessera's ulp_distance: -0 and +0 are one
// value, infinities are one step past the largest finite value).
function ulpDistance(got, want, dtype) {
  if (Number.isNaN(got) || Number.isNaN(want)) return Number.isNaN(got) && Number.isNaN(want) ? 0 : Infinity;
  const [Float, Int] = dtype === 'f32' ? [Float32Array, Int32Array] : [Float64Array, BigInt64Array];
  const f = Float.of(got, want), bits = new Int(f.buffer);
  const key = (b) => (b < 0 ? -(b & (dtype === 'f32' ? 0x7fffffff : 0x7fffffffffffffffn)) : b);
  const d = key(bits[0]) - key(bits[1]);
  return Math.abs(Number(d));
}

function samples(Type, ranges, perRange) {
  const out = [];
  for (const [lo, hi, kind] of ranges) {
    for (let i = 0; i < perRange; ++i) {
      const f = i / (perRange - 1);
      out.push(kind === 'geometric' ? lo * Math.exp(Math.log(hi / lo) * f) : lo + (hi - lo) * f);
    }
  }
  return Type.from(out);
}

test('exp, log, tanh, sigmoid and gelu are within their documented ulp bounds, specials exact, f32 and f64', async () => {
  const t = await load({ threads: 2 });
  try {
    for (const [Type, dtype] of [[Float32Array, 'f32'], [Float64Array, 'f64']]) {
      for (const [op, { ref, bound, bound64, ranges }] of Object.entries(transcendentalRefs)) {
        const limit = dtype === 'f32' ? bound : (bound64 ?? bound) + 1;
        const x = samples(Type, ranges[dtype], 6007);
        const out = await t[op](x);
        let worst = 0, at = 0;
        for (let i = 0; i < x.length; ++i) {
          const d = ulpDistance(out[i], ref(x[i]), dtype);
          if (d > worst) [worst, at] = [d, x[i]];
        }
        assert.ok(worst <= limit, `${op} ${dtype}: ${worst.toFixed(2)} ulp at x = ${at} (bound ${limit})`);
      }
      const specials = Type.of(NaN, Infinity, -Infinity, 0, -0, -1);
      const [e, l, th, sg, ge] = await Promise.all(['exp', 'log', 'tanh', 'sigmoid', 'gelu'].map((op) => t[op](specials)));
      const same = (got, want, what) => assert.ok(Number.isNaN(want) ? Number.isNaN(got) : Object.is(got, want),
        `${what} ${dtype}: ${got}, want ${want}`);
      [NaN, Infinity, 0, 1, 1].forEach((w, i) => same(e[i], w, `exp(${specials[i]})`));
      [NaN, Infinity, NaN, -Infinity, -Infinity, NaN].forEach((w, i) => same(l[i], w, `log(${specials[i]})`));
      [NaN, 1, -1].forEach((w, i) => same(th[i], w, `tanh(${specials[i]})`));
      same(th[3], 0, 'tanh(0)');
      same(th[4], -0, 'tanh(-0)');
      [NaN, 1, 0, 0.5, 0.5].forEach((w, i) => same(sg[i], w, `sigmoid(${specials[i]})`));
      [NaN, Infinity, -0].forEach((w, i) => same(ge[i], w, `gelu(${specials[i]})`));
    }
  } finally {
    await t.dispose();
  }
});

test('worker mode (worker_threads in Node): the same results, tensors in shared memory without copies', async () => {
  const t = await load({ threads: 2, mode: 'worker' });
  try {
    assert.equal(t.info.mode, 'worker');
    assert.equal(t.info.zeroCopy, true);
    const m = 33, n = 17, k = 9;
    const a = await t.alloc(Float32Array, m * k);
    const b = await t.alloc(Float32Array, k * n);
    const c = await t.alloc(Float32Array, m * n);
    a.data.set(seeded(Float32Array, m * k, 3, 1));
    b.data.set(seeded(Float32Array, k * n, 3, 2));
    assert.equal(await t.gemm({ m, n, k, a, b, c }), c);
    const { ref, bound } = referenceGemm({ m, n, k, a: a.data, b: b.data }, eps.f32);
    assert.equal(firstMismatch(c.data, n, m, n, ref, bound), null);
    assert.throws(() => t.gemmSync({ m, n, k, a, b, c }), (e) => e instanceof TesseraError && e.code === 'unsupported');
    const plain = await t.gemm({ m, n, k, a: a.data.slice(), b: b.data.slice() });
    assert.deepEqual(plain, c.data.slice());
  } finally {
    await t.dispose();
  }
});

// BLAS vector entry i of `count` entries with increment `inc` (negative:
// from the far end).
const at = (i, count, inc) => (inc > 0 ? i * inc : (count - 1 - i) * -inc);

function referenceGemv({ m, n, a, x, y, alpha = 1, beta = 0, trans = false, lda = n, incx = 1, incy = 1 }, eps) {
  const lengthX = trans ? m : n, lengthY = trans ? n : m;
  const ref = [], bound = [];
  // As BLAS: with m or n zero, y is left as it is (not scaled by beta).
  if (m === 0 || n === 0) return { ref: Array.from({ length: lengthY }, (_, i) => y[at(i, lengthY, incy)]), bound: new Array(lengthY).fill(0) };
  for (let i = 0; i < lengthY; ++i) {
    let sum = 0, magnitude = 0;
    for (let j = 0; j < lengthX; ++j) {
      const aij = trans ? a[j * lda + i] : a[i * lda + j];
      const term = aij * x[at(j, lengthX, incx)];
      sum += term;
      magnitude += Math.abs(term);
    }
    const y0 = beta === 0 ? 0 : beta * y[at(i, lengthY, incy)];
    ref.push(alpha * sum + y0);
    bound.push(4 * (lengthX + 2) * eps * (Math.abs(alpha) * magnitude + Math.abs(y0)));
  }
  return { ref, bound };
}

for (const { name, options } of builds) {
  test(`gemv and dot match a double-precision reference (${name} build): transposes, padded lda, negative increments`, async () => {
    const t = await load(options);
    try {
      let seed = 40;
      for (const [Type, dtype] of [[Float32Array, 'f32'], [Float64Array, 'f64']]) {
        for (const [m, n] of [[1, 1], [7, 5], [33, 130], [130, 17], [0, 4], [4, 0]]) {
          for (const trans of [false, true]) {
            for (const [incx, incy] of [[1, 1], [2, -3], [-1, 2]]) {
              const lda = n + 3, lengthX = trans ? m : n, lengthY = trans ? n : m;
              const a = seeded(Type, Math.max(1, m * lda), seed, 1);
              const x = seeded(Type, Math.max(1, (lengthX - 1) * Math.abs(incx) + 1), seed, 2);
              const y = seeded(Type, Math.max(1, (lengthY - 1) * Math.abs(incy) + 1), seed++, 3);
              const y0 = y.slice();
              const args = { m, n, a, x, y, alpha: 1.25, beta: -0.5, trans, lda, incx, incy };
              assert.equal(await t.gemv(args), y, 'gemv returns the y it was given');
              const { ref, bound } = referenceGemv({ ...args, y: y0 }, eps[dtype]);
              for (let i = 0; i < lengthY; ++i) {
                const got = y[at(i, lengthY, incy)];
                assert.ok(Math.abs(got - ref[i]) <= bound[i], `${dtype} ${m}x${n} trans=${trans} inc ${incx},${incy}: y[${i}] = ${got}, reference ${ref[i]}`);
              }
              // Entries between the strides are left as they were.
              const touched = new Set(Array.from({ length: lengthY }, (_, i) => at(i, lengthY, incy)));
              for (let i = 0; i < y.length; ++i) if (!touched.has(i)) assert.equal(y[i], y0[i], `y[${i}] is between strides`);
            }
          }
        }
        for (const [count, incx, incy] of [[0, 1, 1], [1, 1, 1], [5000, 1, 1], [4097, 2, -1], [331, -3, 2]]) {
          const x = seeded(Type, Math.max(1, (count - 1) * Math.abs(incx) + 1), seed, 4);
          const y = seeded(Type, Math.max(1, (count - 1) * Math.abs(incy) + 1), seed++, 5);
          let sum = 0, magnitude = 0;
          for (let i = 0; i < count; ++i) {
            const term = x[at(i, count, incx)] * y[at(i, count, incy)];
            sum += term;
            magnitude += Math.abs(term);
          }
          const got = await t.dot(x, y, { n: count, incx, incy });
          assert.equal(typeof got, 'number');
          assert.ok(Math.abs(got - sum) <= 4 * (count + 2) * eps[dtype] * magnitude, `${dtype} dot n=${count} inc ${incx},${incy}: ${got} vs ${sum}`);
        }
      }
      // Defaults: n from x's length; y omitted in gemv makes a new array.
      assert.equal(t.dotSync(Float32Array.of(1, 2, 3), Float32Array.of(4, 5, 6)), 32);
      assert.deepEqual(Array.from(t.gemvSync({ m: 2, n: 2, a: Float64Array.of(1, 2, 3, 4), x: Float64Array.of(1, 1) })), [3, 7]);
      // Bad input: named, nothing written.
      const y = Float32Array.of(9, 9);
      assert.throws(() => t.gemvSync({ m: 2, n: 2, a: new Float32Array(4), x: new Float32Array(2), y, incy: 0 }),
                    (e) => e.code === 'invalid-argument' && /incy/.test(e.message));
      assert.deepEqual(Array.from(y), [9, 9]);
      assert.throws(() => t.gemvSync({ m: 2, n: 2, a: new Float32Array(3), x: new Float32Array(2) }),
                    (e) => e.code === 'invalid-argument' && /\ba\b/.test(e.message));
      assert.throws(() => t.dotSync(new Float32Array(4), new Float32Array(3)),
                    (e) => e.code === 'invalid-argument' && /\by\b/.test(e.message));
      assert.throws(() => t.dotSync(new Float32Array(4), new Float64Array(4)), (e) => e.code === 'invalid-argument');
      assert.throws(() => t.gemvSync({ m: 1, n: 1, a: new Float32Array(1), x: new Float32Array(1), bogus: 1 }),
                    (e) => e.code === 'invalid-argument' && /bogus/.test(e.message));
    } finally {
      await t.dispose();
    }
  });
}

test('gemv and dot give the same bits at 1, 2, 3 and 4 threads and in both builds, inline and in worker mode', async () => {
  const m = 515, n = 263;
  const a = seeded(Float32Array, m * n, 7, 1), x = seeded(Float32Array, n, 7, 2), xt = seeded(Float32Array, m, 7, 3);
  const big = seeded(Float32Array, 300007, 7, 4), big2 = seeded(Float32Array, 300007, 7, 5);
  const results = [];
  for (const options of [{ threads: 1 }, { threads: 2 }, { threads: 3 }, { threads: 4 }, { threads: 3, mode: 'worker' }]) {
    const t = await load({ ...options, oversubscribe: true });
    try {
      const y = await t.gemv({ m, n, a, x });
      const yt = await t.gemv({ m, n, a, x: xt, trans: true });
      const d = await t.dot(big, big2);
      results.push({ options, y: fnv1a64(y), yt: fnv1a64(yt), d: fnv1a64(Float32Array.of(d)) });
    } finally {
      await t.dispose();
    }
  }
  for (const r of results.slice(1)) {
    assert.deepEqual({ y: r.y, yt: r.yt, d: r.d }, { y: results[0].y, yt: results[0].yt, d: results[0].d }, JSON.stringify(r.options));
  }
});

// ---- Row reductions, softmax and the GEMM epilogue ---------------------------

// Row r of the rows x cols matrix x at stride ld, as plain numbers.
const rowOf = (x, r, cols, ld) => Array.from(x.subarray(r * ld, r * ld + cols));

test('sumRows, maxRows, meanRows and argmaxRows match double references: edge shapes, padded rows, specials', async () => {
  const t = await load({ threads: 2 });
  try {
    for (const [Type, dtype] of [[Float32Array, 'f32'], [Float64Array, 'f64']]) {
      for (const [rows, cols, ld] of [[0, 5, 5], [1, 1, 1], [3, 7, 9], [17, 4099, 4099], [5, 8200, 8203], [2, 0, 1]]) {
        const x = seeded(Type, Math.max(1, rows * ld), rows * 31 + cols, 5);
        if (rows >= 3 && cols >= 7) {
          x[ld + 3] = NaN;                // row 1: NaN is the max and the argmax
          x[2 * ld + 6] = Infinity;       // row 2: +Inf
        }
        const sum = await t.sumRows(x, { rows, cols, ld });
        const mean = await t.meanRows(x, { rows, cols, ld });
        if (cols === 0 && rows > 0) {
          // An empty row sums to 0 and has mean NaN (NumPy); its max and
          // argmax have no value: an error naming cols.
          assert.deepEqual(Array.from(sum), new Array(rows).fill(0));
          assert.ok(Array.from(mean).every(Number.isNaN), `${dtype} mean of empty rows: ${mean}`);
          for (const op of ['maxRows', 'argmaxRows']) {
            await assert.rejects(t[op](x, { rows, cols, ld }), (e) => e instanceof TesseraError && /cols is 0/.test(e.message), op);
          }
          continue;
        }
        const max = await t.maxRows(x, { rows, cols, ld });
        const arg = await t.argmaxRows(x, { rows, cols, ld });
        assert.ok(sum instanceof Type && arg instanceof Int32Array);
        assert.deepEqual([sum.length, max.length, mean.length, arg.length], [rows, rows, rows, rows]);
        for (let r = 0; r < rows; ++r) {
          const row = rowOf(x, r, cols, ld);
          const exact = row.reduce((s, v) => s + v, 0);
          const magnitude = row.reduce((s, v) => s + Math.abs(v), 0);
          const bound = 2 * (cols + 2) * eps[dtype] * magnitude;
          const label = `${dtype} ${rows}x${cols} ld ${ld} row ${r}`;
          if (Number.isNaN(exact) || !Number.isFinite(exact)) {
            assert.ok(Object.is(sum[r], exact) || (Number.isNaN(sum[r]) && Number.isNaN(exact)), `${label}: sum ${sum[r]}`);
          } else {
            assert.ok(Math.abs(sum[r] - exact) <= bound, `${label}: sum ${sum[r]}, want ${exact} within ${bound}`);
            assert.ok(Math.abs(mean[r] - exact / cols) <= bound / cols + eps[dtype] * Math.abs(exact / cols),
                      `${label}: mean ${mean[r]}`);
          }
          let best = 0;
          for (let j = 1; j < cols; ++j) {
            if (Number.isNaN(row[best])) break;
            if (Number.isNaN(row[j]) || row[j] > row[best]) best = j;
          }
          const wantMax = cols === 0 ? undefined : row[best];
          if (cols > 0) {
            assert.ok(Object.is(max[r], wantMax) || (Number.isNaN(max[r]) && Number.isNaN(wantMax)), `${label}: max ${max[r]}, want ${wantMax}`);
            assert.equal(arg[r], best, `${label}: argmax`);
          }
        }
      }
    }
    // Bad input: named, nothing written.
    const x = Float32Array.of(1, 2, 3, 4, 5, 6), out = new Float32Array(2).fill(7);
    assert.throws(() => t.sumRowsSync(x, { rows: 2 }), (e) => e instanceof TesseraError && /cols/.test(e.message));
    assert.throws(() => t.sumRowsSync(x, { rows: 3, cols: 3, out }), (e) => e instanceof TesseraError && /x has 6 elements/.test(e.message));
    assert.throws(() => t.sumRowsSync(x, { cols: 4 }), (e) => e instanceof TesseraError && /rows is required/.test(e.message));
    assert.throws(() => t.argmaxRowsSync(x, { cols: 3, out }), (e) => e instanceof TesseraError && /unknown option "out"/.test(e.message));
    assert.throws(() => t.maxRowsSync(x, { cols: 3, out: new Float64Array(2) }), (e) => e instanceof TesseraError && /out must be f32/.test(e.message));
    assert.deepEqual(Array.from(out), [7, 7]);
    assert.deepEqual(Array.from(t.sumRowsSync(x, { cols: 3, out })), [6, 15]);
  } finally {
    await t.dispose();
  }
});

test('softmax and logSoftmax match a double reference, in place and strided; -Infinity rows as PyTorch', async () => {
  const t = await load({ threads: 2 });
  try {
    for (const [Type, dtype] of [[Float32Array, 'f32'], [Float64Array, 'f64']]) {
      for (const [rows, cols, ld, ldOut] of [[1, 1, 1, 1], [4, 10, 10, 10], [3, 4099, 4101, 4100], [9, 33, 40, 33]]) {
        const x = seeded(Type, rows * ld, rows + cols, 6).map((v) => v * 20);
        x[0] = -Infinity;                         // one masked element
        if (rows >= 3) for (let j = 0; j < cols; ++j) x[2 * ld + j] = -Infinity;  // a fully masked row
        const y = await t.softmax(x, { rows, cols, ld, ldOut });
        const z = await t.logSoftmax(x, { rows, cols, ld, ldOut });
        for (let r = 0; r < rows; ++r) {
          const row = rowOf(x, r, cols, ld);
          const top = Math.max(...row);
          const sum = row.reduce((s, v) => s + Math.exp(v - top), 0);
          for (let j = 0; j < cols; ++j) {
            const label = `${dtype} ${rows}x${cols} row ${r} col ${j}`;
            const got = y[r * ldOut + j], gotLog = z[r * ldOut + j];
            if (top === -Infinity) {
              assert.ok(Number.isNaN(got) && Number.isNaN(gotLog), `${label}: a fully masked row gives NaN (${got}, ${gotLog})`);
              continue;
            }
            // As the C++ test: the sum of cols exponentials carries up to
            // (cols + 2) eps relative error and each exp a few ulps; for f64
            // the reference's own exp and sum add as much again.
            const want = Math.exp(row[j] - top) / sum, wantLog = row[j] - top - Math.log(sum);
            const rel = (cols + 2 + 16) * eps[dtype];
            assert.ok(Math.abs(got - want) <= 2 * rel * want + 1e-300, `${label}: softmax ${got}, want ${want}`);
            if (wantLog === -Infinity) assert.equal(gotLog, -Infinity, label);
            else assert.ok(Math.abs(gotLog - wantLog) <= 8 * eps[dtype] * (Math.abs(wantLog) + Math.abs(top) + 1), `${label}: log ${gotLog}, want ${wantLog}`);
          }
        }
        if (ld === ldOut) {
          const inPlace = x.slice();
          assert.equal(t.softmaxSync(inPlace, { rows, cols, ld, out: inPlace }), inPlace);
          for (let i = 0; i < rows * ld; ++i) {
            const want = i % ld < cols ? y[i] : x[i];  // the gaps between rows untouched
            assert.ok(Object.is(inPlace[i], want) || (Number.isNaN(inPlace[i]) && Number.isNaN(want)),
                      `${dtype} ${rows}x${cols} in place [${i}]: ${inPlace[i]}, want ${want}`);
          }
        }
      }
    }
  } finally {
    await t.dispose();
  }
});

test('reductions and softmax give the same bits at 1, 2, 3 and 4 threads, inline and in worker mode', async () => {
  const x = seeded(Float32Array, 7 * 20011, 9, 1);
  const results = [];
  for (const mode of ['inline', 'worker']) {
    const t = await load({ threads: 4, mode, oversubscribe: true });
    try {
      for (const threads of [1, 2, 3, 4]) {
        const sum = await t.sumRows(x, { cols: 20011, threads });
        const soft = await t.softmax(x, { cols: 20011, threads });
        results.push({ mode, threads, hash: fnv1a64(sum) + fnv1a64(soft) });
      }
    } finally {
      await t.dispose();
    }
  }
  for (const r of results) assert.equal(r.hash, results[0].hash, `${r.mode} ${r.threads} threads`);
});

test('gemm with a fused bias and activation: relu exactly as gemm then bias then relu; gelu and sigmoid within their bounds', async () => {
  const t = await load({ threads: 2 });
  try {
    for (const [Type, round, dtype] of [[Float32Array, Math.fround, 'f32'], [Float64Array, (v) => v, 'f64']]) {
      for (const [m, n, k] of [[1, 1, 1], [17, 31, 13], [64, 33, 300], [5, 130, 2]]) {
        const a = seeded(Type, m * k, m + n, 1), b = seeded(Type, k * n, m + n, 2);
        const plain = await t.gemm({ m, n, k, a, b, alpha: 1.5 });
        for (const biasKind of ['column', 'row']) {
          const bias = seeded(Type, biasKind === 'column' ? n : m, k, 3);
          const biased = (i, j) => round(plain[i * n + j] + bias[biasKind === 'column' ? j : i]);
          const relu = await t.gemm({ m, n, k, a, b, alpha: 1.5, bias, biasKind, activation: 'relu' });
          const sig = await t.gemm({ m, n, k, a, b, alpha: 1.5, bias, biasKind, activation: 'sigmoid' });
          const gelu = await t.gemm({ m, n, k, a, b, alpha: 1.5, bias, biasKind, activation: 'gelu' });
          const none = await t.gemm({ m, n, k, a, b, alpha: 1.5, bias, biasKind });
          for (let i = 0; i < m; ++i) {
            for (let j = 0; j < n; ++j) {
              const v = biased(i, j), label = `${dtype} ${m}x${n}x${k} ${biasKind} (${i}, ${j})`;
              assert.ok(Object.is(none[i * n + j], v), `${label}: bias ${none[i * n + j]}, want ${v}`);
              assert.ok(Object.is(relu[i * n + j], v < 0 ? 0 : v), `${label}: relu ${relu[i * n + j]}, want ${v}`);
              const s = v < 0 ? Math.exp(v) / (1 + Math.exp(v)) : 1 / (1 + Math.exp(-v));
              assert.ok(ulpDistance(sig[i * n + j], s, dtype) <= 3, `${label}: sigmoid ${sig[i * n + j]}, want ${s}`);
              const u2 = 2 * Math.sqrt(2 / Math.PI) * (v + 0.044715 * v * v * v);
              // x e^(2u) / (1 + e^(2u)) for u < 0: e^(-2u) would overflow
              // where the result is still a subnormal.
              const g = u2 < 0 ? v * Math.exp(u2) / (1 + Math.exp(u2)) : v / (1 + Math.exp(-u2));
              if (v >= -10) {
                assert.ok(ulpDistance(gelu[i * n + j], g, dtype) <= 257, `${label}: gelu ${gelu[i * n + j]}, want ${g}`);
              } else {
                // Below -10 (no documented ulp bound) gelu is x e^(2u) with
                // |2u| > 100: a rounding of u moves it by |2u| eps relative.
                // Where e^(2u) is subnormal its rounding (half the smallest
                // subnormal) is scaled by |x|.
                const tiniest = dtype === 'f32' ? 2 ** -149 : 2 ** -1074;
                const rel = 4 * (Math.abs(u2) + 8) * eps[dtype];
                assert.ok(Math.abs(gelu[i * n + j] - g) <= rel * Math.abs(g) + (Math.abs(v) + 2) * tiniest, `${label}: gelu tail ${gelu[i * n + j]}, want ${g}`);
              }
            }
          }
        }
      }
    }
    const a = Float32Array.of(1, 2), b = Float32Array.of(3, 4), c = new Float32Array(4).fill(9);
    const bad = (args, pattern) => assert.throws(() => t.gemmSync({ m: 2, n: 2, k: 1, a, b, c, ...args }),
                                                 (e) => e instanceof TesseraError && pattern.test(e.message), String(pattern));
    bad({ activation: 'tanh' }, /activation must be one of/);
    bad({ biasKind: 'row' }, /bias is required with biasKind 'row'/);
    bad({ bias: Float32Array.of(1) }, /bias has 1 elements but a column bias needs 2/);
    bad({ bias: Float64Array.of(1, 2) }, /bias must be f32/);
    bad({ bias: c, biasKind: 'row' }, /c must not be the same array as a, b or bias/);
    assert.deepEqual(Array.from(c), [9, 9, 9, 9]);
  } finally {
    await t.dispose();
  }
});

test('zero sizes work with the default leading dimensions (BLAS max(1, row length))', async () => {
  const t = await load({ threads: 1 });
  try {
    // k = 0: C = beta C, whatever A and B are (none of them).
    const c = Float32Array.of(1, 2, 3, 4);
    assert.deepEqual(t.gemmSync({ m: 2, n: 2, k: 0, a: new Float32Array(0), b: new Float32Array(0), c, beta: 0.5 }),
                     Float32Array.of(0.5, 1, 1.5, 2));
    assert.deepEqual(t.gemmSync({ m: 2, n: 2, k: 0, a: new Float32Array(0), b: new Float32Array(0), transA: true, transB: true }),
                     new Float32Array(4));
    // n = 0: BLAS gemv returns at once, y untouched (reference BLAS's
    // quick return for M = 0 or N = 0).
    const y = Float64Array.of(4, 6);
    assert.deepEqual(t.gemvSync({ m: 2, n: 0, a: new Float64Array(0), x: new Float64Array(0), y, beta: 0.5 }),
                     Float64Array.of(4, 6));
    assert.deepEqual(t.matmulIntegerSync({ m: 2, n: 2, k: 0, a: new Uint8Array(0), b: new Int8Array(0) }), new Int32Array(4));
  } finally {
    t.dispose();
  }
});
