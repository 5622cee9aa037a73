// The page side of bench/js/browser.bench.mjs: libraries prepared by name,
// then timed in the page (no driver round trip inside a measurement).
import { load } from '../pkg/index.js';
import { matmulModel } from '../support/onnx-models.mjs';

const prepared = new Map();  // id -> async () => void
let nextId = 1;

const operands = (n) => ({
  a: Float32Array.from({ length: n * n }, (_, i) => ((i * 7) % 13) / 13 - 0.5),
  b: Float32Array.from({ length: n * n }, (_, i) => ((i * 5) % 11) / 11 - 0.5),
});

// tessera as a page uses it by default (mode 'auto': a dedicated worker),
// on typed arrays: the pool the page's headers allow.
async function prepareTessera(n, options) {
  const t = await load(options);
  const { a, b } = operands(n);
  return { fn: () => t.gemm({ m: n, n, k: n, a, b }),
           info: { build: t.info.build, threads: t.info.threads, pool: t.info.pool.kind, mode: t.info.mode },
           counters: () => t.counters(), dispose: () => t.dispose() };
}

let ort = null;
async function prepareOrt(n, threads) {
  if (ort === null) {
    ort = await import('../nm/onnxruntime-web/dist/ort.wasm.min.mjs');
    ort.env.wasm.wasmPaths = new URL('../nm/onnxruntime-web/dist/', import.meta.url).href;
    ort.env.wasm.numThreads = threads;
  }
  const session = await ort.InferenceSession.create(matmulModel(n, n, n), { executionProviders: ['wasm'] });
  const { a, b } = operands(n);
  const feeds = { A: new ort.Tensor('float32', a, [n, n]), B: new ort.Tensor('float32', b, [n, n]) };
  return { fn: () => session.run(feeds), info: { threads: ort.env.wasm.numThreads, isolated: crossOriginIsolated },
           dispose: () => session.release() };
}

let tfReady = null;
async function prepareTf(n) {
  const tf = globalThis.tf;
  tfReady ??= (async () => {
    tf.wasm.setWasmPaths(new URL('../nm/@tensorflow/tfjs-backend-wasm/dist/', import.meta.url).href);
    await tf.setBackend('wasm');
  })();
  await tfReady;
  const { a, b } = operands(n);
  const ta = tf.tensor2d(a, [n, n]), tb = tf.tensor2d(b, [n, n]);
  return { fn: () => { const c = tf.matMul(ta, tb); c.dataSync(); c.dispose(); },
           info: { simd: tf.env().getBool('WASM_HAS_SIMD_SUPPORT'), threads: tf.env().getBool('WASM_HAS_MULTITHREAD_SUPPORT') },
           dispose: () => { ta.dispose(); tb.dispose(); } };
}

window.prepare = async (library, n, options) => {
  const p = library === 'tessera' ? await prepareTessera(n, options)
    : library === 'onnxruntime-web' ? await prepareOrt(n, options.threads) : await prepareTf(n);
  await p.fn();  // warm-up
  const id = nextId++;
  prepared.set(id, p);
  return { id, info: p.info };
};

// Milliseconds per call over `reps` calls timed together: a page without
// cross-origin isolation gets performance.now() coarsened to 100 us, so
// single calls of about a millisecond would be quantized.
window.time = async (id, reps) => {
  const { fn } = prepared.get(id);
  const t0 = performance.now();
  for (let i = 0; i < reps; ++i) await fn();
  return (performance.now() - t0) / reps;
};

window.counters = (id) => prepared.get(id).counters?.();
window.release = async (id) => {
  await prepared.get(id).dispose();
  prepared.delete(id);
};
window.benchReady = true;
