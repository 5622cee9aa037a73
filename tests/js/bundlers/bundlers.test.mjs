// The installed package bundled into a tiny application (app/) by Vite,
// webpack and esbuild, each with its defaults (the versions pinned in the
// repository's package-lock.json), served with and without cross-origin
// isolation and with Document-Isolation-Policy, and run in Chromium: exact
// GEMM results, the build and thread count each header profile should get,
// and no request for a file the bundle does not contain. What a user adds
// is what the package README says: nothing for Vite and webpack; for
// esbuild, which leaves `new URL('...', import.meta.url)` alone, a copy of
// the package's lib/ and dist/ beside the bundle and `packageUrl`.
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { launchChromium } from '../browser/chromium.mjs';
import { startSiteServer } from '../browser/server.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const consumer = path.resolve(here, '..', '..');  // test/bundlers/ inside the consumer folder
const packageDir = path.join(consumer, 'node_modules', 'tessera-wasm');
const app = path.join(here, 'app');

// Each bundler's build of app/ into `out`, as its documentation's minimal
// setup runs it; returns the warnings it printed.
const bundlers = {
  async vite(out) {
    const { build } = await import('vite');
    const warnings = [];
    await build({
      root: app, configFile: false, logLevel: 'silent',
      customLogger: { info() {}, warn: (m) => warnings.push(m), warnOnce: (m) => warnings.push(m), error: (m) => warnings.push(m),
                      clearScreen() {}, hasErrorLogged: () => false, hasWarned: false },
      build: { outDir: out, emptyOutDir: true },
    });
    return warnings;
  },
  async webpack(out) {
    const { default: webpack } = await import('webpack');
    const stats = await new Promise((resolve, reject) => {
      webpack({ mode: 'production', context: app, entry: './main.js', output: { path: out } },
              (error, s) => (error ? reject(error) : resolve(s)));
    });
    const info = stats.toJson({ all: false, errors: true, warnings: true });
    if (stats.hasErrors()) throw new Error(info.errors.map((e) => e.message).join('\n'));
    // webpack writes no HTML page of its own: the page loads its main.js.
    writeFileSync(path.join(out, 'index.html'),
      '<!DOCTYPE html><html><head><meta charset="utf-8"></head><body><script src="./main.js"></script></body></html>\n');
    return info.warnings.map((w) => w.message);
  },
  async esbuild(out) {
    const esbuild = await import('esbuild');
    // The application's one line for esbuild (package README).
    const src = mkdtempSync(path.join(here, 'esbuild-app-'));
    try {
      cpSync(app, src, { recursive: true });
      writeFileSync(path.join(src, 'options.js'),
        "export const tesseraOptions = { packageUrl: new URL('./tessera-wasm/', import.meta.url) };\n");
      const result = await esbuild.build({
        entryPoints: [path.join(src, 'main.js')], bundle: true, format: 'esm', platform: 'browser',
        outdir: out, logLevel: 'silent',
      });
      cpSync(path.join(src, 'index.html'), path.join(out, 'index.html'));
      for (const folder of ['lib', 'dist']) {
        cpSync(path.join(packageDir, folder), path.join(out, 'tessera-wasm', folder), { recursive: true });
      }
      return result.warnings.map((w) => w.text);
    } finally {
      rmSync(src, { recursive: true, force: true });
    }
  },
};

let chromium, outRoot;
const built = {};

before(async () => {
  outRoot = mkdtempSync(path.join(os.tmpdir(), 'tessera-bundlers-'));
  chromium = await launchChromium();
});

after(async () => {
  await chromium?.close();
  rmSync(outRoot, { recursive: true, force: true });
});

// What the page got under `profile`, and every request that failed.
async function runPage(dir, profile) {
  const { server, origin, missing } = await startSiteServer(dir, profile);
  const page = await chromium.context.newPage();
  page.setDefaultTimeout(60000);
  const failed = [];
  const errors = [];
  page.on('response', (r) => { if (r.status() >= 400 && !r.url().endsWith('/favicon.ico')) failed.push(`${r.status()} ${r.url()}`); });
  page.on('requestfailed', (r) => failed.push(`${r.failure()?.errorText} ${r.url()}`));
  page.on('pageerror', (e) => errors.push(String(e)));
  try {
    await page.goto(`${origin}/index.html`);
    await page.waitForFunction(() => window.tesseraResult !== undefined, undefined, { polling: 50 });
    const result = await page.evaluate(() => window.tesseraResult);
    // The browser's own request for an icon is not the bundle's.
    failed.push(...missing.filter((p) => p !== '/favicon.ico').map((p) => `missing on the server: ${p}`));
    return { result, failed, errors };
  } finally {
    await page.close();
    server.closeAllConnections?.();
    await new Promise((resolve) => server.close(resolve));
  }
}

for (const name of Object.keys(bundlers)) {
  test(`${name} bundles the package with its defaults`, async () => {
    const out = path.join(outRoot, name);
    mkdirSync(out, { recursive: true });
    const warnings = await bundlers[name](out);
    // A warning about the package's own files is a defect of the package.
    const ours = warnings.filter((w) => /tessera/i.test(String(w)));
    assert.deepEqual(ours, [], `${name} warned about the package:\n${ours.join('\n')}`);
    built[name] = out;
  });

  for (const profile of ['isolated', 'plain', 'dip']) {
    test(`the ${name} build runs in Chromium (${profile})`, async (t) => {
      if (!built[name]) return t.skip(`the ${name} build failed`);
      const { result, failed, errors } = await runPage(built[name], profile);
      assert.equal(result.error, undefined, result.error);
      assert.deepEqual(failed, [], 'requests for files the bundle does not contain');
      assert.deepEqual(errors, []);
      // Isolated: the threaded build. Plain: the single-threaded build
      // with a message-passing pool, whose helpers the bundle must also
      // carry (workers started from a worker in mode 'worker').
      const threads = Math.min(2, result.cpus);
      assert.equal(result.isolated, profile !== 'plain');
      for (const mode of ['worker', 'inline']) {
        assert.deepEqual(result.runs.find((r) => r.mode === mode), {
          mode, build: profile === 'plain' || threads === 1 ? 'single' : 'threads', threads,
          pool: threads === 1 ? 'none' : profile === 'plain' ? 'message-passing' : 'shared-memory', mismatches: 0,
        });
      }
    });
  }
}
