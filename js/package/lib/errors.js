// TesseraError: every failure of the package is one of these, never a bare
// number or string. `code` is the C status name in kebab case
// ('invalid-argument', 'unsupported', 'out-of-memory', 'internal') or one of
// the loader's own ('init-timeout', 'wasm-fetch', 'not-wasm', 'disposed').
export class TesseraError extends Error {
  constructor(code, message, options) {
    super(message, options);
    this.name = 'TesseraError';
    this.code = code;
  }
}

export function invalid(message) {
  return new TesseraError('invalid-argument', message);
}
