// A diagnostic, not a test: how long Chromium keeps listing a terminated
// worker (Chrome DevTools Protocol, Target.getTargets), for
//   tessera   a worker-hosted instance (threads: 2) after dispose()
//   nesting   a tessera-free worker that had two nested workers, terminated
//             after it terminated them
//   leaf      a tessera-free worker without nested workers
// Run from the consumer folder ./dev test makes (build/js/consumer):
//   node test/browser/worker-teardown.mjs [runs per case, default 6]
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { chromium } from 'playwright-core';

import { startServer } from './server.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const consumer = path.resolve(here, '..', '..');
const runs = Number(process.argv[2] ?? 6);
const limitMs = 10000;
const { server, origin } = await startServer({
  pkg: path.join(consumer, 'node_modules', 'tessera-wasm'),
  pages: path.join(here, 'pages'),
  support: path.join(consumer, 'test'),
});
const profile = mkdtempSync(path.join(os.tmpdir(), 'tessera-teardown-'));
const browser = await chromium.launchPersistentContext(profile, {
  executablePath: process.env.TESSERA_CHROMIUM ?? '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu'],
});

const cases = {
  tessera: {
    script: 'worker-host-web.js',
    start: async () => { window.t = await window.tessera.load({ threads: 2 }); await window.t.relu(Float32Array.of(1)); },
    stop: async () => { await window.t.dispose(); },
  },
  nesting: {
    script: 'control-nesting-worker.js',
    start: async () => {
      window.w = new Worker('control-nesting-worker.js', { type: 'module' });
      await new Promise((resolve) => { window.w.onmessage = resolve; window.w.postMessage('start'); });
    },
    stop: async () => {
      await new Promise((resolve) => { window.w.onmessage = resolve; window.w.postMessage('stop'); });
      window.w.terminate();
    },
  },
  leaf: {
    script: 'control-leaf-worker.js',
    start: async () => {
      window.w = new Worker('control-leaf-worker.js', { type: 'module' });
      await new Promise((resolve) => { window.w.onmessage = resolve; window.w.postMessage('hello'); });
    },
    stop: async () => { window.w.terminate(); },
  },
};

for (const [name, c] of Object.entries(cases)) {
  const times = [];
  for (let run = 0; run < runs; ++run) {
    const page = await browser.newPage();
    await page.goto(`${origin}/isolated/pages/index.html`);
    await page.waitForFunction(() => window.harnessReady === true, undefined, { polling: 50 });
    const cdp = await browser.newCDPSession(page);
    const listed = async () => (await cdp.send('Target.getTargets')).targetInfos
      .some((t) => t.type === 'worker' && t.url.endsWith(`/${c.script}`));
    await page.evaluate(c.start);
    if (!(await listed())) throw new Error(`${name}: ${c.script} is not listed while running`);
    const started = Date.now();
    await page.evaluate(c.stop);
    while ((await listed()) && Date.now() - started < limitMs) await new Promise((r) => setTimeout(r, 25));
    times.push(Date.now() - started);
    await cdp.detach();
    await page.close();
  }
  const lingered = times.filter((ms) => ms >= limitMs).length;
  console.log(`${name.padEnd(8)} listed after stop (ms): ${times.join(', ')}; ${lingered} of ${runs} still listed after ${limitMs} ms`);
}
await browser.close();
server.close();
rmSync(profile, { recursive: true, force: true });
