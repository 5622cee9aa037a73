import { TesseraError } from './errors.js';

// fetch() a .wasm and check it is one: a server that answers a missing file
// with an HTML page (a single-page app's fallback) gives "not-wasm" naming
// what came back, not a compile error about a magic word.
export async function fetchBinary(url) {
  let response;
  try {
    response = await fetch(url, { credentials: 'same-origin' });
  } catch (error) {
    throw new TesseraError('wasm-fetch', `cannot fetch ${url}: ${error.message}`, { cause: error });
  }
  if (!response.ok) {
    throw new TesseraError('wasm-fetch',
      `cannot fetch ${url}: HTTP ${response.status} ${response.statusText}`.trim());
  }
  return new Uint8Array(await response.arrayBuffer());
}

// Throws 'not-wasm' unless `bytes` starts with the wasm magic number.
export function checkWasm(bytes, where) {
  const magic = [0x00, 0x61, 0x73, 0x6d];
  if (bytes.length >= 4 && magic.every((b, i) => bytes[i] === b)) return;
  const head = Array.from(bytes.subarray(0, 16), (b) => b.toString(16).padStart(2, '0')).join(' ');
  const text = new TextDecoder().decode(bytes.subarray(0, 64)).replace(/\s+/g, ' ');
  const html = /^\s*</.test(text) ? ' (it looks like an HTML page: is the .wasm file deployed and served at that URL?)' : '';
  throw new TesseraError('not-wasm', `${where} is not a WebAssembly module: it starts with ${head}${html}`);
}
