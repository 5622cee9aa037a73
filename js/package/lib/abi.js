// The C ABI facts the package needs (struct offsets and sizes, enum values),
// from lib/generated.js, which js/build-package.mjs writes from the module's
// own description (js/abi.cc): none of them is written here by hand.
import { TesseraError } from './errors.js';
import { abi } from './generated.js';

// The byte offset of `field` in C struct `struct`, checked to be a
// `bytes`-wide member, so that the writer's width matches the C type.
export function fieldOffset(struct, field, bytes) {
  const f = abi.structs[struct]?.fields[field];
  if (f === undefined || f.size !== bytes) {
    throw new TesseraError('internal', `tessera ABI: ${struct}.${field} is not a ${bytes}-byte field of this module`);
  }
  return f.offset;
}

export const structSize = (struct) => abi.structs[struct].size;

// Enumerators and constants by their C names (TSR_ACT_RELU, TSR_THREADS_SERIAL).
export const values = abi.values;

// A tsr_status as a TesseraError code.
const statusNames = {
  [values.TSR_OK]: 'ok',
  [values.TSR_INVALID_ARGUMENT]: 'invalid-argument',
  [values.TSR_UNSUPPORTED]: 'unsupported',
  [values.TSR_OUT_OF_MEMORY]: 'out-of-memory',
  [values.TSR_INTERNAL]: 'internal',
};
export const statusCode = (status) => statusNames[status] ?? 'internal';

// Throws unless `module` was compiled with the ABI this package was
// generated from: a module rebuilt with a changed struct or enum and a
// stale package must fail here, at load, not write the wrong words. The
// error names each entry that differs (a few of them).
export function checkModuleAbi(module, build) {
  const live = flatten(JSON.parse(module.UTF8ToString(module._tsr_js_abi())));
  const own = flatten(abi);
  const keys = [...new Set([...live.keys(), ...own.keys()])];
  const differ = keys.filter((k) => live.get(k) !== own.get(k));
  if (differ.length === 0) return;
  const shown = differ.slice(0, 4).map((k) => `${k}: module ${live.get(k) ?? 'absent'}, package ${own.get(k) ?? 'absent'}`);
  throw new TesseraError('internal', `the ${build} module's C ABI differs from the one lib/generated.js was ` +
    `generated from (rebuild the package: ./dev build js): ${shown.join('; ')}` +
    (differ.length > shown.length ? `; and ${differ.length - shown.length} more` : ''));
}

// {a: {b: 1}} -> Map {'a.b' => 1}.
function flatten(value, prefix = '', out = new Map()) {
  if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) flatten(v, prefix ? `${prefix}.${k}` : k, out);
  } else {
    out.set(prefix, value);
  }
  return out;
}
