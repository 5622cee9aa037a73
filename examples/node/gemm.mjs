// tessera from Node: load, print what was loaded and why, run a GEMM and
// check it against a plain loop.
//   ./dev build js && node examples/node/gemm.mjs
import { load } from 'tessera-wasm';

const t = await load({ threads: 'auto' });
console.log('info:', JSON.stringify({ ...t.info, policy: undefined }, null, 2));

const m = 256, n = 192, k = 128;
const a = Float32Array.from({ length: m * k }, (_, i) => ((i * 7) % 13) / 13 - 0.5);
const b = Float32Array.from({ length: k * n }, (_, i) => ((i * 5) % 11) / 11 - 0.5);
const start = performance.now();
const c = await t.gemm({ m, n, k, a, b });  // C = A B, row-major
const ms = performance.now() - start;

let worst = 0;
for (let i = 0; i < m; ++i) {
  for (let j = 0; j < n; ++j) {
    let sum = 0;
    for (let p = 0; p < k; ++p) sum += a[i * k + p] * b[p * n + j];
    worst = Math.max(worst, Math.abs(sum - c[i * n + j]));
  }
}
console.log(`gemm ${m}x${n}x${k}: ${ms.toFixed(2)} ms, ${(2 * m * n * k / ms / 1e6).toFixed(2)} GFLOP/s, ` +
            `largest difference from a double-precision loop ${worst.toExponential(2)}`);
await t.dispose();
