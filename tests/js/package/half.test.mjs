// Half precision from JavaScript: toF16 / fromF16 / toBf16 / fromBf16
// against references written here in plain arithmetic (Math.pow, no bit
// tricks): all 2^16 values widened, narrowing on the values around every
// rounding point, hand-derived bits, u16 tensors, both builds, inline and
// worker mode, Float16Array where the engine has it, and bad arguments.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { load, TesseraError } from 'tessera-wasm';

const f32Bits = (x) => new Uint32Array(Float32Array.of(x).buffer)[0];
const fromBits = (u) => new Float32Array(Uint32Array.of(u).buffer)[0];

// The value of a 16-bit pattern with `m` mantissa bits and `e` exponent
// bits; NaN as null (its bits are checked separately).
function halfValue(h, m, e) {
  const bias = 2 ** (e - 1) - 1;
  const sign = h & 0x8000 ? -1 : 1;
  const exponent = (h >> m) & (2 ** e - 1);
  const fraction = h & (2 ** m - 1);
  if (exponent === 2 ** e - 1) return fraction === 0 ? sign * Infinity : null;
  if (exponent === 0) return sign * fraction * 2 ** (1 - bias - m);
  return sign * (1 + fraction / 2 ** m) * 2 ** (exponent - bias);
}

// The nearest pattern to x (finite, not NaN), ties to the even pattern,
// found among the format's values in order (binary search).
function nearest(x, m, e, table) {
  const sign = Object.is(x, -0) || x < 0 ? 0x8000 : 0;
  const a = Math.abs(x);
  const maxExponent = 2 ** e - 1;
  let lo = 0, hi = maxExponent << m;  // hi: +infinity
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (table[mid] <= a) lo = mid; else hi = mid;
  }
  // table[lo] <= a < table[hi]; the largest finite value's neighbour is
  // infinity at the distance of one more ulp.
  const top = hi === maxExponent << m ? table[lo] + (table[lo] - table[lo - 1]) : table[hi];
  const below = a - table[lo], above = top - a;
  const pick = below < above ? lo : below > above ? hi : (lo % 2 === 0 ? lo : hi);
  return sign | pick;
}

function formatTable(m, e) {
  const n = (2 ** e - 1) << m;
  return Float64Array.from({ length: n + 1 }, (_, i) => (i === n ? Infinity : halfValue(i, m, e)));
}
const F16 = { m: 10, e: 5, table: formatTable(10, 5), quiet: 0x200 };
const BF16 = { m: 7, e: 8, table: formatTable(7, 8), quiet: 0x40 };

// Reference narrowing of an f32 value's bits.
function narrowReference(u, f) {
  const x = fromBits(u);
  if (Number.isNaN(x)) return ((u >>> 16) & 0x8000) | ((2 ** f.e - 1) << f.m) | f.quiet | ((u & 0x7fffff) >>> (23 - f.m));
  return nearest(x, f.m, f.e, f.table);
}

// f32 bit patterns: every exponent, mantissas at and around the places
// where each format rounds, and random ones.
function sweep() {
  const out = [];
  let s = 12345;
  const next = () => { s ^= s << 13; s >>>= 0; s ^= s >>> 17; s ^= s << 5; s >>>= 0; return s; };
  for (let hi = 0; hi < 0x10000; hi += 7) {
    for (const lo of [0x0000, 0x0fff, 0x1000, 0x1001, 0x7fff, 0x8000, 0x8001, 0xffff]) out.push(((hi << 16) | lo) >>> 0);
  }
  for (let e = 100; e <= 113; ++e) {  // f16's subnormal range
    for (let i = 0; i < 200; ++i) out.push(((e << 23) | (next() & 0x7fffff)) >>> 0);
  }
  for (let i = 0; i < 2000; ++i) out.push(next());
  return Uint32Array.from(out);
}

const modes = [[{ threads: 1, mode: 'inline' }, 'single-threaded inline'], [{ threads: 2, mode: 'inline' }, 'threaded inline'],
               [{ threads: 2, mode: 'worker' }, 'worker']];

test('toF16 / toBf16: every pattern of the sweep equals the reference; fromF16 / fromBf16 all 2^16 values', async () => {
  const bits = sweep();
  const x = new Float32Array(bits.buffer);
  const halves = Uint16Array.from({ length: 0x10000 }, (_, i) => i);
  for (const [options, label] of modes) {
    const t = await load(options);
    try {
      for (const [f, to, from] of [[F16, 'toF16', 'fromF16'], [BF16, 'toBf16', 'fromBf16']]) {
        const h = await t[to](x);
        assert.ok(h instanceof Uint16Array);
        for (let i = 0; i < bits.length; ++i) {
          const want = narrowReference(bits[i], f);
          if (h[i] !== want) assert.fail(`${label} ${to}(0x${bits[i].toString(16)}) = 0x${h[i].toString(16)}, want 0x${want.toString(16)}`);
        }
        const wide = await t[from](halves);
        assert.ok(wide instanceof Float32Array);
        const wideBits = new Uint32Array(wide.buffer);
        for (let i = 0; i < 0x10000; ++i) {
          const v = halfValue(i, f.m, f.e);
          if (v === null) {
            const want = (((i & 0x8000) << 16) | 0x7fc00000 | ((i & (2 ** f.m - 1)) << (23 - f.m))) >>> 0;
            if (wideBits[i] !== want) assert.fail(`${label} ${from}(0x${i.toString(16)}): NaN bits 0x${wideBits[i].toString(16)}`);
          } else if (!Object.is(wide[i], v)) {
            assert.fail(`${label} ${from}(0x${i.toString(16)}) = ${wide[i]}, want ${v}`);
          }
        }
      }
    } finally {
      t.dispose();
    }
  }
});

test('hand-derived bits, outputs given, u16 tensors, threads', async () => {
  const t = await load({ threads: 2, mode: 'inline' });
  try {
    const x = Float32Array.of(1, -2.5, 65504, 65520, 2 ** -24, 2 ** -25, -0, Infinity, NaN);
    assert.deepEqual(t.toF16Sync(x), Uint16Array.of(0x3c00, 0xc100, 0x7bff, 0x7c00, 0x0001, 0x0000, 0x8000, 0x7c00, 0x7e00));
    assert.deepEqual(t.toBf16Sync(x), Uint16Array.of(0x3f80, 0xc020, 0x4780, 0x4780, 0x3380, 0x3300, 0x8000, 0x7f80, 0x7fc0));
    const y = new Uint16Array(x.length);
    assert.equal(t.toF16Sync(x, y, { threads: 2 }), y);
    assert.equal(y[0], 0x3c00);
    const h = t.alloc(Uint16Array, x.length);
    const back = t.alloc(Float32Array, x.length);
    try {
      t.toBf16Sync(x, h);
      assert.equal(h.dtype, 'u16');
      assert.equal(h.data[1], 0xc020);
      t.fromBf16Sync(h, back, { threads: 'serial' });
      assert.equal(back.data[2], 65536);
      assert.equal(f32Bits(back.data[8]), 0x7fc00000);
    } finally {
      h.dispose();
      back.dispose();
    }
    // A large array on several threads gives the one-thread bits.
    const big = Float32Array.from({ length: 300007 }, (_, i) => Math.sin(i) * 70000);
    assert.deepEqual(await t.toF16(big, undefined, { threads: 2 }), await t.toF16(big, undefined, { threads: 1 }));
  } finally {
    t.dispose();
  }
});

test('Float16Array, where the engine has one', { skip: typeof globalThis.Float16Array !== 'function' && 'no Float16Array here' }, async () => {
  const t = await load({ threads: 1 });
  try {
    const x = Float32Array.of(1.5, -3, 0.1);
    const h = await t.toF16(x, new globalThis.Float16Array(3));
    assert.ok(h instanceof globalThis.Float16Array);
    assert.deepEqual(Array.from(h), [1.5, -3, Math.fround(0.0999755859375)]);
    assert.deepEqual(await t.fromF16(h), Float32Array.of(1.5, -3, 0.0999755859375));
  } finally {
    t.dispose();
  }
});

test('bad arguments are named', async () => {
  const t = await load({ threads: 1 });
  try {
    const bad = (fn, pattern) => assert.throws(fn, (e) => e instanceof TesseraError && e.code === 'invalid-argument' && pattern.test(e.message));
    bad(() => t.toF16Sync(new Float64Array(3)), /toF16: x must be a Float32Array or an f32 tensor \(got Float64Array\)/);
    bad(() => t.toF16Sync(new Float32Array(3), new Uint16Array(2)), /toF16: y has 2 elements but x has 3/);
    bad(() => t.fromBf16Sync(new Int16Array(3)), /fromBf16: x must be a Uint16Array or a u16 tensor \(got Int16Array\)/);
    bad(() => t.fromF16Sync(new Uint16Array(3), new Float64Array(3)), /fromF16: y must be a Float32Array or an f32 tensor/);
    bad(() => t.toBf16Sync(new Float32Array(3), undefined, { thread: 2 }), /toBf16/);
    const buffer = new ArrayBuffer(64);
    bad(() => t.fromF16Sync(new Uint16Array(buffer, 0, 8), new Float32Array(buffer, 4, 8)), /fromF16/);
  } finally {
    t.dispose();
  }
});
