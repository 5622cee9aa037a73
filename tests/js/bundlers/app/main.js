// A tiny application importing the package the way a user does: GEMMs of
// small integers (exact in f32 in any summation order) in mode 'worker'
// (the page's default) and 'inline', checked against a plain loop. The
// outcome is left on window.tesseraResult for the test to read.
import { load } from 'tessera-wasm';

import { tesseraOptions } from './options.js';

// The last is large enough for the message-passing pool to split it.
const shapes = [[37, 29, 23], [131, 127, 129], [1031, 389, 515]];

function operands(m, n, k) {
  const a = Float32Array.from({ length: m * k }, (_, i) => ((i * 7) % 11) - 5);
  const b = Float32Array.from({ length: k * n }, (_, i) => ((i * 5) % 13) - 6);
  return { a, b };
}

function mismatches(m, n, k, a, b, c) {
  let count = 0;
  for (let i = 0; i < m; ++i) {
    for (let j = 0; j < n; ++j) {
      let sum = 0;
      for (let p = 0; p < k; ++p) sum += a[i * k + p] * b[p * n + j];
      if (c[i * n + j] !== sum) ++count;
    }
  }
  return count;
}

async function run(mode) {
  const t = await load({ ...tesseraOptions, threads: 2, mode });
  try {
    let wrong = 0;
    for (const [m, n, k] of shapes) {
      const { a, b } = operands(m, n, k);
      wrong += mismatches(m, n, k, a, b, await t.gemm({ m, n, k, a, b }));
    }
    return { mode: t.info.mode, build: t.info.build, threads: t.info.threads, pool: t.info.pool.kind, mismatches: wrong };
  } finally {
    await t.dispose();
  }
}

window.tesseraResult = (async () => {
  const runs = [];
  for (const mode of ['worker', 'inline']) runs.push(await run(mode));
  return { runs, isolated: globalThis.crossOriginIsolated === true, cpus: navigator.hardwareConcurrency };
})().catch((error) => ({ error: `${error.code ?? error.name}: ${error.message}` }));
