// What every kernel call shares: the element types, tensors in the
// module's heap, and the marshalling of one call's operands (typed arrays
// copied through the instance's scratch block, tensors used in place) and
// its options.
import { TesseraError, invalid } from './errors.js';
import { values } from './abi.js';

// The element types operands can have: the float kernels' f32 and f64, the
// integer GEMM's u8, i8 and i32, and u16 for the bits of f16 and bf16.
export const dtypes = {
  f32: { Array: Float32Array, bytes: 4, heap: 'HEAPF32', shift: 2 },
  f64: { Array: Float64Array, bytes: 8, heap: 'HEAPF64', shift: 3 },
  u8: { Array: Uint8Array, bytes: 1, heap: 'HEAPU8', shift: 0 },
  i8: { Array: Int8Array, bytes: 1, heap: 'HEAP8', shift: 0 },
  i32: { Array: Int32Array, bytes: 4, heap: 'HEAP32', shift: 2 },
  u16: { Array: Uint16Array, bytes: 2, heap: 'HEAPU16', shift: 1 },
};
// A float typed array's dtype (the float kernels' operands), or undefined.
export const dtypeOf = (x) => (x instanceof Float32Array ? 'f32' : x instanceof Float64Array ? 'f64' : undefined);
// Any typed array's dtype of the table above, or undefined. A chain of
// tests, not a search of the table: this runs for every operand of every
// call, and Object.keys(...).find allocated an array and a closure each time.
export const typedArrayDtype = (x) =>
  x instanceof Float32Array ? 'f32'
    : x instanceof Float64Array ? 'f64'
      : x instanceof Uint8Array ? 'u8'
        : x instanceof Int8Array ? 'i8'
          : x instanceof Int32Array ? 'i32'
            : x instanceof Uint16Array ? 'u16' : undefined;

// A tensor: `length` elements in the module's heap, reused across calls
// without copies. `data` is a view that stays valid when the heap grows
// (it is re-created on the new buffer).
export class Tensor {
  #owner;
  #view = null;
  #raw;  // the block ptr lies in (ptr is rounded up to a cache line), for _free
  constructor(owner, dtype, ptr, length, raw = ptr) {
    this.#owner = owner;
    this.dtype = dtype;
    this.ptr = ptr;
    this.length = length;
    this.#raw = raw;
  }
  get data() {
    const module = this.#owner.module;
    if (this.ptr === 0) throw new TesseraError('disposed', 'tensor.data: the tensor was disposed');
    if (this.#owner.disposed) throw new TesseraError('disposed', 'tensor.data: its tessera instance was disposed');
    const buffer = module.HEAPU8.buffer;
    if (this.#view === null || this.#view.buffer !== buffer) {
      this.#view = new dtypes[this.dtype].Array(buffer, this.ptr, this.length);
    }
    return this.#view;
  }
  get owner() { return this.#owner; }
  dispose() {
    if (this.ptr !== 0 && !this.#owner.disposed) this.#owner.module._free(this.#raw);
    this.ptr = 0;
    this.#view = null;
  }
}


// The operands of one call, as the C function sees them: pointers into the
// heap. A Tensor of this instance is used in place; typed arrays are copied
// into the instance's scratch block (one block, grown as needed and kept,
// instead of a malloc and free per operand per call) and outputs copied
// back after success.
export class Operands {
  constructor(owner, what) {
    this.owner = owner;
    this.what = what;
    this.copyBack = [];
  }

  // specs: [x, name, dtype, needed elements, output?, read? (default true)]
  // per operand, in order; returns their pointers.
  place(specs) {
    const owner = this.owner;
    const count = specs.length;
    const pointers = new Array(count);
    // Per spec: its byte offset in the scratch block (-1: a tensor, used in
    // place). Plain loops, no closures: this runs on every call, and a
    // tiny call's fixed cost is mostly this marshalling.
    const offsets = new Array(count);
    let bytes = 0;
    for (let i = 0; i < count; ++i) {
      const spec = specs[i];
      const x = spec[0], name = spec[1], dtype = spec[2], needed = spec[3];
      if (x instanceof Tensor) {
        if (x.owner !== owner) throw invalid(`${this.what}: ${name} is a tensor of another tessera instance`);
        if (x.ptr === 0) throw new TesseraError('disposed', `${this.what}: ${name} is a disposed tensor`);
        if (x.dtype !== dtype) throw invalid(`${this.what}: ${name} is a ${x.dtype} tensor but the call is ${dtype}`);
        if (x.length < needed) throw invalid(`${this.what}: ${name} has ${x.length} elements but needs ${needed}`);
        pointers[i] = x.ptr;
        offsets[i] = -1;
        continue;
      }
      if (typedArrayDtype(x) !== dtype) {
        throw invalid(`${this.what}: ${name} must be a ${dtypes[dtype].Array.name} or a tensor (got ${x?.constructor?.name ?? typeof x})`);
      }
      if (x.length < needed) throw invalid(`${this.what}: ${name} has ${x.length} elements but needs ${needed}`);
      // The same array twice (in place): one copy.
      let same = -1;
      for (let j = 0; j < i && same < 0; ++j) if (offsets[j] >= 0 && specs[j][0] === x) same = offsets[j];
      if (same >= 0) {
        offsets[i] = same;
        continue;
      }
      offsets[i] = bytes;
      bytes += Math.ceil((needed * dtypes[dtype].bytes) / 64) * 64;
    }
    if (bytes === 0 && !offsets.some((o) => o >= 0)) return pointers;
    const base = owner.scratch(bytes, this.what);
    for (let i = 0; i < count; ++i) {
      if (offsets[i] < 0) continue;
      const spec = specs[i];
      const x = spec[0], dtype = spec[2], needed = spec[3], output = spec[4], read = spec[5] ?? true;
      const ptr = base + offsets[i];
      pointers[i] = ptr;
      // Copied in once per array, and only if the kernel reads it (an
      // output it only writes is not). Module.HEAPF32/HEAPF64 are re-made
      // by the runtime when the heap grows (scratch() may have grown it),
      // so they are read here, after it.
      let first = true;
      for (let j = 0; j < i && first; ++j) if (offsets[j] >= 0 && specs[j][0] === x && (specs[j][5] ?? true)) first = false;
      if (read && first) {
        owner.module[dtypes[dtype].heap].set(x.length === needed ? x : x.subarray(0, needed), ptr >> dtypes[dtype].shift);
      }
      if (output) this.copyBack.push({ array: x, ptr, needed, dtype });
    }
    return pointers;
  }

  finish() {
    const m = this.owner.module;
    for (const { array, ptr, needed, dtype } of this.copyBack) {
      const at = ptr >> dtypes[dtype].shift;
      array.set(m[dtypes[dtype].heap].subarray(at, at + needed));
    }
  }
}

// An output that shares memory with an input without being the very same
// array (exact aliasing is in-place) is an error; inputs may overlap each
// other, they are only read (as in the C API). `output` is [name, array],
// `inputs` a list of [name, array]. Each array's buffer is read once: V8's
// .buffer getter costs ~15 ns a call, and comparing every pair cost an
// 8x8x8 gemm 116 ns.
export function checkNoPartialOverlap(what, output, inputs) {
  const out = output[1];
  if (!ArrayBuffer.isView(out)) return;
  const buffer = out.buffer;
  const begin = out.byteOffset, end = begin + out.byteLength;
  for (let i = 0; i < inputs.length; ++i) {
    const x = inputs[i][1];
    if (!ArrayBuffer.isView(x) || x === out || x.buffer !== buffer) continue;
    if (x.byteOffset < end && begin < x.byteOffset + x.byteLength) {
      throw invalid(`${what}: ${inputs[i][0]} and ${output[0]} overlap in memory (only the very same array may be both input and output)`);
    }
  }
}

export function elementCount(x, what, name) {
  if (x instanceof Tensor) return x.length;
  if (ArrayBuffer.isView(x) && dtypeOf(x)) return x.length;
  throw invalid(`${what}: ${name} must be a Float32Array, a Float64Array or a tensor (got ${x === null ? 'null' : x?.constructor?.name ?? typeof x})`);
}
export const dtypeOfOperand = (x) => (x instanceof Tensor ? x.dtype : dtypeOf(x));

// The module's export for `entry`'s `dtype`, looked up once per instance
// (owner.functions) rather than by building its name on every call.
export function functionFor(owner, entry, dtype, what) {
  const name = entry[dtype];
  if (!name) throw invalid(`${what}: no ${dtype} kernel (available: ${Object.keys(entry).filter((k) => k in dtypes).join(', ')})`);
  let fn = owner.functions.get(name);
  if (fn === undefined) {
    fn = owner.module[`_${name}`];
    owner.functions.set(name, fn);
  }
  return fn;
}

// Every key of `object` must be in `known` (a Set, built once per kind).
export function checkKeys(what, object, known) {
  for (const key of Object.keys(object)) {
    if (!known.has(key)) throw invalid(`${what}: unknown option "${key}" (known: ${[...known].join(', ')})`);
  }
}

// A gemm call's options in one pass over the keys the caller gave (an
// unknown own key is an error, as checkKeys), into an object of one fixed
// shape. Reading each known option from the caller's object instead probes
// for every absent one, and where a program passes options objects of many
// shapes those probes are megamorphic misses: an 8x8x8 gemmSync went from
// ~0.9 to ~1.1 us. The for-in's own loads args[key] take V8's fast path.
export function readGemmOptions(what, args) {
  const o = {
    m: undefined, n: undefined, k: undefined, a: undefined, b: undefined, c: undefined,
    alpha: undefined, beta: undefined, transA: undefined, transB: undefined,
    lda: undefined, ldb: undefined, ldc: undefined, bias: undefined, biasKind: undefined,
    activation: undefined, threads: undefined,
  };
  for (const key in args) {
    const value = args[key];
    switch (key) {
      case 'm': o.m = value; break;
      case 'n': o.n = value; break;
      case 'k': o.k = value; break;
      case 'a': o.a = value; break;
      case 'b': o.b = value; break;
      case 'c': o.c = value; break;
      case 'alpha': o.alpha = value; break;
      case 'beta': o.beta = value; break;
      case 'transA': o.transA = value; break;
      case 'transB': o.transB = value; break;
      case 'lda': o.lda = value; break;
      case 'ldb': o.ldb = value; break;
      case 'ldc': o.ldc = value; break;
      case 'bias': o.bias = value; break;
      case 'biasKind': o.biasKind = value; break;
      case 'activation': o.activation = value; break;
      case 'threads': o.threads = value; break;
      default:
        if (Object.hasOwn(args, key)) throw invalid(`${what}: unknown option "${key}" (known: ${Object.keys(o).join(', ')})`);
    }
  }
  return o;
}

// A size (m, n, k, rows): an integer >= 0.
export function checkSize(what, key, v) {
  if (!(Number.isInteger(v) && v >= 0)) throw invalid(`${what}: ${key} must be an integer >= 0 (got ${String(v)})`);
}

// A leading dimension: the option, else the row length; at least the row
// length and 1 (BLAS's max(1, line): a product with k = 0 still has lda 1).
export function leading(what, key, value, line) {
  const ld = value ?? Math.max(1, line);
  if (!(Number.isInteger(ld) && ld >= Math.max(1, line))) {
    throw invalid(`${what}: ${key} must be an integer >= ${Math.max(1, line)} (the row length; got ${String(ld)})`);
  }
  return ld;
}

// Elements a row-major operand spans: (rows - 1) * ld + cols.
export const span = (rows, cols, ld) => (rows === 0 || cols === 0 ? 0 : (rows - 1) * ld + cols);

// The C API's threads argument: -1 serial, 0 automatic, n participants.
export function threadsOption(what, threads = 0) {
  if (threads === 'serial') return values.TSR_THREADS_SERIAL;
  if (Number.isInteger(threads) && threads >= 0) return threads;
  throw invalid(`${what}: threads must be 'serial' or an integer >= 0 (0: automatic)`);
}

export function call(owner, what, body) {
  if (owner.disposed) throw new TesseraError('disposed', `${what}: this tessera instance was disposed`);
  const ops = new Operands(owner, what);
  try {
    const result = body(ops);
    ops.finish();
    return result;
  } finally {
    owner.releaseLargeScratch();
  }
}

export const transpose = (t) => (t ? values.TSR_TRANS : values.TSR_NO_TRANS);

// The fused epilogue's names, as the C API's values.
export const activations = {
  none: values.TSR_ACT_NONE, relu: values.TSR_ACT_RELU, gelu: values.TSR_ACT_GELU, sigmoid: values.TSR_ACT_SIGMOID,
};
export const biasKinds = { none: values.TSR_BIAS_NONE, column: values.TSR_BIAS_PER_COLUMN, row: values.TSR_BIAS_PER_ROW };

// A size or stride as the int64 the C API takes. Small ones come from a
// table made once: a BigInt is an allocation, and a tiny GEMM passes six.
const smallInt64 = Array.from({ length: 4097 }, (_, i) => BigInt(i));
export const int64 = (v) => (v >= 0 && v <= 4096 ? smallInt64[v] : BigInt(v));

// A GEMM call's sizes, transposes, leading dimensions, scalars, threads and
// fused epilogue (C = activation(alpha op(A) op(B) + beta C + bias)),
// checked, with their defaults filled in, and the elements A, B, C and the
// bias span. Shared by gemm (instance.js) and gemmHalf (half.js), which
// then check their operands' element types.
// A GEMM's m, n, k and transposes (every GEMM kind, the integer ones too).
export function gemmDims(what, args) {
  const { m, n, k } = args;
  checkSize(what, 'm', m);
  checkSize(what, 'n', n);
  checkSize(what, 'k', k);
  const transA = args.transA ?? false, transB = args.transB ?? false;
  if (typeof transA !== 'boolean') throw invalid(`${what}: transA must be a boolean`);
  if (typeof transB !== 'boolean') throw invalid(`${what}: transB must be a boolean`);
  return { m, n, k, transA, transB };
}

export function gemmShape(what, args) {
  const { m, n, k, transA, transB } = gemmDims(what, args);
  const lda = leading(what, 'lda', args.lda, transA ? m : k);
  const ldb = leading(what, 'ldb', args.ldb, transB ? k : n);
  const ldc = leading(what, 'ldc', args.ldc, n);
  const alpha = args.alpha ?? 1, beta = args.beta ?? 0;
  if (typeof alpha !== 'number') throw invalid(`${what}: alpha must be a number`);
  if (typeof beta !== 'number') throw invalid(`${what}: beta must be a number`);
  const threads = threadsOption(what, args.threads);
  const activation = args.activation ?? 'none';
  if (!(activation in activations)) {
    throw invalid(`${what}: activation must be one of ${Object.keys(activations).join(', ')} (got ${String(activation)})`);
  }
  const bias = args.bias ?? null;
  const biasKind = args.biasKind ?? (bias === null ? 'none' : 'column');
  if (!(biasKind in biasKinds)) {
    throw invalid(`${what}: biasKind must be one of ${Object.keys(biasKinds).join(', ')} (got ${String(biasKind)})`);
  }
  if ((biasKind === 'none') !== (bias === null)) {
    throw invalid(`${what}: ${bias === null ? `bias is required with biasKind '${biasKind}'` : "bias is given with biasKind 'none'"}`);
  }
  return {
    m, n, k, transA, transB, lda, ldb, ldc, alpha, beta, threads, activation, bias, biasKind,
    needA: span(transA ? k : m, transA ? m : k, lda),
    needB: span(transB ? n : k, transB ? k : n, ldb),
    needC: span(m, n, ldc),
    needBias: biasKind === 'column' ? n : biasKind === 'row' ? m : 0,
  };
}

// BLAS increments: any non-zero integer (the C API rejects 0 and names it;
// here it must at least be an integer to size the copies).
export function checkIncrement(what, key, inc) {
  if (!Number.isInteger(inc)) throw invalid(`${what}: ${key} must be a non-zero integer (got ${String(inc)})`);
}

// Elements a BLAS vector of `count` entries with increment `inc` spans.
export const stridedSpan = (count, inc) => (count === 0 ? 0 : (count - 1) * Math.max(1, Math.abs(inc)) + 1);

// A gemv call's sizes, transpose, leading dimension, scalars, increments
// and threads, checked, with their defaults, and the elements A, x and y
// span. Shared by gemv (instance.js) and gemvHalf (half.js).
export function gemvShape(what, args) {
  const { m, n } = args;
  checkSize(what, 'm', m);
  checkSize(what, 'n', n);
  const trans = args.trans ?? false;
  if (typeof trans !== 'boolean') throw invalid(`${what}: trans must be a boolean`);
  const lda = leading(what, 'lda', args.lda, n);
  const alpha = args.alpha ?? 1, beta = args.beta ?? 0;
  if (typeof alpha !== 'number') throw invalid(`${what}: alpha must be a number`);
  if (typeof beta !== 'number') throw invalid(`${what}: beta must be a number`);
  const incx = args.incx ?? 1, incy = args.incy ?? 1;
  checkIncrement(what, 'incx', incx);
  checkIncrement(what, 'incy', incy);
  const threads = threadsOption(what, args.threads);
  return {
    m, n, trans, lda, alpha, beta, incx, incy, threads,
    needA: span(m, n, lda),
    needX: stridedSpan(trans ? m : n, incx),
    needY: stridedSpan(trans ? n : m, incy),
  };
}
