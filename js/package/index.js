// tessera for JavaScript (browsers, Web Workers, bundlers):
// `const t = await load(options)`, then kernels on typed arrays or heap
// tensors. index.d.ts documents the whole API. Node's entry is
// index.node.js (the "node" export condition); both share everything else.
import * as web from './lib/platform-web.js';
import { setPlatform } from './lib/platform.js';

setPlatform(web);

export { load } from './lib/load.js';
export { TesseraError } from './lib/errors.js';
