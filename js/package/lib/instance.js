// The inline instance: the module runs on this thread (Node, a Worker, or a
// page that asked for mode 'inline'). Kernels are bound from the table in
// generated.js (js/bindings.json): one marshalling routine per kind of
// kernel, none per kernel.
import { fieldOffset, statusCode, structSize, values } from './abi.js';
import { TesseraError, invalid } from './errors.js';
import { bindings } from './generated.js';
import {
  Tensor, activations, biasKinds, call, checkIncrement, checkKeys, checkNoPartialOverlap, dtypeOfOperand, dtypes,
  elementCount, functionFor, gemmShape, gemvShape, int64, readGemmOptions, span, stridedSpan, threadsOption, transpose,
} from './operands.js';
import { halfKinds } from './half.js';
import { quantizedKinds } from './quantized.js';

export { Tensor };

// Each kind's option keys (checkKeys), built once.
const gemvKeys = new Set(['m', 'n', 'a', 'x', 'y', 'alpha', 'beta', 'trans', 'lda', 'incx', 'incy', 'threads']);
const dotKeys = new Set(['n', 'incx', 'incy', 'threads']);
const rowsKeys = new Set(['rows', 'cols', 'ld', 'out', 'threads']);
const indexRowsKeys = new Set(['rows', 'cols', 'ld', 'threads']);
const softmaxKeys = new Set(['rows', 'cols', 'ld', 'out', 'ldOut', 'threads']);

// The kinds a message pool may split (lib/message-pool.js).
const pooledKinds = new Set(['gemm', 'matmulInteger', 'qlinear']);

export class InlineTessera {
  constructor(module, context, info) {
    this.module = module;
    this.context = context;
    this.info = info;
    this.disposed = false;
    this.messagePool = null;
    this.functions = new Map();  // export name -> the module's function (functionFor)
    this.scratchPtr = 0;
    this.scratchRaw = 0;  // the block scratchPtr lies in, for _free
    this.scratchBytes = 0;
    for (const [name, entry] of Object.entries(bindings.kernels)) {
      const run = kinds[entry.kind];
      if (!run) throw new TesseraError('internal', `bindings: kernel ${name} has unknown kind ${entry.kind}`);
      this[`${name}Sync`] = (...args) => run(this, name, entry, args);
      this[name] = (...args) => {
        try {
          // With a message pool (lib/message-pool.js) the asynchronous GEMM
          // may be split over its workers; the Sync form never is.
          if (this.messagePool && pooledKinds.has(entry.kind) && args.length === 1) {
            return this.messagePool.run(this, name, entry.kind, args[0]);
          }
          return Promise.resolve(run(this, name, entry, args));
        } catch (error) {
          return Promise.reject(error);
        }
      };
    }
  }

  #live(what) {
    if (this.disposed) throw new TesseraError('disposed', `${what}: this tessera instance was disposed`);
  }

  // Throws a TesseraError for a non-zero tsr_status, with the C message.
  check(status, what) {
    if (status === 0) return;
    const code = statusCode(status);
    const message = this.module.UTF8ToString(this.module._tsr_last_error_message());
    throw new TesseraError(code, `${what}: ${message}`);
  }

  malloc(bytes, what) {
    const ptr = this.module._malloc(Math.max(1, bytes));
    if (ptr === 0) {
      throw new TesseraError('out-of-memory', `${what}: cannot allocate ${bytes} bytes in the wasm heap`);
    }
    return ptr;
  }

  // `bytes` at a 64-byte boundary (a cache line), as [pointer, the block
  // _free takes]. The module's malloc aligns to 8 bytes only, and operands
  // 8 bytes past a line cost the kernels loads split across lines: in
  // Chromium 156 an sgemm 2048 on such a scratch block ran 480 ms, on an
  // aligned one 378 (AMD EPYC, Zen 4).
  mallocAligned(bytes, what) {
    const raw = this.malloc(bytes + 63, what);
    return [Math.ceil(raw / 64) * 64, raw];
  }

  // The scratch block for typed-array operands: at least `bytes`, grown (and
  // kept) as calls need it; given back above 64 MiB so one large call does
  // not hold the heap forever.
  scratch(bytes, what) {
    if (bytes > this.scratchBytes) {
      this.releaseScratch();
      [this.scratchPtr, this.scratchRaw] = this.mallocAligned(bytes, what);
      this.scratchBytes = bytes;
    }
    return this.scratchPtr;
  }

  releaseScratch() {
    if (this.scratchRaw) this.module._free(this.scratchRaw);
    this.scratchPtr = 0;
    this.scratchRaw = 0;
    this.scratchBytes = 0;
  }

  releaseLargeScratch() {
    if (this.scratchBytes > (64 << 20)) this.releaseScratch();
  }

  alloc(Type, length) {
    this.#live('alloc');
    const dtype = Object.keys(dtypes).find((d) => dtypes[d].Array === Type);
    if (!dtype) {
      throw invalid('alloc(Type, length): Type must be Float32Array, Float64Array, Uint8Array, Int8Array or Int32Array');
    }
    if (!(Number.isInteger(length) && length >= 0 && length <= 2 ** 31 / dtypes[dtype].bytes)) {
      throw invalid(`alloc(Type, length): length must be an integer in [0, ${2 ** 31 / dtypes[dtype].bytes}] (got ${String(length)})`);
    }
    const [ptr, raw] = this.mallocAligned(length * dtypes[dtype].bytes, 'alloc');
    return new Tensor(this, dtype, ptr, length, raw);
  }

  resolvedPolicy() {
    this.#live('resolvedPolicy');
    const m = this.module;
    const out = this.malloc(4, 'resolvedPolicy');
    try {
      this.check(m._tsr_context_resolved_policy_json(this.context, out), 'resolvedPolicy');
      return JSON.parse(m.UTF8ToString(m.HEAPU32[out >> 2]));
    } finally {
      m._free(out);
    }
  }

  counters() {
    this.#live('counters');
    const m = this.module;
    const out = this.malloc(structSize('tsr_counters'), 'counters');
    try {
      this.check(m._tsr_context_counters(this.context, out), 'counters');
      const view = new DataView(m.HEAPU8.buffer, out, structSize('tsr_counters'));
      const counters = Object.fromEntries(Object.entries(counterFields).map(([name, field]) =>
        [name, Number(view.getBigUint64(fieldOffset('tsr_counters', field, 8), true))]));
      return this.messagePool ? { ...counters, ...this.messagePool.counters() } : counters;
    } finally {
      m._free(out);
    }
  }

  dispose() {
    if (this.disposed) return;
    this.disposed = true;
    this.messagePool?.dispose();
    this.module._tsr_context_destroy(this.context);
    // The pool's threads end first (joined), so the Workers terminated next
    // are idle; the pthread Workers keep a Node process (and a page's
    // threads) alive until terminated.
    this.module._tsr_js_release_threads();
    if (this.module.PThread) this.module.PThread.terminateAllThreads();
  }
}

// gemm's arguments checked, with their defaults filled in and the elements
// each operand spans (needA, needB, needC, needBias); c is allocated when
// not given. Shared by the gemm kind and the message pool, which checks a
// whole call before it splits it.
export function gemmArguments(what, args) {
  if (args === null || typeof args !== 'object') {
    throw invalid(`${what}({ m, n, k, a, b, c, ... }): one options object`);
  }
  const options = readGemmOptions(what, args);
  const shape = gemmShape(what, options);
  const { a, b } = options;
  elementCount(a, what, 'a');
  const dtype = dtypeOfOperand(a);
  if (dtypeOfOperand(b) !== dtype) throw invalid(`${what}: a is ${dtype} but b is ${dtypeOfOperand(b) ?? typeof b}`);
  const { bias, biasKind, needBias, needC, beta } = shape;
  if (bias !== null) {
    if (elementCount(bias, what, 'bias') < needBias) {
      throw invalid(`${what}: bias has ${elementCount(bias, what, 'bias')} elements but a ${biasKind} bias needs ${needBias}`);
    }
    if (dtypeOfOperand(bias) !== dtype) throw invalid(`${what}: bias must be ${dtype} like a`);
  }
  let c = options.c;
  if (c === undefined) {
    if (beta !== 0) throw invalid(`${what}: c is required when beta != 0`);
    c = new dtypes[dtype].Array(needC);
  }
  elementCount(c, what, 'c');
  if (dtypeOfOperand(c) !== dtype) throw invalid(`${what}: c must be ${dtype} like a`);
  checkNoPartialOverlap(what, ['c', c], [['a', a], ['b', b], ['bias', bias]]);
  if (ArrayBuffer.isView(c) && (c === a || c === b || c === bias)) {
    throw invalid(`${what}: c must not be the same array as a, b or bias`);
  }
  // Added to the fresh object rather than spread into a new one: V8 copies
  // a spread of this many properties slowly (an inline 8x8x8 gemm spent
  // about 5 of its 9 us on this line and on reading its result).
  shape.a = a;
  shape.b = b;
  shape.c = c;
  shape.dtype = dtype;
  return shape;
}

// ---- Kinds of kernels -------------------------------------------------------

const kinds = {
  // name(a, b, out?): out[i] = a[i] op b[i].
  binary(owner, name, entry, [a, b, out, ...rest]) {
    const what = name;
    if (rest.length > 0) throw invalid(`${what}(a, b, out?): too many arguments`);
    const n = elementCount(a, what, 'a');
    if (elementCount(b, what, 'b') !== n) throw invalid(`${what}: b has ${elementCount(b, what, 'b')} elements but a has ${n}`);
    const dtype = dtypeOfOperand(a);
    if (dtypeOfOperand(b) !== dtype) throw invalid(`${what}: a is ${dtype} but b is ${dtypeOfOperand(b)}`);
    const fn = functionFor(owner, entry, dtype, what);
    if (out === undefined) out = new dtypes[dtype].Array(n);
    if (elementCount(out, what, 'out') !== n) throw invalid(`${what}: out has ${elementCount(out, what, 'out')} elements but a has ${n}`);
    if (dtypeOfOperand(out) !== dtype) throw invalid(`${what}: out must be ${dtype} like a`);
    checkNoPartialOverlap(what, ['out', out], [['a', a], ['b', b]]);
    return call(owner, what, (ops) => {
      const [pa, pb, po] = ops.place([[a, 'a', dtype, n, false], [b, 'b', dtype, n, false],
                                      [out, 'out', dtype, n, true, false]]);
      owner.check(fn(owner.context, pa, pb, po, n), what);
      return out;
    });
  },

  // name(x, out?): out[i] = op(x[i]).
  unary(owner, name, entry, [x, out, ...rest]) {
    const what = name;
    if (rest.length > 0) throw invalid(`${what}(x, out?): too many arguments`);
    const n = elementCount(x, what, 'x');
    const dtype = dtypeOfOperand(x);
    const fn = functionFor(owner, entry, dtype, what);
    if (out === undefined) out = new dtypes[dtype].Array(n);
    if (elementCount(out, what, 'out') !== n) throw invalid(`${what}: out has ${elementCount(out, what, 'out')} elements but x has ${n}`);
    if (dtypeOfOperand(out) !== dtype) throw invalid(`${what}: out must be ${dtype} like x`);
    checkNoPartialOverlap(what, ['out', out], [['x', x]]);
    return call(owner, what, (ops) => {
      const [px, po] = ops.place([[x, 'x', dtype, n, false], [out, 'out', dtype, n, true, false]]);
      owner.check(fn(owner.context, px, po, n), what);
      return out;
    });
  },

  // name(x, y, { n, incx, incy, threads }?): the dot product
  // sum over i < n of x[i * incx] * y[i * incy] (BLAS strides; a negative
  // increment walks the array from its far end), as a number.
  dot(owner, name, entry, [x, y, options = {}, ...rest]) {
    const what = name;
    if (rest.length > 0 || options === null || typeof options !== 'object') {
      throw invalid(`${what}(x, y, { n, incx, incy, threads }?): bad arguments`);
    }
    checkKeys(what, options, dotKeys);
    const lengthX = elementCount(x, what, 'x');
    const dtype = dtypeOfOperand(x);
    if (dtypeOfOperand(y) !== dtype) throw invalid(`${what}: x is ${dtype} but y is ${dtypeOfOperand(y) ?? typeof y}`);
    const incx = options.incx ?? 1, incy = options.incy ?? 1;
    checkIncrement(what, 'incx', incx);
    checkIncrement(what, 'incy', incy);
    const n = options.n ?? (lengthX === 0 ? 0 : Math.floor((lengthX - 1) / Math.abs(incx)) + 1);
    if (!(Number.isInteger(n) && n >= 0)) throw invalid(`${what}: n must be an integer >= 0 (got ${String(n)})`);
    const threads = threadsOption(what, options.threads);
    const fn = functionFor(owner, entry, dtype, what);
    const result = new dtypes[dtype].Array(1);
    return call(owner, what, (ops) => {
      const [px, py, pr] = ops.place([[x, 'x', dtype, stridedSpan(n, incx), false],
                                      [y, 'y', dtype, stridedSpan(n, incy), false],
                                      [result, 'result', dtype, 1, true, false]]);
      owner.check(fn(owner.context, int64(n), px, int64(incx), py, int64(incy), pr, threads), what);
      return result;
    })[0];
  },

  // gemv({ m, n, a, x, y, alpha, beta, trans, lda, incx, incy, threads }):
  // y <- alpha op(A) x + beta y, A m x n row-major (BLAS strides for x and y).
  gemv(owner, name, entry, [args, ...rest]) {
    const what = name;
    if (rest.length > 0 || args === null || typeof args !== 'object') {
      throw invalid(`${what}({ m, n, a, x, y, ... }): one options object`);
    }
    checkKeys(what, args, gemvKeys);
    const { a, x } = args;
    const { m, n, trans, lda, alpha, beta, incx, incy, threads, needA, needX, needY } = gemvShape(what, args);
    elementCount(a, what, 'a');
    const dtype = dtypeOfOperand(a);
    if (dtypeOfOperand(x) !== dtype) throw invalid(`${what}: a is ${dtype} but x is ${dtypeOfOperand(x) ?? typeof x}`);
    let y = args.y;
    if (y === undefined) {
      if (beta !== 0) throw invalid(`${what}: y is required when beta != 0`);
      y = new dtypes[dtype].Array(needY);
    }
    elementCount(y, what, 'y');
    if (dtypeOfOperand(y) !== dtype) throw invalid(`${what}: y must be ${dtype} like a`);
    checkNoPartialOverlap(what, ['y', y], [['a', a], ['x', x]]);
    if (ArrayBuffer.isView(y) && (y === a || y === x)) throw invalid(`${what}: y must not be the same array as a or x`);
    const fn = functionFor(owner, entry, dtype, what);
    return call(owner, what, (ops) => {
      // y is read when beta != 0, and when it is strided (the elements
      // between the strides are copied back unchanged).
      const [pa, px, py] = ops.place([[a, 'a', dtype, needA, false], [x, 'x', dtype, needX, false],
                                      [y, 'y', dtype, needY, true, beta !== 0 || Math.abs(incy) !== 1]]);
      const big = int64;
      owner.check(fn(owner.context, values.TSR_ROW_MAJOR, transpose(trans), big(m), big(n), alpha,
                     pa, big(lda), px, big(incx), beta, py, big(incy), threads), what);
      return y;
    });
  },

  // gemm({ m, n, k, a, b, c, alpha, beta, transA, transB, lda, ldb, ldc,
  // threads }): C <- alpha op(A) op(B) + beta C, row-major.
  gemm(owner, name, entry, [args, ...rest]) {
    const what = name;
    if (rest.length > 0) throw invalid(`${what}({ m, n, k, a, b, c, ... }): one options object`);
    const { m, n, k, a, b, c, alpha, beta, transA, transB, lda, ldb, ldc, bias, biasKind, activation, threads,
            dtype, needA, needB, needC, needBias } = gemmArguments(what, args);
    const fn = functionFor(owner, entry, dtype, what);
    return call(owner, what, (ops) => {
      const specs = [[a, 'a', dtype, needA, false], [b, 'b', dtype, needB, false],
                     [c, 'c', dtype, needC, true, beta !== 0 || ldc !== n]];
      if (bias !== null) specs.push([bias, 'bias', dtype, needBias, false]);
      const [pa, pb, pc, pbias = 0] = ops.place(specs);
      const big = int64;
      owner.check(fn(owner.context, values.TSR_ROW_MAJOR, transpose(transA), transpose(transB),
                     big(m), big(n), big(k), alpha, pa, big(lda), pb, big(ldb), beta, pc, big(ldc),
                     pbias, biasKinds[biasKind],
                     activations[activation], threads), what);
      return c;
    });
  },

  // name(x, { cols, rows?, ld?, out?, threads }): one value per row of the
  // rows x cols row-major matrix x (row stride ld, default cols): sum, max,
  // mean, or (entry.index) the first index of the maximum as an Int32Array.
  rows(owner, name, entry, [x, options, ...rest]) {
    const what = name;
    if (rest.length > 0 || options === null || typeof options !== 'object') {
      throw invalid(`${what}(x, { cols, rows?, ld?, out?, threads? }): bad arguments`);
    }
    checkKeys(what, options, entry.index ? indexRowsKeys : rowsKeys);
    const { rows, cols, ld, needX } = matrixShape(what, x, options);
    const dtype = dtypeOfOperand(x);
    const threads = threadsOption(what, options.threads);
    const fn = functionFor(owner, entry, dtype, what);
    if (entry.index) {
      // int64 indices in the heap, read back as 8-byte slots (exact: wasm32
      // rows have fewer than 2^31 elements).
      const slots = new Float64Array(rows);
      call(owner, what, (ops) => {
        const [px, po] = ops.place([[x, 'x', dtype, needX, false], [slots, 'out', 'f64', rows, true, false]]);
        owner.check(fn(owner.context, int64(rows), int64(cols), px, int64(ld), po, threads), what);
      });
      return Int32Array.from(new BigInt64Array(slots.buffer), Number);
    }
    let out = options.out;
    if (out === undefined) out = new dtypes[dtype].Array(rows);
    if (elementCount(out, what, 'out') < rows) throw invalid(`${what}: out has ${elementCount(out, what, 'out')} elements but there are ${rows} rows`);
    if (dtypeOfOperand(out) !== dtype) throw invalid(`${what}: out must be ${dtype} like x`);
    checkNoPartialOverlap(what, ['out', out], [['x', x]]);
    if (ArrayBuffer.isView(out) && out === x) throw invalid(`${what}: out must not be x`);
    return call(owner, what, (ops) => {
      const [px, po] = ops.place([[x, 'x', dtype, needX, false], [out, 'out', dtype, rows, true, false]]);
      owner.check(fn(owner.context, int64(rows), int64(cols), px, int64(ld), po, threads), what);
      return out;
    });
  },

  // name(x, { cols, rows?, ld?, out?, ldOut?, threads }): softmax or
  // log-softmax of each row (max subtracted first); out may be x (in place).
  softmax(owner, name, entry, [x, options, ...rest]) {
    const what = name;
    if (rest.length > 0 || options === null || typeof options !== 'object') {
      throw invalid(`${what}(x, { cols, rows?, ld?, out?, ldOut?, threads? }): bad arguments`);
    }
    checkKeys(what, options, softmaxKeys);
    const { rows, cols, ld, needX } = matrixShape(what, x, options);
    const dtype = dtypeOfOperand(x);
    const threads = threadsOption(what, options.threads);
    const ldOut = options.ldOut ?? ld;
    if (!(Number.isInteger(ldOut) && ldOut >= Math.max(1, cols))) {
      throw invalid(`${what}: ldOut must be an integer >= ${Math.max(1, cols)} (got ${String(ldOut)})`);
    }
    const needOut = span(rows, cols, ldOut);
    let out = options.out;
    if (out === undefined) out = new dtypes[dtype].Array(needOut);
    if (elementCount(out, what, 'out') < needOut) throw invalid(`${what}: out has ${elementCount(out, what, 'out')} elements but needs ${needOut}`);
    if (dtypeOfOperand(out) !== dtype) throw invalid(`${what}: out must be ${dtype} like x`);
    checkNoPartialOverlap(what, ['out', out], [['x', x]]);
    const fn = functionFor(owner, entry, dtype, what);
    return call(owner, what, (ops) => {
      // out is read when it is x (in place) or strided (the gaps are copied
      // back unchanged).
      const [px, po] = ops.place([[x, 'x', dtype, needX, false],
                                  [out, 'out', dtype, needOut, true, out === x || ldOut !== cols]]);
      owner.check(fn(owner.context, int64(rows), int64(cols), px, int64(ld), po, int64(ldOut), threads), what);
      return out;
    });
  },
  ...quantizedKinds,
  ...halfKinds,
};

// The JS names of the C API's enumerators (values from the module, lib/abi.js).
const counterFields = {
  dispatches: 'dispatches', serialFallbacks: 'serial_fallbacks', spins: 'spins', parks: 'parks',
  wakeups: 'wakeups', callerWaits: 'caller_waits', workerActiveNs: 'worker_active_ns',
};

// rows, cols and ld of a row-major matrix operand x: cols is required, ld
// defaults to cols and rows to the whole rows x holds.
function matrixShape(what, x, options) {
  const length = elementCount(x, what, 'x');
  const { cols } = options;
  if (!(Number.isInteger(cols) && cols >= 0)) throw invalid(`${what}: cols must be an integer >= 0 (got ${String(cols)})`);
  const ld = options.ld ?? Math.max(1, cols);
  if (!(Number.isInteger(ld) && ld >= Math.max(1, cols))) {
    throw invalid(`${what}: ld must be an integer >= ${Math.max(1, cols)} (got ${String(ld)})`);
  }
  let rows = options.rows;
  if (rows === undefined) {
    if (cols === 0 || length % ld !== 0 && length % ld !== cols) {
      throw invalid(`${what}: rows is required (x has ${length} elements, not whole rows of ${cols} at stride ${ld})`);
    }
    rows = Math.ceil(length / ld);
  }
  if (!(Number.isInteger(rows) && rows >= 0)) throw invalid(`${what}: rows must be an integer >= 0 (got ${String(rows)})`);
  const needX = span(rows, cols, ld);
  if (length < needX) throw invalid(`${what}: x has ${length} elements but ${rows} rows of ${cols} at stride ${ld} need ${needX}`);
  return { rows, cols, ld, needX };
}
