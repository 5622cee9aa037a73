// Half-precision storage (tsr_convert_* in tessera.h): f16 (IEEE binary16)
// and bf16 (bfloat16) values as their 16 bits, in a Uint16Array, a u16
// tensor or, for f16 where the engine has one, a Float16Array (its bits
// are f16's). Narrowing rounds to nearest even; widening is exact;
// subnormals, infinities, signed zeros and NaN payloads are kept: the same
// bits on every engine and thread count.
import { values } from './abi.js';
import { invalid } from './errors.js';
import {
  Tensor, activations, biasKinds, call, checkIncrement, checkKeys, checkNoPartialOverlap, gemmShape, gemvShape, int64,
  stridedSpan, threadsOption, transpose, typedArrayDtype,
} from './operands.js';

const threadsKeys = new Set(['threads']);
const gemmHalfKeys = new Set(['m', 'n', 'k', 'a', 'b', 'c', 'aType', 'bType', 'cType', 'alpha', 'beta', 'transA',
                              'transB', 'lda', 'ldb', 'ldc', 'bias', 'biasKind', 'activation', 'mode', 'threads']);
const gemvHalfKeys = new Set(['m', 'n', 'a', 'aType', 'x', 'y', 'alpha', 'beta', 'trans', 'lda', 'incx', 'incy',
                              'threads']);
const dotHalfKeys = new Set(['type', 'n', 'incx', 'incy', 'threads']);
const storages = { f32: 'TSR_STORAGE_F32', f16: 'TSR_STORAGE_F16', bf16: 'TSR_STORAGE_BF16' };
const modes = { exact: 'TSR_HALF_EXACT', fast: 'TSR_HALF_FAST' };

const isFloat16Array = (x) =>
  typeof globalThis.Float16Array === 'function' && x instanceof globalThis.Float16Array;

// The 16-bit operand as the kernels see it: a Float16Array's bits as a
// Uint16Array on the same memory; anything else as it is.
const bitsOf = (x) => (isFloat16Array(x) ? new Uint16Array(x.buffer, x.byteOffset, x.length) : x);

const dtypeOf = (x) => (x instanceof Tensor ? x.dtype : typedArrayDtype(x));
const typeName = (x) => (x === null ? 'null' : x?.constructor?.name ?? typeof x);

function checkCall(what, options, rest) {
  if (rest.length > 0 || options === null || typeof options !== 'object') {
    throw invalid(`${what}(x, y?, { threads }?): bad arguments`);
  }
  checkKeys(what, options, threadsKeys);
  return threadsOption(what, options.threads);
}

const halfOperands = (entry) =>
  (entry.int.includes('bf16') ? 'a Uint16Array or a u16 tensor' : 'a Uint16Array, a Float16Array or a u16 tensor');

// An operand's storage ('f32', 'f16' or 'bf16') from the array and the
// caller's type option: a Float32Array or f32 tensor is f32, a
// Float16Array f16; the bits in a Uint16Array or u16 tensor are f16 or
// bf16 as `type` says (required: the bits alone do not tell).
function storageOf(what, name, x, type, allowed) {
  if (type !== undefined && !allowed.includes(type)) {
    throw invalid(`${what}: ${name}Type must be one of ${allowed.join(', ')} (got ${String(type)})`);
  }
  const dtype = dtypeOf(x);
  let storage;
  if (isFloat16Array(x)) storage = 'f16';
  else if (dtype === 'f32') storage = 'f32';
  else if (dtype === 'u16') storage = type;
  else throw invalid(`${what}: ${name} must be a Float32Array, a Float16Array, a Uint16Array or an f32 or u16 tensor (got ${typeName(x)})`);
  if (storage === undefined) throw invalid(`${what}: ${name} holds 16-bit values: say which format with ${name}Type ('f16' or 'bf16')`);
  if (type !== undefined && type !== storage) throw invalid(`${what}: ${name} is ${storage} but ${name}Type is ${type}`);
  if (!allowed.includes(storage)) throw invalid(`${what}: ${name} must be ${allowed.join(' or ')} (got ${storage})`);
  return storage;
}
const heapDtype = (storage) => (storage === 'f32' ? 'f32' : 'u16');
const lengthOf = (x) => bitsOf(x).length;

export const halfKinds = {
  // gemmHalf({ m, n, k, a, b, c?, aType?, bType?, cType?, alpha, beta,
  // transA, transB, lda, ldb, ldc, bias?, biasKind?, activation?, mode?,
  // threads }): C <- alpha op(A) op(B) + beta C, row-major, each of A, B, C
  // in f32, f16 or bf16 (tsr_gemm_half), f32 arithmetic; mode 'exact'
  // (default) gives the bits of gemm on the widened operands.
  gemmHalf(owner, name, entry, [args, ...rest]) {
    const what = name;
    if (rest.length > 0 || args === null || typeof args !== 'object') {
      throw invalid(`${what}({ m, n, k, a, b, c, aType, bType, cType, ... }): one options object`);
    }
    checkKeys(what, args, gemmHalfKeys);
    const { m, n, k, transA, transB, lda, ldb, ldc, alpha, beta, threads, activation, bias, biasKind,
            needA, needB, needC, needBias } = gemmShape(what, args);
    const { a, b } = args;
    const mode = args.mode ?? 'exact';
    if (!(mode in modes)) throw invalid(`${what}: mode must be 'exact' or 'fast' (got ${String(mode)})`);
    const all = ['f32', 'f16', 'bf16'];
    const aStorage = storageOf(what, 'a', a, args.aType, all);
    const bStorage = storageOf(what, 'b', b, args.bType, all);
    let c = args.c;
    if (c === undefined) {
      if (beta !== 0) throw invalid(`${what}: c is required when beta != 0`);
      const cType = args.cType ?? 'f32';
      if (!all.includes(cType)) throw invalid(`${what}: cType must be one of ${all.join(', ')} (got ${String(cType)})`);
      c = cType === 'f32' ? new Float32Array(needC) : new Uint16Array(needC);
      if (cType !== 'f32') args = { ...args, cType };
    }
    const cStorage = storageOf(what, 'c', c, args.cType, all);
    if (bias !== null && dtypeOf(bias) !== 'f32') throw invalid(`${what}: bias must be a Float32Array or an f32 tensor (got ${typeName(bias)})`);
    const aBits = bitsOf(a), bBits = bitsOf(b), cBits = bitsOf(c);
    checkNoPartialOverlap(what, ['c', cBits], [['a', aBits], ['b', bBits], ['bias', bias]]);
    if (ArrayBuffer.isView(cBits) && [aBits, bBits, bias].some((x) => ArrayBuffer.isView(x) && x.buffer === cBits.buffer &&
                                                                   x.byteOffset === cBits.byteOffset)) {
      throw invalid(`${what}: c must not be the same memory as a, b or bias`);
    }
    const fn = owner.module[`_${entry.int}`];
    return call(owner, what, (ops) => {
      const specs = [[aBits, 'a', heapDtype(aStorage), needA, false], [bBits, 'b', heapDtype(bStorage), needB, false],
                     [cBits, 'c', heapDtype(cStorage), needC, true, beta !== 0 || ldc !== n]];
      if (bias !== null) specs.push([bias, 'bias', 'f32', needBias, false]);
      const [pa, pb, pc, pbias = 0] = ops.place(specs);
      owner.check(fn(owner.context, values.TSR_ROW_MAJOR, transpose(transA), transpose(transB), int64(m), int64(n),
                     int64(k), alpha, values[storages[aStorage]], pa, int64(lda), values[storages[bStorage]], pb,
                     int64(ldb), beta, values[storages[cStorage]], pc, int64(ldc), pbias, biasKinds[biasKind],
                     activations[activation], values[modes[mode]], threads), what);
      return c;
    });
  },

  // gemvHalf({ m, n, a, aType?, x, y?, alpha, beta, trans, lda, incx, incy,
  // threads }): y <- alpha op(A) x + beta y with A (m x n, row-major) in
  // f16 or bf16 and x, y f32 (tsr_gemv_f16 / tsr_gemv_bf16): the bits of
  // gemv on the widened A, from half the bytes.
  gemvHalf(owner, name, entry, [args, ...rest]) {
    const what = name;
    if (rest.length > 0 || args === null || typeof args !== 'object') {
      throw invalid(`${what}({ m, n, a, aType, x, y, ... }): one options object`);
    }
    checkKeys(what, args, gemvHalfKeys);
    const { a, x } = args;
    const { m, n, trans, lda, alpha, beta, incx, incy, threads, needA, needX, needY } = gemvShape(what, args);
    const storage = storageOf(what, 'a', a, args.aType, ['f16', 'bf16']);
    if (dtypeOf(x) !== 'f32') throw invalid(`${what}: x must be a Float32Array or an f32 tensor (got ${typeName(x)})`);
    let y = args.y;
    if (y === undefined) {
      if (beta !== 0) throw invalid(`${what}: y is required when beta != 0`);
      y = new Float32Array(needY);
    }
    if (dtypeOf(y) !== 'f32') throw invalid(`${what}: y must be a Float32Array or an f32 tensor (got ${typeName(y)})`);
    const aBits = bitsOf(a);
    checkNoPartialOverlap(what, ['y', y], [['a', aBits], ['x', x]]);
    if (ArrayBuffer.isView(y) && y === x) throw invalid(`${what}: y must not be the same array as x`);
    const fn = owner.module[`_${entry[storage]}`];
    return call(owner, what, (ops) => {
      const [pa, px, py] = ops.place([[aBits, 'a', 'u16', needA, false], [x, 'x', 'f32', needX, false],
                                      [y, 'y', 'f32', needY, true, beta !== 0 || Math.abs(incy) !== 1]]);
      owner.check(fn(owner.context, values.TSR_ROW_MAJOR, transpose(trans), int64(m), int64(n), alpha, pa, int64(lda),
                     px, int64(incx), beta, py, int64(incy), threads), what);
      return y;
    });
  },

  // dotHalf(x, y, { type?, n, incx, incy, threads }?): sum x[i] y[i] with x
  // and y both f16 or both bf16 (tsr_dot_f16 / tsr_dot_bf16), as a number:
  // the bits of dot on the widened vectors.
  dotHalf(owner, name, entry, [x, y, options = {}, ...rest]) {
    const what = name;
    if (rest.length > 0 || options === null || typeof options !== 'object') {
      throw invalid(`${what}(x, y, { type, n, incx, incy, threads }?): bad arguments`);
    }
    checkKeys(what, options, dotHalfKeys);
    const formats = ['f16', 'bf16'];
    if (options.type !== undefined && !formats.includes(options.type)) {
      throw invalid(`${what}: type must be 'f16' or 'bf16' (got ${String(options.type)})`);
    }
    const storage = storageOf(what, 'x', x, options.type, formats);
    if (storageOf(what, 'y', y, options.type ?? (isFloat16Array(y) ? 'f16' : storage), formats) !== storage) {
      throw invalid(`${what}: x and y must be in the same format`);
    }
    const incx = options.incx ?? 1, incy = options.incy ?? 1;
    checkIncrement(what, 'incx', incx);
    checkIncrement(what, 'incy', incy);
    const lengthX = lengthOf(x);
    const n = options.n ?? (lengthX === 0 ? 0 : Math.floor((lengthX - 1) / Math.max(1, Math.abs(incx))) + 1);
    if (!(Number.isInteger(n) && n >= 0)) throw invalid(`${what}: n must be an integer >= 0 (got ${String(n)})`);
    const threads = threadsOption(what, options.threads);
    const fn = owner.module[`_${entry[storage]}`];
    const result = new Float32Array(1);
    return call(owner, what, (ops) => {
      const [px, py, pr] = ops.place([[bitsOf(x), 'x', 'u16', stridedSpan(n, incx), false],
                                      [bitsOf(y), 'y', 'u16', stridedSpan(n, incy), false],
                                      [result, 'result', 'f32', 1, true, false]]);
      owner.check(fn(owner.context, int64(n), px, int64(incx), py, int64(incy), pr, threads), what);
      return result;
    })[0];
  },

  // toF16(x, y?, { threads }?) / toBf16: x (Float32Array or f32 tensor) to
  // the half format's bits in y (a new Uint16Array by default).
  narrow(owner, name, entry, [x, y, options = {}, ...rest]) {
    const what = name;
    const threads = checkCall(what, options, rest);
    if (dtypeOf(x) !== 'f32') throw invalid(`${what}: x must be a Float32Array or an f32 tensor (got ${typeName(x)})`);
    const n = x.length;
    if (y === undefined || y === null) y = new Uint16Array(n);
    if (isFloat16Array(y) && entry.int.includes('bf16')) throw invalid(`${what}: y is a Float16Array, whose bits are f16's, not bf16's`);
    const yBits = bitsOf(y);
    if (dtypeOf(yBits) !== 'u16') throw invalid(`${what}: y must be ${halfOperands(entry)} (got ${typeName(y)})`);
    if (yBits.length !== n) throw invalid(`${what}: y has ${yBits.length} elements but x has ${n}`);
    checkNoPartialOverlap(what, ['y', yBits], [['x', x]]);
    const fn = owner.module[`_${entry.int}`];
    call(owner, what, (ops) => {
      const [px, py] = ops.place([[x, 'x', 'f32', n, false], [yBits, 'y', 'u16', n, true, false]]);
      owner.check(fn(owner.context, px, n, py, threads), what);
    });
    return y;
  },

  // fromF16(x, y?, { threads }?) / fromBf16: the half format's bits in x to
  // f32 in y (a new Float32Array by default); exact.
  widen(owner, name, entry, [x, y, options = {}, ...rest]) {
    const what = name;
    const threads = checkCall(what, options, rest);
    if (isFloat16Array(x) && entry.int.includes('bf16')) throw invalid(`${what}: x is a Float16Array, whose bits are f16's, not bf16's`);
    const xBits = bitsOf(x);
    if (dtypeOf(xBits) !== 'u16') throw invalid(`${what}: x must be ${halfOperands(entry)} (got ${typeName(x)})`);
    const n = xBits.length;
    if (y === undefined || y === null) y = new Float32Array(n);
    if (dtypeOf(y) !== 'f32') throw invalid(`${what}: y must be a Float32Array or an f32 tensor (got ${typeName(y)})`);
    if (y.length !== n) throw invalid(`${what}: y has ${y.length} elements but x has ${n}`);
    checkNoPartialOverlap(what, ['y', y], [['x', xBits]]);
    const fn = owner.module[`_${entry.int}`];
    call(owner, what, (ops) => {
      const [px, py] = ops.place([[xBits, 'x', 'u16', n, false], [y, 'y', 'f32', n, true, false]]);
      owner.check(fn(owner.context, px, n, py, threads), what);
    });
    return y;
  },
};
