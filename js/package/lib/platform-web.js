// What the loader needs from a browser or a Web Worker (installed by
// index.js and worker-host-web.js; Node's is platform-node.js).
import { TesseraError } from './errors.js';
import { fetchBinary } from './fetch-binary.js';

export const hostName = typeof document !== 'undefined' ? 'browser' : 'worker';
// The script of mode 'worker', in lib/.
export const hostWorkerFile = 'worker-host-web.js';
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

// The Emscripten settings of a build. The pthread workers get the module's
// URL and their script's from here: the module's defaults look beside
// itself, under names a bundler may have changed.
export function moduleSettings(moduleUrl, pthreadWorkerUrl) {
  if (pthreadWorkerUrl === null) return {};
  const href = pthreadWorkerUrl.href;
  return {
    mainScriptUrlOrBlob: moduleUrl,
    locateFile: (file, prefix) => (file === 'tessera.worker.js' ? href : prefix + file),
  };
}

// The dedicated Worker of mode 'worker', from `url` (options.workerUrl or
// packageUrl) or the package's own script. The default is one literal
// `new Worker(new URL(...), { type: 'module' })`, the form Vite and webpack
// recognise as a worker entry and bundle with its imports. A module worker
// from a same-origin script, never a blob: URL, so a strict
// Content-Security-Policy (worker-src 'self') allows it.
export function startHostWorker(url) {
  const worker = url === undefined
    ? new Worker(new URL('./worker-host-web.js', import.meta.url), { type: 'module', name: 'tessera' })
    : new Worker(url, { type: 'module', name: 'tessera' });
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
