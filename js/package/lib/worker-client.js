// Mode 'worker': the module lives in a dedicated Worker (host.js) and
// this object forwards every call to it. The caller's thread never blocks:
// every method returns a promise. With the threaded build the heap is shared
// memory, so tensors are views on it and cross without copies; without
// cross-origin isolation typed arrays and tensors are copied, and
// info.zeroCopy says so.
import { platform } from './platform.js';

import { TesseraError, invalid } from './errors.js';
import { bindings } from './generated.js';
import { dtypes } from './operands.js';
import { packageFolder } from './package-files.js';
import { copyOf, drainSpares, giveSpare } from './spare-buffers.js';

class WorkerTensor {
  #client;
  constructor(client, id, dtype, length, view) {
    this.#client = client;
    this.id = id;
    this.dtype = dtype;
    this.length = length;
    this.local = view;  // a view on shared memory, or a local copy
  }
  get data() {
    if (this.id === 0) throw new TesseraError('disposed', 'tensor.data: the tensor was disposed');
    if (this.#client.disposed) throw new TesseraError('disposed', 'tensor.data: its tessera instance was disposed');
    return this.local;
  }
  get owner() { return this.#client; }
  dispose() {
    if (this.id !== 0 && !this.#client.disposed) this.#client.request('tensorDispose', [this.id]).catch(() => {});
    this.id = 0;
  }
}

// Where each kind's output array is: an argument position, or a key of the
// options object (dot returns a number).
const outputOf = {
  binary: (args) => args[2],
  unary: (args) => args[1],
  gemm: (args) => args[0]?.c,
  gemv: (args) => args[0]?.y,
  dot: () => undefined,
  rows: (args) => args[1]?.out,
  softmax: (args) => args[1]?.out,
  matmulInteger: (args) => args[0]?.c,
  qlinear: (args) => args[0]?.y,
  quantize: (args) => args[1] ?? undefined,
  narrow: (args) => args[1] ?? undefined,
  widen: (args) => args[1] ?? undefined,
  gemmHalf: (args) => args[0]?.c,
  gemvHalf: (args) => args[0]?.y,
  dotHalf: () => undefined,
};
// Kinds whose result is an object holding the output array: where it is.
const arrayInResult = {
  quantize: { get: (result) => result.y, put: (result, y) => ({ ...result, y }) },
};

class WorkerTessera {
  constructor(worker, info, memory) {
    this.worker = worker;
    this.memory = memory;
    this.info = { ...info, mode: 'worker', zeroCopy: memory !== null };
    if (memory === null) {
      this.info.fallbacks = [...info.fallbacks,
        'worker mode without shared memory: arguments and results are copied between the page and the worker'];
    }
    this.disposed = false;
    this.pending = new Map();
    this.nextId = 1;
    worker.onMessage((message) => {
      // Buffers the worker has finished with (the copies a call sent):
      // the next copies are made into them (spare-buffers.js).
      if (message.spares) for (const buffer of message.spares) giveSpare(buffer);
      const entry = this.pending.get(message.id);
      if (!entry) return;
      this.pending.delete(message.id);
      if (message.ok) entry.resolve(message.result);
      else entry.reject(new TesseraError(message.code, message.message));
    });
    // A worker that dies (an uncaught error, out of memory) answers no
    // more: its calls reject instead of waiting forever, and so do later
    // ones.
    worker.onError((error) => {
      this.disposed = true;
      for (const { reject } of this.pending.values()) {
        reject(new TesseraError('internal', `the tessera worker stopped: ${error?.message ?? String(error)}`));
      }
      this.pending.clear();
    });
    for (const [name, entry] of Object.entries(bindings.kernels)) {
      this[name] = (...args) => this.kernel(name, entry.kind, args);
      this[`${name}Sync`] = () => {
        throw new TesseraError('unsupported',
          `${name}Sync: synchronous calls are not available in worker mode (the calling thread must not block); use await ${name}(...)`);
      };
    }
  }

  // Posts one call; `transfer` lists buffers the worker takes over (the
  // message pool's operand copies).
  request(method, args, transfer = []) {
    if (this.disposed) return Promise.reject(new TesseraError('disposed', `${method}: this tessera instance was disposed`));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      try {
        this.worker.postMessage({ id, method, args }, transfer);
      } catch (error) {
        this.pending.delete(id);
        reject(new TesseraError('invalid-argument', `${method}: an argument cannot be sent to the worker (${error.message})`));
      }
    });
  }

  // A call's argument as it crosses to the worker. A typed array on memory
  // the worker cannot see is copied here and the copy transferred (listed
  // in `transfer`): one copy of its own elements, where postMessage's clone
  // makes two (serialize, deserialize) and, for a view, clones its whole
  // buffer. Measured in Chromium 156, two 4 MB operands to a worker and
  // back: 11.2 ms cloned, 5.1 ms copied and transferred, 4.7 ms the round
  // trip alone. The copy goes into a buffer the worker sent back from an
  // earlier call where one fits (spare-buffers.js).
  encode(x, transfer) {
    if (x instanceof WorkerTensor) {
      if (x.owner !== this) throw invalid('a tensor of another tessera instance');
      if (x.id === 0) throw new TesseraError('disposed', 'a disposed tensor');
      return this.memory !== null ? { __tensor: x.id } : this.encode(x.local, transfer);
    }
    if (ArrayBuffer.isView(x)) {
      if (typeof x.slice !== 'function' || !(x.buffer instanceof ArrayBuffer)) return x;
      const copy = copyOf(x);
      transfer.push(copy.buffer);
      return copy;
    }
    if (x !== null && typeof x === 'object' && !Array.isArray(x)) {
      return Object.fromEntries(Object.entries(x).map(([k, v]) => [k, this.encode(v, transfer)]));
    }
    return x;
  }

  async kernel(name, kind, args) {
    const transfer = [];
    const encoded = args.map((a) => this.encode(a, transfer));
    const output = outputOf[kind]?.(args);
    const result = await this.request(name, encoded, transfer);
    const inResult = arrayInResult[kind];
    const array = inResult ? inResult.get(result) : result;
    const wrap = (out) => (inResult ? inResult.put(result, out) : out);
    // An output the caller passed is written from the worker's copy, whose
    // buffer is then free for the next call's copies.
    if (output instanceof WorkerTensor) {
      if (this.memory === null) {
        output.local.set(array);
        giveSpare(array.buffer);
      }
      return wrap(output);
    }
    if (ArrayBuffer.isView(output)) {
      output.set(array);
      if (array !== output) giveSpare(array.buffer);
      return wrap(output);
    }
    return result;
  }

  async alloc(Type, length) {
    const dtype = Object.keys(dtypes).find((d) => dtypes[d].Array === Type);
    if (!dtype) {
      throw invalid('alloc(Type, length): Type must be Float32Array, Float64Array, Uint8Array, Int8Array or Int32Array');
    }
    const t = await this.request('alloc', [dtype, length]);
    const view = this.memory !== null ? new Type(this.memory, t.ptr, t.length) : new Type(t.length);
    return new WorkerTensor(this, t.id, dtype, t.length, view);
  }

  counters() { return this.request('counters', []); }
  resolvedPolicy() { return this.request('resolvedPolicy', []); }

  // Ends the module's pthread workers, then the hosting worker; resolves to
  // { pthreadWorkersLeft } as the host saw it (0).
  async dispose() {
    if (this.disposed) return { pthreadWorkersLeft: 0 };
    try {
      return await this.request('dispose', []);
    } finally {
      this.disposed = true;
      for (const { reject } of this.pending.values()) {
        reject(new TesseraError('disposed', 'this tessera instance was disposed'));
      }
      this.pending.clear();
      await this.worker.terminate();
      drainSpares();  // this thread's spare buffers are let go
    }
  }
}

// Loads the module in a dedicated worker: mode 'worker''s host (role
// 'host') or a message pool's helper (role 'pool'; options.workerUrl names
// the host's script only).
export async function loadInWorker(o, role = 'host') {
  const url = role === 'host' && o.workerUrl !== undefined ? o.workerUrl
    : o.packageUrl !== undefined ? new URL(`lib/${platform.workerFiles[role]}`, packageFolder(o.packageUrl)) : undefined;
  const worker = platform.startHostWorker(url, role);
  const { workerUrl, ...forwarded } = o;
  const script = url === undefined ? "the package's worker-host script" : String(url);
  // URLs do not cross postMessage, and a relative one would resolve against
  // the worker's script: send absolute URLs, resolved here.
  const absolute = (u) => platform.resolveUrl(u).href;
  if (typeof forwarded.wasmUrl === 'string' || forwarded.wasmUrl instanceof URL) {
    forwarded.wasmUrl = absolute(forwarded.wasmUrl);
  } else if (forwarded.wasmUrl && typeof forwarded.wasmUrl === 'object') {
    forwarded.wasmUrl = Object.fromEntries(Object.entries(forwarded.wasmUrl).map(([k, v]) => [k, absolute(v)]));
  }
  if (forwarded.packageUrl !== undefined) forwarded.packageUrl = packageFolder(forwarded.packageUrl).href;
  let timer;
  try {
    const ready = await new Promise((resolve, reject) => {
      timer = setTimeout(() => reject(new TesseraError('init-timeout',
        `the tessera worker did not become ready within initTimeoutMs = ${o.initTimeoutMs} ms (${script})`)), o.initTimeoutMs);
      worker.onError((error) => reject(new TesseraError('wasm-fetch',
        `the tessera worker (${script}) failed: ${error.message}`, { cause: error })));
      worker.onMessage((message) => {
        if (message.type === 'ready') resolve(message);
        if (message.type === 'error') reject(new TesseraError(message.code, message.message));
      });
      worker.postMessage({ type: 'init', options: { ...forwarded, mode: 'inline' } });
    });
    return new WorkerTessera(worker, ready.info, ready.memory);
  } catch (error) {
    await worker.terminate();
    throw error;
  } finally {
    clearTimeout(timer);
  }
}
