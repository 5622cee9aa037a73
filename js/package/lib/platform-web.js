// What the loader needs from a browser or a Web Worker (installed by
// index.js, worker-host-web.js and pool-worker-web.js; Node's is
// platform-node.js).
import { TesseraError } from './errors.js';
import { fetchBinary } from './fetch-binary.js';

export const hostName = typeof document !== 'undefined' ? 'browser' : 'worker';
// The worker scripts, in lib/: mode 'worker''s host and the message
// pool's helpers.
export const workerFiles = { host: 'worker-host-web.js', pool: 'pool-worker-web.js' };
// A window's main thread: it must never block, so 'auto' hosts the module
// in a dedicated Worker.
export const isWindowMainThread = typeof window !== 'undefined' && typeof document !== 'undefined';

export function logicalCpus() {
  return (typeof navigator === 'object' && navigator.hardwareConcurrency) || 1;
}

// Whether this realm can start dedicated workers (a Service Worker or a
// worklet cannot): the message-passing pool needs them.
export function canStartWorkers() {
  return typeof Worker === 'function';
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

// The package's own worker scripts are started by literal
// `new Worker(new URL('...', import.meta.url), { type: 'module' })`
// expressions, the form Vite and webpack recognise as a worker entry and
// bundle with its imports. They live in the entry files (index.js starts
// the host and the pool's helpers, worker-host-web.js only the helpers),
// so no bundled graph holds a worker that starts itself or a cycle of
// workers (webpack cannot name a chunk from inside itself; Vite refuses
// cycles). Each is a module worker from a same-origin script, never a
// blob: URL, so a strict Content-Security-Policy (worker-src 'self')
// allows it.
const starters = {};
export function addWorkerStarters(more) {
  Object.assign(starters, more);
}

// The dedicated Worker of mode 'worker' (role 'host') or of a message
// pool's helper (role 'pool'), from `url` (options.workerUrl or
// packageUrl) or the package's own script.
export function startHostWorker(url, role) {
  const name = role === 'pool' ? 'tessera-pool' : 'tessera';
  if (url === undefined && !starters[role]) {
    throw new TesseraError('unsupported', `this realm cannot start the package's ${role} worker`);
  }
  const worker = url === undefined ? starters[role]() : new Worker(url, { type: 'module', name });
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

// The port a worker-hosted instance talks through (host.js).
export async function hostPort() {
  return {
    post: (message, transfer) => self.postMessage(message, transfer),
    onMessage: (fn) => self.addEventListener('message', (event) => fn(event.data)),
  };
}
