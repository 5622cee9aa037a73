// tessera for JavaScript (browsers, Web Workers, bundlers):
// `const t = await load(options)`, then kernels on typed arrays or heap
// tensors. index.d.ts documents the whole API. Node's entry is
// index.node.js (the "node" export condition); both share everything else.
import * as web from './lib/platform-web.js';
import { setPlatform } from './lib/platform.js';

setPlatform(web);
// The workers this graph may start (lib/platform-web.js says why here).
web.addWorkerStarters({
  host: () => new Worker(new URL('./lib/worker-host-web.js', import.meta.url), { type: 'module', name: 'tessera' }),
  pool: () => new Worker(new URL('./lib/pool-worker-web.js', import.meta.url), { type: 'module', name: 'tessera-pool' }),
});

export { load } from './lib/load.js';
export { TesseraError } from './lib/errors.js';
