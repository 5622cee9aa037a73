// The integer GEMM's kinds of kernels (tsr_gemm_integer, tsr_qlinear_gemm,
// tsr_dynamic_quantize_linear_u8 in tessera.h): 8-bit operands as
// Uint8Array / Int8Array or u8 / i8 tensors, int32 outputs as Int32Array,
// zero points and scales per tensor (a number) or per column (n of them).
// The sums are exact and the same bits on every engine and thread count.
import { values } from './abi.js';
import { invalid } from './errors.js';
import {
  Tensor, call, checkKeys, checkNoPartialOverlap, dtypes, gemmDims, int64, leading, span, threadsOption, transpose,
  typedArrayDtype,
} from './operands.js';

const intTypes = { u8: values.TSR_U8, i8: values.TSR_S8 };
// Each kind's option keys (checkKeys), built once.
const matmulIntegerKeys = new Set(['m', 'n', 'k', 'a', 'b', 'c', 'aZeroPoint', 'bZeroPoint', 'beta', 'transA', 'transB',
                                   'lda', 'ldb', 'ldc', 'threads']);
const qlinearKeys = new Set(['m', 'n', 'k', 'a', 'aScale', 'aZeroPoint', 'b', 'bScale', 'bZeroPoint', 'yScale',
                             'yZeroPoint', 'y', 'yType', 'transA', 'transB', 'lda', 'ldb', 'ldy', 'threads']);
const threadsKeys = new Set(['threads']);
const intRange = { u8: [0, 255], i8: [-128, 127] };

// An 8-bit operand's dtype ('u8' or 'i8') and element count.
function int8Operand(what, name, x) {
  const dtype = x instanceof Tensor ? x.dtype : typedArrayDtype(x);
  if (dtype !== 'u8' && dtype !== 'i8') {
    throw invalid(`${what}: ${name} must be a Uint8Array, an Int8Array or a u8 / i8 tensor (got ${x === null ? 'null' : x?.constructor?.name ?? typeof x})`);
  }
  return { dtype, length: x.length };
}


// A or B of the product as stored, and the bytes it spans.
function operands(what, args, d) {
  const a = int8Operand(what, 'a', args.a), b = int8Operand(what, 'b', args.b);
  const lda = leading(what, 'lda', args.lda, d.transA ? d.m : d.k);
  const ldb = leading(what, 'ldb', args.ldb, d.transB ? d.k : d.n);
  const needA = span(d.transA ? d.k : d.m, d.transA ? d.m : d.k, lda);
  const needB = span(d.transB ? d.n : d.k, d.transB ? d.k : d.n, ldb);
  return { a, b, lda, ldb, needA, needB };
}

// A zero point of a tensor of `dtype`: an integer in its range.
function zeroPoint(what, key, value, dtype) {
  const zp = value ?? 0;
  const [lo, hi] = intRange[dtype];
  if (!(Number.isInteger(zp) && zp >= lo && zp <= hi)) {
    throw invalid(`${what}: ${key} must be an integer in [${lo}, ${hi}] (a ${dtype} value; got ${String(zp)})`);
  }
  return zp;
}

// B's zero points and (optionally) scales: numbers (per tensor) or n each
// (per column, as typed arrays or plain arrays), both of one kind.
function bQuant(what, args, n, withScales) {
  const zb = args.bZeroPoint ?? 0;
  const scales = withScales ? args.bScale : undefined;
  const isList = (v) => ArrayBuffer.isView(v) || Array.isArray(v);
  const perColumn = isList(zb) || isList(scales);
  if (!perColumn) {
    if (!Number.isInteger(zb)) throw invalid(`${what}: bZeroPoint must be an integer or ${n} of them (got ${String(zb)})`);
    if (withScales) scale(what, 'bScale', scales);
    return { count: 1, zeroPoints: Int32Array.of(zb), scales: Float32Array.of(withScales ? scales : 1) };
  }
  if (!isList(zb) || (withScales && !isList(scales))) {
    throw invalid(`${what}: bZeroPoint and bScale must both be per tensor (numbers) or both per column (${n} each)`);
  }
  if (zb.length !== n) throw invalid(`${what}: bZeroPoint has ${zb.length} values but n = ${n} columns`);
  if (withScales && scales.length !== n) throw invalid(`${what}: bScale has ${scales.length} values but n = ${n} columns`);
  if (withScales) Array.from(scales, (v, j) => scale(what, `bScale[${j}]`, v));
  return {
    count: n,
    zeroPoints: Int32Array.from(zb, Number),
    scales: withScales ? Float32Array.from(scales, Number) : Float32Array.of(1),
  };
}

// A scale: a positive finite number (as the C API requires; checked here so
// that the message names the JS option).
function scale(what, key, value) {
  if (!(typeof value === 'number' && Number.isFinite(value) && value > 0)) {
    throw invalid(`${what}: ${key} must be a positive finite number (got ${String(value)})`);
  }
  return value;
}

// matmulInteger's and qlinearMatmul's arguments checked, with their
// defaults filled in; the output allocated when not given. Shared by the
// kinds below and the message pool, which checks a whole call before it
// splits it.
export function matmulIntegerArguments(what, args) {
  if (args === null || typeof args !== 'object') throw invalid(`${what}({ m, n, k, a, b, ... }): bad arguments`);
  checkKeys(what, args, matmulIntegerKeys);
  const d = gemmDims(what, args);
  const o = operands(what, args, d);
  const za = zeroPoint(what, 'aZeroPoint', args.aZeroPoint, o.a.dtype);
  const qb = bQuant(what, args, d.n, false);
  const beta = args.beta ?? 0;
  if (beta !== 0 && beta !== 1) throw invalid(`${what}: beta must be 0 or 1 (got ${String(beta)})`);
  const ldc = leading(what, 'ldc', args.ldc, d.n);
  const needC = span(d.m, d.n, ldc);
  let c = args.c;
  if (c === undefined) {
    if (beta !== 0) throw invalid(`${what}: c is required when beta = 1`);
    c = new Int32Array(needC);
  }
  if ((c instanceof Tensor ? c.dtype : typedArrayDtype(c)) !== 'i32') throw invalid(`${what}: c must be an Int32Array or an i32 tensor`);
  checkNoPartialOverlap(what, ['c', c], [['a', args.a], ['b', args.b]]);
  const threads = threadsOption(what, args.threads);
  return { d, o, za, qb, beta, ldc, needC, c, threads };
}

export function qlinearArguments(what, args) {
  if (args === null || typeof args !== 'object') throw invalid(`${what}({ m, n, k, a, b, ... }): bad arguments`);
  checkKeys(what, args, qlinearKeys);
  const d = gemmDims(what, args);
  const o = operands(what, args, d);
  const aScale = scale(what, 'aScale', args.aScale), yScale = scale(what, 'yScale', args.yScale);
  const za = zeroPoint(what, 'aZeroPoint', args.aZeroPoint, o.a.dtype);
  const qb = bQuant(what, args, d.n, true);
  let y = args.y;
  const yArrayType = y === undefined ? undefined : y instanceof Tensor ? y.dtype : typedArrayDtype(y);
  const yType = args.yType ?? yArrayType ?? 'u8';
  if (yType !== 'u8' && yType !== 'i8') throw invalid(`${what}: yType must be 'u8' or 'i8' (got ${String(yType)})`);
  if (y !== undefined && yArrayType !== yType) throw invalid(`${what}: y must be a ${dtypes[yType].Array.name} or a ${yType} tensor for yType '${yType}'`);
  const yZeroPoint = zeroPoint(what, 'yZeroPoint', args.yZeroPoint, yType);
  const ldy = leading(what, 'ldy', args.ldy, d.n);
  const needY = span(d.m, d.n, ldy);
  if (y === undefined) y = new dtypes[yType].Array(needY);
  checkNoPartialOverlap(what, ['y', y], [['a', args.a], ['b', args.b]]);
  const threads = threadsOption(what, args.threads);
  return { d, o, aScale, yScale, za, qb, yType, yZeroPoint, ldy, needY, y, threads };
}

export const quantizedKinds = {
  // matmulInteger({ m, n, k, a, b, c?, aZeroPoint, bZeroPoint, beta, transA,
  // transB, lda, ldb, ldc, threads }): C (Int32Array, m x n) = (op(A) -
  // aZeroPoint) (op(B) - bZeroPoint) + beta C, beta 0 or 1; ONNX's
  // MatMulInteger, exact.
  matmulInteger(owner, name, entry, [args, ...rest]) {
    const what = name;
    if (rest.length > 0) throw invalid(`${what}({ m, n, k, a, b, ... }): bad arguments`);
    const { d, o, za, qb, beta, ldc, needC, c, threads } = matmulIntegerArguments(what, args);
    const fn = owner.module[`_${entry.int}`];
    return call(owner, what, (ops) => {
      const [pa, pb, pzb, pc] = ops.place([
        [args.a, 'a', o.a.dtype, o.needA, false], [args.b, 'b', o.b.dtype, o.needB, false],
        [qb.zeroPoints, 'bZeroPoint', 'i32', qb.count, false],
        [c, 'c', 'i32', needC, true, beta !== 0 || ldc !== d.n]]);
      const big = int64;
      owner.check(fn(owner.context, values.TSR_ROW_MAJOR, transpose(d.transA), transpose(d.transB),
                     big(d.m), big(d.n), big(d.k), intTypes[o.a.dtype], pa, big(o.lda), za,
                     intTypes[o.b.dtype], pb, big(o.ldb), pzb, big(qb.count), beta, pc, big(ldc), threads), what);
      return c;
    });
  },

  // qlinearMatmul({ m, n, k, a, aScale, aZeroPoint, b, bScale, bZeroPoint,
  // yScale, yZeroPoint, y?, yType?, transA, transB, lda, ldb, ldy, threads }):
  // y (u8 or i8, m x n) = saturate(round_half_even(s * aScale * bScale[j] /
  // yScale) + yZeroPoint); ONNX's QLinearMatMul, onnxruntime's bits.
  qlinear(owner, name, entry, [args, ...rest]) {
    const what = name;
    if (rest.length > 0) throw invalid(`${what}({ m, n, k, a, b, ... }): bad arguments`);
    const { d, o, aScale, yScale, za, qb, yType, yZeroPoint, ldy, needY, y, threads } = qlinearArguments(what, args);
    const fn = owner.module[`_${entry.int}`];
    return call(owner, what, (ops) => {
      const [pa, pb, psb, pzb, py] = ops.place([
        [args.a, 'a', o.a.dtype, o.needA, false], [args.b, 'b', o.b.dtype, o.needB, false],
        [qb.scales, 'bScale', 'f32', qb.count, false], [qb.zeroPoints, 'bZeroPoint', 'i32', qb.count, false],
        [y, 'y', yType, needY, true, ldy !== d.n]]);
      const big = int64;
      owner.check(fn(owner.context, values.TSR_ROW_MAJOR, transpose(d.transA), transpose(d.transB),
                     big(d.m), big(d.n), big(d.k), intTypes[o.a.dtype], pa, big(o.lda), aScale, za,
                     intTypes[o.b.dtype], pb, big(o.ldb), psb, pzb, big(qb.count), intTypes[yType], yScale,
                     yZeroPoint, py, big(ldy), threads), what);
      return y;
    });
  },

  // dynamicQuantizeLinear(x, y?, { threads }?) -> { y, scale, zeroPoint }: x
  // (Float32Array or f32 tensor, finite) to u8 with the scale and zero
  // point from its range; ONNX's DynamicQuantizeLinear, onnxruntime's
  // parameters.
  quantize(owner, name, entry, [x, y, options = {}, ...rest]) {
    const what = name;
    if (rest.length > 0 || options === null || typeof options !== 'object') throw invalid(`${what}(x, y?, { threads }?): bad arguments`);
    checkKeys(what, options, threadsKeys);
    const xType = x instanceof Tensor ? x.dtype : typedArrayDtype(x);
    if (xType !== 'f32') throw invalid(`${what}: x must be a Float32Array or an f32 tensor (got ${x === null ? 'null' : x?.constructor?.name ?? typeof x})`);
    const n = x.length;
    if (y === undefined || y === null) y = new Uint8Array(n);
    if ((y instanceof Tensor ? y.dtype : typedArrayDtype(y)) !== 'u8') throw invalid(`${what}: y must be a Uint8Array or a u8 tensor`);
    if (y.length !== n) throw invalid(`${what}: y has ${y.length} elements but x has ${n}`);
    checkNoPartialOverlap(what, ['y', y], [['x', x]]);
    const threads = threadsOption(what, options.threads);
    const fn = owner.module[`_${entry.int}`];
    const scale = new Float32Array(1), zero = new Uint8Array(1);
    call(owner, what, (ops) => {
      const [px, py, ps, pz] = ops.place([[x, 'x', 'f32', n, false], [y, 'y', 'u8', n, true, false],
                                          [scale, 'scale', 'f32', 1, true, false], [zero, 'zeroPoint', 'u8', 1, true, false]]);
      owner.check(fn(owner.context, px, n, py, ps, pz, threads), what);
    });
    return { y, scale: scale[0], zeroPoint: zero[0] };
  },
};
