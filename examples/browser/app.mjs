// The browser example: load tessera (a Worker hosts it, so this page never
// blocks), show t.info and time a few GEMMs. Served by ./dev serve, which
// puts the package at ../pkg/ and sends COOP/COEP on /isolated/ (threads)
// and nothing on /plain/ (single-threaded, with the reason in t.info).
import { load } from '../pkg/index.js';

const status = document.getElementById('status');
try {
  const t = await load({ threads: 'auto' });
  document.getElementById('info').textContent = JSON.stringify(t.info, null, 2);
  status.textContent = `loaded the ${t.info.build} build (${t.info.threads} thread${t.info.threads === 1 ? '' : 's'}, ` +
                       `${t.info.mode} mode, ${t.info.isa}) in ${t.info.loadMs} ms`;
  const table = document.getElementById('rates');
  for (const n of [64, 256, 512, 1024]) {
    const a = new Float32Array(n * n).fill(1), b = new Float32Array(n * n).fill(0.5);
    await t.gemm({ m: n, n, k: n, a, b });  // warm-up
    const start = performance.now();
    const c = await t.gemm({ m: n, n, k: n, a, b });
    const ms = performance.now() - start;
    if (c[0] !== n * 0.5) throw new Error(`wrong result: c[0] = ${c[0]}, expected ${n * 0.5}`);
    const row = table.insertRow();
    row.insertCell().textContent = `${n}³`;
    row.insertCell().textContent = ms.toFixed(1);
    row.insertCell().textContent = `${(2 * n ** 3 / ms / 1e6).toFixed(1)} GFLOP/s`;
  }
  await t.dispose();
  document.body.dataset.state = 'done';
} catch (error) {
  status.textContent = `${error.name} (${error.code ?? ''}): ${error.message}`;
  document.body.dataset.state = 'error';
}
