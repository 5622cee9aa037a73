// What the loader needs from Node (installed by index.node.js and
// worker-host-node.js). The web version is platform-web.js.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';

import { TesseraError } from './errors.js';

export const hostName = 'node';
// The worker scripts, in lib/: one host serves mode 'worker' and the
// message pool's helpers (no bundler renames anything under Node).
export const workerFiles = { host: 'worker-host-node.js', pool: 'worker-host-node.js' };
// Node's main thread may block (Atomics.wait works there).
export const isWindowMainThread = false;

export function logicalCpus() {
  return typeof os.availableParallelism === 'function' ? os.availableParallelism()
                                                       : os.cpus().length;
}

// worker_threads is always there.
export function canStartWorkers() {
  return true;
}


// A URL from a URL, an absolute URL string, or a file path (relative to the
// working directory).
export function resolveUrl(url) {
  if (url instanceof URL) return url;
  try {
    return new URL(url);
  } catch {
    return pathToFileURL(String(url));
  }
}

// The bytes behind a file: URL or path (or fetch() for http(s), Node 18+).
export async function readBinary(url) {
  const u = resolveUrl(url);
  if (u.protocol === 'file:') {
    try {
      return new Uint8Array(await readFile(u));
    } catch (error) {
      throw new TesseraError('wasm-fetch', `cannot read ${u.href}: ${error.message}`, { cause: error });
    }
  }
  const { fetchBinary } = await import('./fetch-binary.js');
  return fetchBinary(u);
}

// The Emscripten settings of a build: the require() its runtime calls
// under Node (js/module-pre.js). Nothing about files: the package's layout
// is intact under Node, and worker_threads takes the pthread script as the
// URL object the module makes itself (a file: URL string would be read as
// a path).
export function moduleSettings() {
  return { nodeRequire: createRequire(import.meta.url) };
}

// The worker_threads Worker of mode 'worker' or of a message pool's
// helper, speaking the browser's message interface, from `url` or the
// package's own script.
export function startHostWorker(url) {
  // A worker inherits the parent's execArgv; --input-type (a script given
  // with -e) is not valid for a worker's file and would stop it.
  const execArgv = process.execArgv.filter((a) => !a.startsWith('--input-type'));
  const script = url === undefined ? new URL(`./${workerFiles.host}`, import.meta.url) : resolveUrl(url);
  const worker = new Worker(script, { execArgv });
  return {
    postMessage: (message, transfer) => worker.postMessage(message, transfer),
    onMessage: (fn) => worker.on('message', (data) => fn(data)),
    // An exit is an error too: a worker_threads worker that is gone (killed,
    // or out of memory) answers nothing more.
    onError: (fn) => {
      worker.on('error', fn);
      worker.on('exit', (code) => fn(new Error(`the worker exited (code ${code})`)));
    },
    terminate: () => worker.terminate(),
  };
}

// The port a worker-hosted instance talks through (host.js).
export async function hostPort() {
  const { parentPort } = await import('node:worker_threads');
  return {
    post: (message, transfer) => parentPort.postMessage(message, transfer),
    onMessage: (fn) => parentPort.on('message', fn),
  };
}
