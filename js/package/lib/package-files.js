// The package's own files the loader reads or starts at run time. Each
// default is a literal `new URL('...', import.meta.url)`: bundlers that
// understand the pattern (Vite, webpack, Parcel) copy the file into their
// output as it is and rewrite the URL, and the threaded module's
// JavaScript is then imported from that URL, never bundled, so every copy
// (the page's, the pthread workers') is the same file. For bundlers that leave the pattern
// alone (esbuild), the `packageUrl` option names where a copy of the
// package's lib/ and dist/ folders is served instead.
import { platform } from './platform.js';

const literal = {
  threads: {
    module: () => new URL('../dist/threads/tessera.mjs', import.meta.url),
    wasm: () => new URL('../dist/threads/tessera.wasm', import.meta.url),
    // ?no-inline: Vite inlines files under 4 KiB as data: URLs, and a
    // worker from a data: URL has an opaque origin, which cross-origin
    // isolation and a worker-src 'self' policy refuse.
    pthreadWorker: () => new URL('../dist/threads/tessera.worker.js?no-inline', import.meta.url),
  },
  // The single-threaded module's JavaScript is imported statically (inline.js).
  single: {
    wasm: () => new URL('../dist/single/tessera.wasm', import.meta.url),
  },
};
const fileNames = { module: 'tessera.mjs', wasm: 'tessera.wasm', pthreadWorker: 'tessera.worker.js' };

// The folder URL of options.packageUrl, with the trailing slash a relative
// resolution needs.
export function packageFolder(packageUrl) {
  const url = platform.resolveUrl(packageUrl);
  if (!url.pathname.endsWith('/')) url.pathname += '/';
  return url;
}

// The URL of `file` ('module', 'wasm', 'pthreadWorker') of `build`.
export function packageFile(build, file, packageUrl) {
  if (packageUrl !== undefined) return new URL(`dist/${build}/${fileNames[file]}`, packageFolder(packageUrl));
  return literal[build][file]();
}
