// A module Service Worker using the package: it cannot start workers, so
// load() must run the single-threaded build inline and say why. Answers
// each message on the port it carries.
import { load } from '../pkg/index.js';

self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('message', async (event) => {
  const port = event.ports[0];
  try {
    const t = await load({ threads: event.data.threads });
    const c = t.gemmSync({ m: 2, n: 2, k: 2, a: Float32Array.of(1, 2, 3, 4), b: Float32Array.of(1, 0, 0, 1) });
    const { build, mode, threads, pool, fallbacks } = t.info;
    t.dispose();
    port.postMessage({ ok: true, info: { build, mode, threads, pool, fallbacks }, c: Array.from(c) });
  } catch (error) {
    port.postMessage({ ok: false, message: `${error.code ?? error.name}: ${error.message}` });
  }
});
