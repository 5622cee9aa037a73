// Whether a realm can run the threaded build: SharedArrayBuffer, Atomics and
// (in browsers) cross-origin isolation. The one test, used by load() and by
// the CLI launcher (js/threading.mjs); no imports, so both can use it.
// Returns { ok, reason }.
export function threadingSupport(g = globalThis) {
  if (typeof g.SharedArrayBuffer !== 'function') {
    return { ok: false, reason: 'SharedArrayBuffer is not available (in a browser: the page is not cross-origin isolated; serve it with Cross-Origin-Opener-Policy: same-origin and Cross-Origin-Embedder-Policy: require-corp or credentialless)' };
  }
  if (g.crossOriginIsolated === false) {
    return { ok: false, reason: 'the page is not cross-origin isolated (Cross-Origin-Opener-Policy and Cross-Origin-Embedder-Policy headers are missing)' };
  }
  if (typeof g.Atomics !== 'object') {
    return { ok: false, reason: 'Atomics is not available in this JavaScript host' };
  }
  return { ok: true, reason: '' };
}
