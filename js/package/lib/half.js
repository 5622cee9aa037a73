// Half-precision storage (tsr_convert_* in tessera.h): f16 (IEEE binary16)
// and bf16 (bfloat16) values as their 16 bits, in a Uint16Array, a u16
// tensor or, for f16 where the engine has one, a Float16Array (its bits
// are f16's). Narrowing rounds to nearest even; widening is exact;
// subnormals, infinities, signed zeros and NaN payloads are kept: the same
// bits on every engine and thread count.
import { invalid } from './errors.js';
import { Tensor, call, checkKeys, checkNoPartialOverlap, threadsOption, typedArrayDtype } from './operands.js';

const threadsKeys = new Set(['threads']);

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

export const halfKinds = {
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
    checkNoPartialOverlap(what, [['x', x], ['y', yBits]]);
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
    checkNoPartialOverlap(what, [['x', xBits], ['y', y]]);
    const fn = owner.module[`_${entry.int}`];
    call(owner, what, (ops) => {
      const [px, py] = ops.place([[xBits, 'x', 'u16', n, false], [y, 'y', 'f32', n, true, false]]);
      owner.check(fn(owner.context, px, n, py, threads), what);
    });
    return y;
  },
};
