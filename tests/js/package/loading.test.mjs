// load() and the instance's life: every bad option and input is an explicit
// TesseraError naming it, before anything is written; loader failures have
// their codes; two instances coexist; tensors survive heap growth;
// out-of-memory leaves the instance usable; a Node process exits after
// dispose().
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import http from 'node:http';
import { availableParallelism } from 'node:os';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { load, TesseraError } from 'tessera-wasm';

import { seeded } from './support.mjs';

const rejectsWith = (promise, code, pattern) =>
  assert.rejects(promise, (e) => {
    assert.ok(e instanceof TesseraError, `a TesseraError, got ${e}`);
    assert.ok(e instanceof Error);
    assert.equal(e.code, code, e.message);
    if (pattern) assert.match(e.message, pattern);
    return true;
  });

test('bad load() options reject with the option named, never a synchronous throw', async () => {
  const cases = [
    [{ thread: 2 }, /unknown option "thread"/],
    [{ threads: 0 }, /threads must be/],
    [{ threads: 2.5 }, /threads must be/],
    [{ threads: 257 }, /threads must be/],
    [{ threads: '4' }, /threads must be/],
    [{ mode: 'fast' }, /mode must be/],
    [{ isa: 'avx2' }, /isa must be/],
    [{ initTimeoutMs: -1 }, /initTimeoutMs/],
    [{ counters: 'yes' }, /counters must be a boolean/],
    [{ selftest: 'no' }, /selftest must be a boolean/],
    [{ oversubscribe: 1 }, /oversubscribe must be a boolean/],
    [{ pool: 'threads' }, /pool must be 'auto', 'shared' or 'messages'/],
    [{ maxThreadsPerKernel: -1 }, /maxThreadsPerKernel/],
    [{ profile: 42 }, /profile must be a profile's JSON text or its parsed object/],
    [{ profile: [] }, /profile must be/],
    [{ profilePortable: 'yes' }, /profilePortable must be a boolean/],
    [{ profile: { tessera_profile: 1 } }, /options->profile_json: profile: changes_bits is missing/],
    [{ profile: '{"tessera_profile":1,' }, /options->profile_json: profile:/],
    ['threads', /options must be an object/],
  ];
  for (const [options, pattern] of cases) {
    let promise;
    assert.doesNotThrow(() => { promise = load(options); });
    await rejectsWith(promise, 'invalid-argument', pattern);
  }
});

test('the load-time self-test runs by default on both builds and in both modes, and selftest: false turns it off', async () => {
  for (const options of [{ threads: 1, mode: 'inline' }, { threads: 2, mode: 'inline', oversubscribe: true }, { threads: 1, mode: 'worker' }]) {
    const t = await load(options);
    try {
      assert.match(t.info.selftest, /^passed on simd128 \(sgemm, dgemm, sdot, ddot and exp .*; [0-9.]+ ms when first run/, JSON.stringify(options));
      assert.equal(t.info.selftest, t.info.policy.load_selftest);
      assert.ok(!t.info.fallbacks.some((f) => f.startsWith('load self-test')), t.info.fallbacks.join('; '));
      // isa: 'scalar' is checked on its own level.
      const s = await load({ ...options, isa: 'scalar' });
      assert.match(s.info.selftest, /^passed on scalar /);
      await s.dispose();
    } finally {
      await t.dispose();
    }
  }
  const off = await load({ threads: 1, mode: 'inline', selftest: false });
  assert.equal(off.info.selftest, 'off (TESSERA_SELFTEST = 0)');
  await off.dispose();
});

// A profile measured natively (another level than simd128): refused with the
// reason unless profilePortable; applied, its kc slices the sums in the
// caller and in every message-pool worker alike.
const nativeProfile = {
  tessera_profile: 1,
  changes_bits: true,
  measured_on: {
    cpu_vendor: 'AuthenticAMD', cpu_family: 25, cpu_model: 17, isa: 'avx512_vnni',
    l1d_bytes: 32768, l2_bytes: 1048576, l3_bytes: 33554432, logical_cpus: 2, tessera_version: '0.1.0',
  },
  settings: { TESSERA_FULL_WIDTH_MNK: 14000000, gemm_f32_blocking: { kc: 100, mc: 48, nc: 512 } },
  notes: [],
};

test('load({profile}) refuses a profile measured elsewhere unless profilePortable, and applies it everywhere', async () => {
  const refused = await load({ threads: 1, mode: 'inline', profile: nativeProfile });
  try {
    assert.match(refused.info.profile, /^none \(tsr_context_options\.profile_json was measured elsewhere/);
    assert.ok(refused.info.fallbacks.some((f) => /profile tsr_context_options\.profile_json not applied: measured on/.test(f)),
      refused.info.fallbacks.join('; '));
  } finally {
    refused.dispose();
  }
  const m = 2053, n = 1031, k = 1031;
  const a = seeded(Float32Array, m * k, 5, 1), b = seeded(Float32Array, k * n, 5, 2);
  const plain = await load({ threads: 1, mode: 'inline' });
  const one = await load({ threads: 1, mode: 'inline', profile: JSON.stringify(nativeProfile), profilePortable: true });
  const pooled = await load({ threads: 2, pool: 'messages', mode: 'worker', profile: nativeProfile, profilePortable: true });
  try {
    for (const t of [one, pooled]) {
      assert.match(t.info.profile, /^applied from tsr_context_options\.profile_json: .*TESSERA_FULL_WIDTH_MNK=14000000/);
      assert.match(t.info.profile, /it changes results/);
      assert.ok(t.info.fallbacks.some((f) => /applied although measured on/.test(f)), t.info.fallbacks.join('; '));
    }
    assert.equal(plain.info.profile, 'none');
    const want = one.gemmSync({ m, n, k, a, b });
    const before = (await pooled.counters()).messagePoolSplitCalls;
    const got = await pooled.gemm({ m, n, k, a, b });
    assert.equal((await pooled.counters()).messagePoolSplitCalls, before + 1);
    const bad = want.findIndex((v, i) => !Object.is(v, got[i]));
    assert.equal(bad, -1, `element ${bad}: ${got[bad]} split, ${want[bad]} on one thread`);
    // kc 100 is in force: the sums are sliced otherwise than without it.
    const unprofiled = plain.gemmSync({ m, n, k, a, b });
    assert.ok(unprofiled.some((v, i) => !Object.is(v, want[i])), 'the profile changed no bit');
  } finally {
    plain.dispose();
    one.dispose();
    await pooled.dispose();
  }
});

// A local server for the loader's failure modes: 404, an HTML page instead
// of the .wasm, and a request that never answers.
async function withServer(fn) {
  const hanging = [];
  const server = http.createServer((req, res) => {
    if (req.url === '/missing.wasm') { res.writeHead(404); res.end('not found'); return; }
    if (req.url === '/spa.wasm') {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<!DOCTYPE html><html><body>app</body></html>');
      return;
    }
    hanging.push(res);  // never answered
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${server.address().port}`;
  try {
    await fn(base);
  } finally {
    for (const res of hanging) res.destroy();
    server.closeAllConnections?.();
    await new Promise((resolve) => server.close(resolve));
  }
}

test('a missing .wasm, an HTML body and a stalled download reject with wasm-fetch, not-wasm and init-timeout', async () => {
  await rejectsWith(load({ threads: 1, wasmUrl: new URL('file:///nonexistent/tessera.wasm') }), 'wasm-fetch', /nonexistent/);
  await withServer(async (base) => {
    await rejectsWith(load({ threads: 1, wasmUrl: `${base}/missing.wasm` }), 'wasm-fetch', /404/);
    await rejectsWith(load({ threads: 1, wasmUrl: `${base}/spa.wasm` }), 'not-wasm', /3c 21 44 4f.*HTML page/);
    await rejectsWith(load({ threads: 1, wasmUrl: `${base}/stalled.wasm`, initTimeoutMs: 300 }), 'init-timeout', /300 ms/);
  });
  await rejectsWith(load({ threads: 1, wasmBinary: new TextEncoder().encode('<!doctype html>') }), 'not-wasm');
  // The right magic number, then garbage: the compile error as not-wasm.
  await rejectsWith(load({ threads: 1, wasmBinary: Uint8Array.of(0, 0x61, 0x73, 0x6d, 1, 0, 0, 0, 0xff, 0xff) }),
                    'not-wasm', /failed/);
  // A plain path works in Node (relative to the working directory).
  const path = fileURLToPath(new URL('../node_modules/tessera-wasm/dist/single/tessera.wasm', import.meta.url));
  const t = await load({ threads: 1, wasmUrl: path });
  await t.dispose();
});

test('the package installs no process-wide handlers in Node', async () => {
  const before = ['uncaughtException', 'unhandledRejection'].map((e) => process.listenerCount(e));
  const t = await load({ threads: 2 });
  const after = ['uncaughtException', 'unhandledRejection'].map((e) => process.listenerCount(e));
  await t.dispose();
  assert.deepEqual(after, before);
});

test('bad kernel inputs are errors naming the argument, and nothing is written', async () => {
  const t = await load({ threads: 2 });
  try {
    const a = new Float32Array(12).fill(1), b = new Float32Array(12).fill(2);
    const c = new Float32Array(9).fill(7);
    const untouched = () => assert.deepEqual(c, new Float32Array(9).fill(7));
    const gemm = (extra) => t.gemm({ m: 3, n: 3, k: 4, a, b, c, ...extra });
    await rejectsWith(gemm({ m: -1 }), 'invalid-argument', /m must be an integer >= 0/);
    await rejectsWith(gemm({ k: 1.5 }), 'invalid-argument', /k must be an integer/);
    await rejectsWith(gemm({ a: new Float64Array(12) }), 'invalid-argument', /a is f64 but b is f32|b is f32/);
    await rejectsWith(gemm({ a: [1, 2, 3] }), 'invalid-argument', /a must be a Float32Array/);
    await rejectsWith(gemm({ a: new Float32Array(11) }), 'invalid-argument', /a has 11 elements but needs 12/);
    await rejectsWith(gemm({ lda: 2 }), 'invalid-argument', /lda must be an integer >= 4/);
    await rejectsWith(gemm({ transA: 1 }), 'invalid-argument', /transA must be a boolean/);
    await rejectsWith(gemm({ alpah: 2 }), 'invalid-argument', /unknown option "alpah"/);
    await rejectsWith(gemm({ c: new Float32Array(8) }), 'invalid-argument', /c has 8 elements but needs 9/);
    await rejectsWith(gemm({ c: a.subarray(1, 10) }), 'invalid-argument', /a and c overlap/);
    await rejectsWith(gemm({ b: c.subarray(0, 9), k: 3 }), 'invalid-argument', /b and c overlap/);
    untouched();
    // Inputs may share memory (they are only read): A and B as overlapping
    // views of one buffer give the product of their values.
    const shared = Float32Array.from({ length: 16 }, (_, i) => i - 5);
    const sa = shared.subarray(0, 12), sb = shared.subarray(4, 16);
    const got = await t.gemm({ m: 3, n: 3, k: 4, a: sa, b: sb });
    for (let i = 0; i < 3; ++i) {
      for (let j = 0; j < 3; ++j) {
        let want = 0;
        for (let p = 0; p < 4; ++p) want += sa[i * 4 + p] * sb[p * 3 + j];
        assert.equal(got[i * 3 + j], want, `overlapping inputs: C[${i}][${j}]`);
      }
    }
    await rejectsWith(t.add(a, b.subarray(1)), 'invalid-argument', /b has 11 elements but a has 12/);
    await rejectsWith(t.add(a, 5), 'invalid-argument', /b must be a Float32Array/);
    await rejectsWith(t.add(a, b, new Float64Array(12)), 'invalid-argument', /out must be f32/);
    await rejectsWith(t.relu(a, a.subarray(2, 14)), 'invalid-argument', /elements|overlap/);
    await rejectsWith(t.add(new Float64Array(3), new Float32Array(3)), 'invalid-argument', /a is f64 but b is f32/);
    await rejectsWith(t.sqrt(new Float64Array(3), new Float32Array(3)), 'invalid-argument', /out must be f64/);
    // Int32Array is a tensor type since the integer GEMM (its int32
    // output); Int16Array is none.
    assert.throws(() => t.alloc(Int16Array, 4),
                  (e) => e.code === 'invalid-argument' && /Type must be Float32Array/.test(e.message));
    assert.throws(() => t.alloc(Float32Array, -1), (e) => e.code === 'invalid-argument');
  } finally {
    await t.dispose();
  }
  await rejectsWith(t.gemm({ m: 1, n: 1, k: 1, a: new Float32Array(1), b: new Float32Array(1) }), 'disposed');
  assert.throws(() => t.counters(), (e) => e.code === 'disposed');
});

test('two instances used in interleaved calls keep their own state', async () => {
  const [x, y] = await Promise.all([load({ threads: 2, counters: true }), load({ threads: 1 })]);
  try {
    const a = Float32Array.from({ length: 64 }, (_, i) => i - 32);
    const calls = [];
    for (let i = 0; i < 20; ++i) calls.push((i % 2 ? x : y).relu(a));
    const results = await Promise.all(calls);
    for (const r of results) assert.deepEqual(r, a.map((v) => (v < 0 ? 0 : v)));
    assert.equal(x.info.build, 'threads');
    assert.equal(y.info.build, 'single');
    assert.equal(x.resolvedPolicy().counters, true);
    assert.equal(typeof x.counters().dispatches, 'number');
  } finally {
    await x.dispose();
    await y.dispose();
  }
});

test('tensors stay valid when the heap grows; out-of-memory leaves the instance usable', async () => {
  const t = await load({ threads: 1 });  // the single-threaded build grows its heap
  try {
    const small = t.alloc(Float32Array, 1000);
    small.data.set(Float32Array.from({ length: 1000 }, (_, i) => i));
    const before = small.data.buffer;
    const big = t.alloc(Float32Array, 64 << 20);  // 256 MiB: grows the heap
    assert.notEqual(small.data.buffer, before, 'the heap grew');
    assert.equal(small.data[999], 999);
    const out = t.alloc(Float32Array, 1000);
    await t.relu(small, out);
    assert.equal(out.data[999], 999);
    big.dispose();
    assert.throws(() => t.alloc(Float32Array, 2 ** 29), (e) => e.code === 'out-of-memory');
    assert.deepEqual(Array.from(await t.add(Float32Array.of(1), Float32Array.of(2))), [3]);
    small.dispose();
    out.dispose();
    assert.throws(() => small.data, (e) => e.code === 'disposed');
    const kept = t.alloc(Float32Array, 4);
    await t.dispose();
    assert.throws(() => kept.data, (e) => e.code === 'disposed');
  } finally {
    await t.dispose();
  }
  const threaded = await load({ threads: 2 });  // fixed heap: the same rule
  try {
    assert.throws(() => threaded.alloc(Float32Array, 2 ** 29), (e) => e.code === 'out-of-memory');
    // More than the fixed heap but within the 32-bit address space: malloc
    // itself must fail (not abort the module).
    assert.throws(() => threaded.alloc(Float32Array, 80 << 20), (e) => e.code === 'out-of-memory');
    assert.deepEqual(Array.from(await threaded.add(Float32Array.of(1), Float32Array.of(2))), [3]);
  } finally {
    await threaded.dispose();
  }
});

test('info says which build runs and why; threads: 1 loads the single-threaded build', async () => {
  const t = await load({ threads: 1 });
  try {
    assert.equal(t.info.build, 'single');
    assert.equal(t.info.threads, 1);
    assert.ok(t.info.fallbacks.some((f) => /threads: 1 requested/.test(f)));
    assert.equal(t.info.policy.effective_threads, 1);
    assert.equal(t.info.simd, true);
  } finally {
    await t.dispose();
  }
});

test('threads above the host\'s logical CPUs are capped there with the reason, unless oversubscribe asks for them', async () => {
  const cpus = availableParallelism();
  const asked = cpus + 2;
  const capped = await load({ threads: asked });
  try {
    assert.equal(capped.info.threads, cpus);
    assert.equal(capped.info.build, cpus === 1 ? 'single' : 'threads');
    assert.ok(capped.info.fallbacks.some((f) => f.includes(`threads: ${asked} capped at ${cpus}`)), capped.info.fallbacks.join('; '));
  } finally {
    await capped.dispose();
  }
  const wide = await load({ threads: asked, oversubscribe: true });
  try {
    assert.equal(wide.info.threads, asked);
    assert.equal(wide.info.policy.effective_threads, asked);
    assert.ok(!wide.info.fallbacks.some((f) => /capped/.test(f)), wide.info.fallbacks.join('; '));
  } finally {
    await wide.dispose();
  }
});

test('a Node process exits by itself after dispose(), threads and worker mode included', () => {
  const script = `
    import { load } from 'tessera-wasm';
    for (const options of [{ threads: 4, oversubscribe: true }, { threads: 2, mode: 'worker' }, { threads: 2, pool: 'messages' }]) {
      const t = await load(options);
      await t.gemm({ m: 64, n: 64, k: 64, a: new Float32Array(4096), b: new Float32Array(4096) });
      await t.dispose();
    }
    console.log('done');`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script],
                      { cwd: fileURLToPath(new URL('.', import.meta.url)), encoding: 'utf8', timeout: 30000 });
  assert.equal(r.error, undefined, 'the process did not exit within 30 s');
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /done/);
});
