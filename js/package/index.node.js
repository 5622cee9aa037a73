// tessera for Node (the "node" export condition): the same API as index.js,
// with Node's file reading and worker_threads.
import * as node from './lib/platform-node.js';
import { setPlatform } from './lib/platform.js';

setPlatform(node);

export { load } from './lib/load.js';
export { TesseraError } from './lib/errors.js';
