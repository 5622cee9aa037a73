#!/usr/bin/env node
// ./dev bench js (browser part): sgemm in Chromium (Debian's, headless,
// through playwright-core) on a page without cross-origin isolation, where
// tessera runs its message-passing pool, next to an isolated page, where
// it runs the threaded build, at the same thread counts; and next to
// onnxruntime-web and tfjs-backend-wasm on the non-isolated page (one
// thread there: neither has a pool without shared memory).
//
//   node bench/js/browser.bench.mjs [--sizes 256,1024,2048] [--threads 1,2,4] [--rounds 5]
//
// Every library is called as a page calls it: tessera with load(options)
// (mode 'auto': a dedicated worker; and, as the peers run, inline on the
// page's thread) on typed arrays, onnxruntime-web with
// a one-node MatMul session and its tensors, tfjs with resident tensors
// and dataSync(). Per size, rounds rotate over the configurations (a
// 100 ms pause before each); a figure is the median over rounds of each
// round's mean of `reps` calls timed together in the page (the page's
// clock is coarsened to 100 us without isolation), with the min..max. threads above
// the host's logical CPUs are capped as load() caps them (the table says
// what ran).
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { launchChromium } from '../../tests/js/browser/chromium.mjs';
import { startServer } from '../../tests/js/browser/server.mjs';
import { arg, summary } from './bench-support.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..', '..');
const sizes = arg('--sizes', '256,1024,2048').split(',').map(Number);
const threadCounts = arg('--threads', '1,2,4').split(',').map(Number);
const rounds = Number(arg('--rounds', '5'));
// About 0.4 GFLOP a round per library (at least 3 calls): 256^3 12 calls.
const repsFor = (n) => Math.max(3, Math.round(4e8 / (2 * n ** 3)));

const { server, origin } = await startServer({
  pkg: path.join(root, 'build/js/package'), bench: path.join(here, 'browser'),
  nm: path.join(root, 'node_modules'), support: path.join(root, 'tests/js/package'),
});
const chromium = await launchChromium();
const pages = {};
for (const profile of ['plain', 'isolated']) {
  const page = await chromium.context.newPage();
  page.setDefaultTimeout(600000);
  page.on('pageerror', (e) => console.error(`${profile} page: ${e}`));
  await page.goto(`${origin}/${profile}/bench/index.html`);
  await page.waitForFunction(() => window.benchReady === true);
  pages[profile] = page;
}
const cpus = await pages.plain.evaluate(() => navigator.hardwareConcurrency);

const rows = [];
for (const n of sizes) {
  const configs = [];
  for (const profile of ['plain', 'isolated']) {
    for (const threads of threadCounts) configs.push({ profile, library: 'tessera', options: { threads }, label: `tessera threads: ${threads}` });
  }
  // As the peers run: inline on the page's thread (which a page blocks).
  configs.push({ profile: 'plain', library: 'tessera', options: { threads: 1, mode: 'inline' }, label: 'tessera inline, threads: 1' });
  for (const library of ['onnxruntime-web', 'tfjs-backend-wasm']) configs.push({ profile: 'plain', library, options: { threads: 1 }, label: library });
  for (const c of configs) {
    ({ id: c.id, info: c.info } = await pages[c.profile].evaluate(([lib, size, options]) => window.prepare(lib, size, options),
                                                                  [c.library, n, c.options]));
    c.medians = [];
  }
  const reps = repsFor(n);
  for (let round = 0; round < rounds; ++round) {
    for (let j = 0; j < configs.length; ++j) {
      const c = configs[(round + j) % configs.length];
      await new Promise((resolve) => setTimeout(resolve, 100));
      const ms = await pages[c.profile].evaluate(([id, r]) => window.time(id, r), [c.id, reps]);
      c.medians.push((2 * n ** 3) / ms / 1e6);
    }
  }
  for (const c of configs) {
    const counters = c.library === 'tessera' ? await pages[c.profile].evaluate((id) => window.counters(id), c.id) : null;
    await pages[c.profile].evaluate((id) => window.release(id), c.id);
    rows.push({ n, ...c, figure: summary(c.medians), split: counters?.messagePoolSplitCalls ?? null });
  }
}
await chromium.close();
server.close();

const version = chromium.context.browser()?.version() ?? 'Chromium';
console.log(`sgemm n x n x n in ${version} (headless), ${cpus} logical CPUs; GFLOP/s, median of ${rounds} rounds (min..max)`);
console.log('| n | page | library | ran as | GFLOP/s | vs this page\'s 1 thread |');
console.log('|---|---|---|---|---|---|');
for (const r of rows) {
  const base = rows.find((x) => x.n === r.n && x.profile === r.profile && x.library === 'tessera' && x.options.threads === 1 && !x.options.mode);
  const ran = r.library === 'tessera' ? `${r.info.mode}, ${r.info.build}, ${r.info.pool}, ${r.info.threads} thread${r.info.threads > 1 ? 's' : ''}${r.split !== null && r.info.pool === 'message-passing' ? ` (${r.split} calls split)` : ''}` : JSON.stringify(r.info);
  const f = r.figure;
  console.log(`| ${r.n} | ${r.profile} | ${r.label} | ${ran} | ${f.value.toFixed(1)} (${f.min.toFixed(1)}..${f.max.toFixed(1)}) | ${base ? (f.value / base.figure.value).toFixed(2) : ''} |`);
}
const pick = (n, profile, threads) => rows.find((x) => x.n === n && x.profile === profile && x.library === 'tessera' && x.options.threads === threads && !x.options.mode)?.figure.value;
for (const n of sizes) {
  const plain2 = pick(n, 'plain', 2), plain1 = pick(n, 'plain', 1), iso2 = pick(n, 'isolated', 2);
  if (plain2 && plain1 && iso2) {
    console.log(`n = ${n}: non-isolated 2 workers / 1 worker ${(plain2 / plain1).toFixed(2)}x; non-isolated 2 workers / isolated 2 threads ${(plain2 / iso2).toFixed(2)}x`);
  }
}
