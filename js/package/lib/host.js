// The dedicated Worker behind mode 'worker': it loads the module inline
// (where blocking is allowed) and answers the page's calls. The page only
// posts and awaits, so a long GEMM never stops its timers or rendering.
import { TesseraError } from './errors.js';
import { loadInline } from './inline.js';
import { Tensor } from './instance.js';
import { operandsOwned } from './message-pool.js';
import { dtypes } from './operands.js';
import { validateOptions } from './options.js';
import { platform } from './platform.js';
import { drainSpares, giveSpare } from './spare-buffers.js';

let tessera = null;
const tensors = new Map();  // id (the heap pointer) -> Tensor

const decode = (x) => {
  if (x !== null && typeof x === 'object' && !ArrayBuffer.isView(x) && '__tensor' in x) {
    const t = tensors.get(x.__tensor);
    if (!t) throw new TesseraError('disposed', 'a tensor argument was disposed');
    return t;
  }
  if (x !== null && typeof x === 'object' && !ArrayBuffer.isView(x) && !Array.isArray(x)) {
    return Object.fromEntries(Object.entries(x).map(([k, v]) => [k, decode(v)]));
  }
  return x;
};

// The typed arrays of a call's arguments (top level, or fields of an
// options object) that this worker owns: not the heap, not shared memory.
function arraysIn(args) {
  const found = [];
  for (const x of args) {
    const fields = x !== null && typeof x === 'object' && !ArrayBuffer.isView(x) && !(x instanceof Tensor) ? Object.values(x) : [x];
    for (const v of fields) {
      if (ArrayBuffer.isView(v) && v.buffer instanceof ArrayBuffer && v.buffer !== tessera.module.HEAPU8.buffer) found.push(v);
    }
  }
  return found;
}

const methods = {
  alloc(dtype, length) {
    const t = tessera.alloc(dtypes[dtype].Array, length);
    tensors.set(t.ptr, t);
    return { id: t.ptr, ptr: t.ptr, dtype: t.dtype, length: t.length };
  },
  tensorDispose(id) {
    tensors.get(id)?.dispose();
    tensors.delete(id);
  },
  // A tensor's contents when the page cannot see the heap (no shared memory).
  tensorRead(id) {
    return tensors.get(id).data.slice();
  },
  tensorWrite(id, values) {
    tensors.get(id).data.set(values);
  },
  counters: () => tessera.counters(),
  resolvedPolicy: () => tessera.resolvedPolicy(),
};

// Answers the page's messages; started by worker-host-web.js or
// worker-host-node.js once the platform glue is installed.
export async function runHost() {
  const port = await platform.hostPort();
  port.onMessage((message) => handle(port, message));
}

async function handle(port, message) {
  if (message.type === 'init') {
    try {
      tessera = await loadInline(validateOptions(message.options), 'worker');
      const buffer = tessera.module.HEAPU8.buffer;
      const shared = typeof SharedArrayBuffer === 'function' && buffer instanceof SharedArrayBuffer;
      port.post({ type: 'ready', info: tessera.info, memory: shared ? buffer : null });
    } catch (error) {
      port.post({ type: 'error', code: error instanceof TesseraError ? error.code : 'internal', message: error.message });
    }
    return;
  }
  const { id, method, args } = message;
  try {
    if (method === 'dispose') {
      tessera?.dispose();
      // What is left of the module's pthread workers (none, unless
      // terminateAllThreads missed one): the page's tests check it.
      const pthreads = tessera?.module.PThread;
      const left = pthreads ? pthreads.unusedWorkers.length + pthreads.runningWorkers.length : 0;
      port.post({ id, ok: true, result: { pthreadWorkersLeft: left } });
      return;
    }
    let result;
    let decoded = args;
    if (method in methods) {
      result = methods[method](...args);
    } else {
      if (typeof tessera[`${method}Sync`] !== 'function') throw new TesseraError('invalid-argument', `unknown method ${method}`);
      // The asynchronous form: with a message pool (a host without shared
      // memory) a GEMM waits for its helpers' blocks.
      // The arrays of a message are this worker's own copies: a message
      // pool may hand them to a helper without another copy.
      decoded = args.map(decode);
      if (decoded.length === 1 && decoded[0] !== null && typeof decoded[0] === 'object' && !ArrayBuffer.isView(decoded[0])) {
        decoded[0][operandsOwned] = true;
      }
      result = await tessera[method](...decoded);
      if (result instanceof Tensor) result = { __tensor: result.ptr };
      // A result object holding a tensor (dynamicQuantizeLinear's y).
      if (result?.y instanceof Tensor) result = { ...result, y: { __tensor: result.y.ptr } };
    }
    // A result array of its own (not a view on the heap, never shared
    // memory) moves back without a copy.
    const own = ArrayBuffer.isView(result) && result.buffer instanceof ArrayBuffer &&
                result.buffer !== tessera.module.HEAPU8.buffer;
    // The call's copies it has finished with go back with the reply, for
    // the page's next copies (spare-buffers.js), with any its helpers sent
    // back; never the result's.
    const kept = new Set(arraysIn([result]).map((x) => x.buffer));
    for (const x of arraysIn(decoded)) if (!kept.has(x.buffer)) giveSpare(x.buffer);
    const spares = drainSpares().filter((b) => !kept.has(b));
    port.post({ id, ok: true, result, spares }, own ? [result.buffer, ...spares] : spares);
  } catch (error) {
    port.post({ id, ok: false, code: error instanceof TesseraError ? error.code : 'internal', message: error.message });
  }
}
