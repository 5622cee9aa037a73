// A module Worker using the synchronous API inline (blocking is allowed in a
// worker): loads tessera, runs gemmSync, posts what it got.
import { load } from '../pkg/index.js';

self.onmessage = async ({ data }) => {
  try {
    const t = await load({ threads: data.threads });
    const m = 8, n = 8, k = 8;
    const a = new Float32Array(m * k).fill(1), b = new Float32Array(k * n).fill(2);
    const c = t.gemmSync({ m, n, k, a, b });
    self.postMessage({ ok: true, mode: t.info.mode, build: t.info.build, c0: c[0], sum: c.reduce((s, v) => s + v, 0) });
    t.dispose();
  } catch (error) {
    self.postMessage({ ok: false, code: error.code, message: error.message });
  }
};
