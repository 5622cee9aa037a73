// What the loader needs from a browser or a Web Worker (package.json
// "imports" #platform, default condition).
import { TesseraError } from './errors.js';
import { fetchBinary } from './fetch-binary.js';

export const hostName = typeof document !== 'undefined' ? 'browser' : 'worker';
// A window's main thread: it must never block, so 'auto' hosts the module
// in a dedicated Worker.
export const isWindowMainThread = typeof window !== 'undefined' && typeof document !== 'undefined';

export function logicalCpus() {
  return (typeof navigator === 'object' && navigator.hardwareConcurrency) || 1;
}

// A URL, resolved against the page (or worker) like a fetch() would.
export function resolveUrl(url) {
  try {
    return new URL(url, typeof location === 'object' ? location.href : undefined);
  } catch (error) {
    throw new TesseraError('wasm-fetch', `wasmUrl ${String(url)} is not a URL: ${error.message}`);
  }
}

export function readBinary(url) {
  return fetchBinary(resolveUrl(url));
}

// The worker script of mode 'worker' (a literal URL, so bundlers ship it).
export function workerHostUrl() {
  return new URL('./worker-host-web.js', import.meta.url);
}

export function startWorker(url) {
  // A module worker from a same-origin script URL: no blob: URL, so a strict
  // Content-Security-Policy (worker-src 'self') allows it.
  const worker = new Worker(url, { type: 'module', name: 'tessera' });
  return {
    postMessage: (message, transfer) => worker.postMessage(message, transfer),
    onMessage: (fn) => worker.addEventListener('message', (event) => fn(event.data)),
    onError: (fn) => worker.addEventListener('error', (event) => {
      event.preventDefault();
      fn(new Error(event.message || 'the tessera worker failed to start'));
    }),
    terminate: () => worker.terminate(),
  };
}

// The port a worker-hosted instance talks through (worker-host.js).
export async function hostPort() {
  return {
    post: (message, transfer) => self.postMessage(message, transfer),
    onMessage: (fn) => self.addEventListener('message', (event) => fn(event.data)),
  };
}
