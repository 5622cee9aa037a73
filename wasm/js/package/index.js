// tessera for JavaScript: `const t = await load(options)`, then kernels on
// typed arrays or heap tensors. See index.d.ts for the whole API.
export { load } from './lib/load.js';
export { TesseraError } from './lib/errors.js';
