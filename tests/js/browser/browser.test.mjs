// The package in Chromium (Debian's, driven by playwright-core), served by
// server.mjs with a header profile per case. Run by ./dev test from the
// consumer folder, against the installed tarball (roots below).
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { chromium } from 'playwright-core';

import { startServer } from './server.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const consumer = path.resolve(here, '..', '..');  // test/browser/ inside the consumer folder
const screenshots = process.env.TESSERA_SCREENSHOT_DIR ?? path.join(consumer, 'screenshots');
const roots = {
  pkg: path.join(consumer, 'node_modules', 'tessera-wasm'),
  pages: path.join(here, 'pages'),
  support: path.join(consumer, 'test'),
  example: process.env.TESSERA_BROWSER_EXAMPLE ?? path.join(here, 'example'),
};

let server, origin, context, profileDir;

before(async () => {
  ({ server, origin } = await startServer(roots));
  profileDir = mkdtempSync(path.join(os.tmpdir(), 'tessera-chromium-'));
  context = await chromium.launchPersistentContext(profileDir, {
    executablePath: process.env.TESSERA_CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
           '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
});

after(async () => {
  await context?.close();
  server?.closeAllConnections?.();
  await new Promise((resolve) => server.close(resolve));
  rmSync(profileDir, { recursive: true, force: true });
});

// Opens the harness under `profile`; every evaluate has a timeout (a script
// that never loads would otherwise hang the test).
async function open(profile) {
  const page = await context.newPage();
  page.setDefaultTimeout(30000);
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(`${origin}/${profile}/pages/index.html`);
  await page.waitForFunction(() => window.harnessReady === true, undefined, { polling: 50 });
  return { page, errors };
}

test('an isolated page gets the threaded build in a worker: correct results and the native SSE2 hash', async () => {
  const { page, errors } = await open('isolated');
  const r = await page.evaluate(async () => {
    const { load } = window.tessera;
    const { seeded, fnv1a64 } = window.support;
    const t = await load({ threads: 4 });
    const m = 517, n = 389, k = 263;
    const c = await t.gemm({ m, n, k, a: seeded(Float32Array, m * k, 1, 1), b: seeded(Float32Array, k * n, 1, 2) });
    const small = await t.add(Float32Array.of(1, 2), Float32Array.of(3, 4));
    const info = { ...t.info, policy: undefined };
    await t.dispose();
    return { info, hash: fnv1a64(c), small: Array.from(small), isolated: crossOriginIsolated };
  });
  assert.equal(r.isolated, true);
  assert.equal(r.info.build, 'threads');
  assert.equal(r.info.mode, 'worker');
  assert.equal(r.info.zeroCopy, true);
  assert.equal(r.info.threads, 4);
  assert.equal(r.hash, 'cd9b655a72a80ea5');
  assert.deepEqual(r.small, [4, 6]);
  assert.deepEqual(errors, []);
  await page.close();
});

test('after dispose() the module\'s pthread workers are gone (the host worker: see below)', async () => {
  const { page } = await open('isolated');
  // The browser's own list of worker targets (Chrome DevTools Protocol),
  // nested workers included; Playwright's page.workers() can lag.
  const cdp = await context.newCDPSession(page);
  const workers = async () => (await cdp.send('Target.getTargets')).targetInfos
    .filter((t) => t.type === 'worker').map((t) => t.url.split('/').pop());
  await page.evaluate(async () => {
    window.t = await window.tessera.load({ threads: 2 });
    await window.t.relu(Float32Array.of(-1, 1));
  });
  const before = await workers();
  assert.ok(before.includes('worker-host-web.js'), before.join(' '));
  assert.ok(before.includes('tessera.worker.js'), before.join(' '));
  // The host ends the module's pthread workers and reports what is left;
  // the page then terminates the host (worker.terminate()).
  assert.deepEqual(await page.evaluate(async () => window.t.dispose()), { pthreadWorkersLeft: 0 });
  const code = await page.evaluate(async () => window.t.relu(Float32Array.of(1)).then(() => 'ok', (e) => e.code));
  assert.equal(code, 'disposed');
  // Chromium tears terminated workers down within seconds (1.5-3 s here).
  // KNOWN OPEN: in some runs the terminated *host* worker's target stays
  // listed for more than 15 s (likely cause: the wasm pool outlives its
  // contexts, so its threads are parked in Atomics.wait when terminated;
  // see the session note of issue 9), so only the pthread
  // workers are required to be gone; the host's state is printed.
  let left = await workers();
  for (let i = 0; i < 150 && left.some((w) => w === 'tessera.worker.js'); ++i) {
    await new Promise((r) => setTimeout(r, 100));
    left = await workers();
  }
  assert.deepEqual(left.filter((w) => w === 'tessera.worker.js'), [], 'pthread workers alive 15 s after dispose()');
  if (left.length > 0) console.log(`# host worker target still listed after dispose(): ${left.join(' ')}`);
  await cdp.detach();
  await page.close();
});

test('during a 1-2 s GEMM in worker mode a 10 ms timer on the page never stalls more than 50 ms', async () => {
  const { page } = await open('isolated');
  const r = await page.evaluate(async () => {
    const t = await window.tessera.load({ threads: 2 });
    const n = 1536;
    const a = new Float32Array(n * n).fill(0.5), b = new Float32Array(n * n).fill(0.25);
    let last = performance.now(), worst = 0, ticks = 0;
    const timer = setInterval(() => {
      const now = performance.now();
      worst = Math.max(worst, now - last);
      last = now;
      ++ticks;
    }, 10);
    const start = performance.now();
    let calls = 0;
    while (performance.now() - start < 1000) {
      await t.gemm({ m: n, n, k: n, a, b });
      ++calls;
    }
    const elapsed = performance.now() - start;
    clearInterval(timer);
    await t.dispose();
    return { worst, ticks, elapsed, calls };
  });
  assert.ok(r.elapsed >= 1000 && r.elapsed < 20000, JSON.stringify(r));
  assert.ok(r.worst <= 50, `the page's timer stalled ${r.worst.toFixed(1)} ms (${JSON.stringify(r)})`);
});

test('a page without COOP/COEP gets the single-threaded build with the reason, and nothing throws synchronously', async () => {
  const { page, errors } = await open('plain');
  const r = await page.evaluate(async () => {
    let promise;
    try {
      promise = window.tessera.load({ threads: 4 });
    } catch (e) {
      return { syncThrow: String(e) };
    }
    const t = await promise;
    const c = await t.gemm({ m: 2, n: 2, k: 2, a: Float32Array.of(1, 2, 3, 4), b: Float32Array.of(1, 0, 0, 1) });
    const info = { ...t.info, policy: undefined };
    await t.dispose();
    return { info, c: Array.from(c), isolated: crossOriginIsolated };
  });
  assert.equal(r.syncThrow, undefined);
  assert.equal(r.isolated, false);
  assert.equal(r.info.build, 'single');
  assert.equal(r.info.zeroCopy, false);
  assert.ok(r.info.fallbacks.some((f) => /cross-origin isolated|SharedArrayBuffer/.test(f)), r.info.fallbacks.join('; '));
  assert.deepEqual(r.c, [1, 2, 3, 4]);
  assert.deepEqual(errors, []);
  await page.close();
});

test('COEP credentialless isolates the page too', async () => {
  const { page } = await open('credentialless');
  const r = await page.evaluate(async () => {
    const t = await window.tessera.load({ threads: 2 });
    const info = { build: t.info.build, mode: t.info.mode };
    await t.dispose();
    return { info, isolated: crossOriginIsolated };
  });
  assert.equal(r.isolated, true);
  assert.deepEqual(r.info, { build: 'threads', mode: 'worker' });
  await page.close();
});

test('a module Worker uses the synchronous API inline', async () => {
  const { page } = await open('isolated');
  const r = await page.evaluate(() => new Promise((resolve) => {
    const w = new Worker('./sync-worker.mjs', { type: 'module' });
    w.onmessage = ({ data }) => { w.terminate(); resolve(data); };
    w.onerror = (e) => resolve({ ok: false, message: e.message });
    w.postMessage({ threads: 2 });
  }));
  assert.equal(r.ok, true, r.message);
  assert.equal(r.mode, 'inline');
  assert.equal(r.build, 'threads');
  assert.equal(r.c0, 16);
  assert.equal(r.sum, 16 * 64);
  await page.close();
});

test('a strict Content-Security-Policy without blob: works', async () => {
  const { page, errors } = await open('csp');
  const r = await page.evaluate(async () => {
    const t = await window.tessera.load({ threads: 2 });
    const c = await t.gemm({ m: 1, n: 1, k: 3, a: Float32Array.of(1, 2, 3), b: Float32Array.of(4, 5, 6) });
    const build = t.info.build;
    await t.dispose();
    return { c: c[0], build };
  });
  assert.deepEqual(r, { c: 32, build: 'threads' });
  assert.deepEqual(errors, []);
  await page.close();
});

test('a 404 or an HTML page for the .wasm rejects with a readable error', async () => {
  for (const [profile, code, pattern] of [['missing', 'wasm-fetch', /404/], ['wrongmime', 'not-wasm', /HTML page/]]) {
    const { page } = await open(profile);
    const r = await page.evaluate(async () => {
      try {
        await window.tessera.load({ threads: 2, initTimeoutMs: 20000 });
        return { ok: true };
      } catch (e) {
        return { name: e.name, code: e.code, message: e.message };
      }
    });
    assert.equal(r.name, 'TesseraError', JSON.stringify(r));
    assert.equal(r.code, code, r.message);
    assert.match(r.message, pattern);
    await page.close();
  }
});

test('the browser example shows info and a GEMM rate, isolated and not (screenshots)', async () => {
  mkdirSync(screenshots, { recursive: true });
  for (const profile of ['isolated', 'plain']) {
    const page = await context.newPage();
    page.setDefaultTimeout(60000);
    await page.goto(`${origin}/${profile}/example/index.html`);
    await page.waitForFunction(() => document.body.dataset.state === 'done' || document.body.dataset.state === 'error', undefined, { polling: 100 });
    const state = await page.evaluate(() => ({ state: document.body.dataset.state, text: document.body.innerText }));
    assert.equal(state.state, 'done', state.text);
    assert.match(state.text, /GFLOP\/s/);
    assert.match(state.text, profile === 'isolated' ? /threads/ : /single/);
    await page.screenshot({ path: path.join(screenshots, `browser-example-${profile}.png`), fullPage: true });
    await page.close();
  }
});
