// load() options: validated before anything is loaded, every bad key or value
// an error naming it (never ignored, never clamped).
import { invalid } from './errors.js';
import { wasmThreads } from './generated.js';
import { threadingSupport } from './threading-support.js';

const defaults = {
  threads: 'auto',
  mode: 'auto',
  isa: undefined,
  initTimeoutMs: 30000,
  wasmUrl: undefined,
  workerUrl: undefined,
  packageUrl: undefined,
  wasmBinary: undefined,
  counters: false,
  maxThreadsPerKernel: 0,
  oversubscribe: false,
  pool: 'auto',
  selftest: true,
  profile: undefined,
  profilePortable: false,
};

const isUrlLike = (v) => typeof v === 'string' || (typeof URL === 'function' && v instanceof URL);

export function validateOptions(options) {
  if (options === undefined) options = {};
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw invalid('load(options): options must be an object');
  }
  for (const key of Object.keys(options)) {
    if (!(key in defaults)) {
      throw invalid(`load(options): unknown option "${key}" (known: ${Object.keys(defaults).join(', ')})`);
    }
  }
  const o = { ...defaults, ...options };
  const { min, max } = wasmThreads;
  if (o.threads !== 'auto' && !(Number.isInteger(o.threads) && o.threads >= min && o.threads <= max)) {
    throw invalid(`load(options): threads must be 'auto' or an integer in [${min}, ${max}] (got ${String(o.threads)})`);
  }
  if (!['auto', 'inline', 'worker'].includes(o.mode)) {
    throw invalid(`load(options): mode must be 'auto', 'inline' or 'worker' (got ${String(o.mode)})`);
  }
  if (o.isa !== undefined && !['simd128', 'scalar'].includes(o.isa)) {
    throw invalid(`load(options): isa must be 'simd128' or 'scalar' (got ${String(o.isa)})`);
  }
  if (!(typeof o.initTimeoutMs === 'number' && o.initTimeoutMs > 0 && o.initTimeoutMs <= 600000)) {
    throw invalid(`load(options): initTimeoutMs must be a number of milliseconds in (0, 600000] (got ${String(o.initTimeoutMs)})`);
  }
  if (o.wasmUrl !== undefined && !isUrlLike(o.wasmUrl) &&
      !(typeof o.wasmUrl === 'object' && o.wasmUrl !== null &&
        Object.keys(o.wasmUrl).every((k) => (k === 'threads' || k === 'single') && isUrlLike(o.wasmUrl[k])))) {
    throw invalid("load(options): wasmUrl must be a URL, a string, or { threads?, single? } of them");
  }
  if (o.workerUrl !== undefined && !isUrlLike(o.workerUrl)) {
    throw invalid('load(options): workerUrl must be a URL or a string');
  }
  if (o.packageUrl !== undefined && !isUrlLike(o.packageUrl)) {
    throw invalid('load(options): packageUrl must be a URL or a string');
  }
  if (o.wasmBinary !== undefined && !(o.wasmBinary instanceof ArrayBuffer || ArrayBuffer.isView(o.wasmBinary)) &&
      !(typeof o.wasmBinary === 'object' && o.wasmBinary !== null &&
        Object.keys(o.wasmBinary).every((k) => (k === 'threads' || k === 'single') &&
          (o.wasmBinary[k] instanceof ArrayBuffer || ArrayBuffer.isView(o.wasmBinary[k]))))) {
    throw invalid('load(options): wasmBinary must be an ArrayBuffer, a typed array, or { threads?, single? } of them');
  }
  if (typeof o.counters !== 'boolean') {
    throw invalid(`load(options): counters must be a boolean (got ${String(o.counters)})`);
  }
  if (!['auto', 'shared', 'messages'].includes(o.pool)) {
    throw invalid(`load(options): pool must be 'auto', 'shared' or 'messages' (got ${String(o.pool)})`);
  }
  if (typeof o.selftest !== 'boolean') {
    throw invalid(`load(options): selftest must be a boolean (got ${String(o.selftest)})`);
  }
  // A tuned profile (docs/design.md §Profiles): its JSON text or the parsed
  // object; the module checks its keys (a malformed one rejects load naming
  // the key).
  if (o.profile !== undefined && typeof o.profile !== 'string' &&
      !(typeof o.profile === 'object' && o.profile !== null && !Array.isArray(o.profile))) {
    throw invalid(`load(options): profile must be a profile's JSON text or its parsed object (got ${String(o.profile)})`);
  }
  if (typeof o.profilePortable !== 'boolean') {
    throw invalid(`load(options): profilePortable must be a boolean (got ${String(o.profilePortable)})`);
  }
  if (typeof o.oversubscribe !== 'boolean') {
    throw invalid(`load(options): oversubscribe must be a boolean (got ${String(o.oversubscribe)})`);
  }
  if (!(Number.isInteger(o.maxThreadsPerKernel) && o.maxThreadsPerKernel >= 0 && o.maxThreadsPerKernel <= max)) {
    throw invalid(`load(options): maxThreadsPerKernel must be an integer in [0, ${max}] (got ${String(o.maxThreadsPerKernel)})`);
  }
  return o;
}

// The build and width for these options on this host: { build: 'threads'
// | 'single', threads (the module's), messagePool (participants of a
// message-passing pool, 0 for none), fallbacks: [reasons] }.
// `workersAvailable`: whether this realm can start dedicated workers (a
// Service Worker cannot).
export function chooseBuild(o, logicalCpus, g = globalThis, workersAvailable = true) {
  const fallbacks = [];
  let threads;
  if (o.threads === 'auto') {
    threads = Math.max(1, Math.min(wasmThreads.default, logicalCpus));
    if (threads < wasmThreads.default) {
      fallbacks.push(`threads 'auto': ${threads} (the host reports ${logicalCpus} logical CPU${logicalCpus === 1 ? '' : 's'}; the default ${wasmThreads.default} would oversubscribe)`);
    }
  } else if (o.threads > logicalCpus && !o.oversubscribe) {
    // As the native resolver caps an explicit count at the visible CPUs:
    // more threads than CPUs time-slice one another, and every parallel
    // region then waits for the thread the OS parked last.
    threads = Math.max(1, logicalCpus);
    fallbacks.push(`threads: ${o.threads} capped at ${threads} (the host reports ${logicalCpus} logical CPU${logicalCpus === 1 ? '' : 's'}; oversubscribe: true runs ${o.threads} anyway)`);
  } else {
    threads = o.threads;
  }
  const single = { build: 'single', threads: 1, messagePool: 0, fallbacks };
  if (threads === 1) {
    if (o.threads === 1) fallbacks.push('threads: 1 requested: the single-threaded build');
    return single;
  }
  // Either pool needs workers: the threaded build's pthreads or the
  // message pool's helpers.
  if (!workersAvailable) {
    fallbacks.push('this realm cannot start workers (a Service Worker or worklet): the single-threaded build runs serially');
    return single;
  }
  const support = threadingSupport(g);
  if (support.ok && o.pool !== 'messages') return { build: 'threads', threads, messagePool: 0, fallbacks };
  const why = support.ok ? "pool: 'messages' requested" : support.reason;
  if (o.pool === 'shared') {
    fallbacks.push(`${why}: the single-threaded build runs serially (pool: 'shared' rules out the message-passing pool)`);
    return single;
  }
  fallbacks.push(`${why}: the single-threaded build, with ${threads - 1} more worker${threads === 2 ? '' : 's'} of its own for GEMM (a message-passing pool: operands copied to them per call)`);
  return { build: 'single', threads: 1, messagePool: threads, fallbacks };
}
