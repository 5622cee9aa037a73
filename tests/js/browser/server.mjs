// The browser tests' static server (and ./dev serve's): 127.0.0.1 only,
// the right MIME types, and a header profile chosen by the first path
// segment, so one server covers every case:
//   /isolated/...        COOP same-origin + COEP require-corp
//   /credentialless/...  COOP same-origin + COEP credentialless
//   /dip/...             Document-Isolation-Policy: isolate-and-require-corp
//   /plain/...           no isolation headers (no SharedArrayBuffer)
//   /csp/...             isolated + a strict CSP without blob: or eval
//   /missing/...         isolated, every .wasm answers 404
//   /wrongmime/...       isolated, every .wasm answers an HTML page
// The rest of the path is looked up in the `roots` map by its first segment
// (e.g. /isolated/pkg/index.js -> roots.pkg + /index.js).
import { createReadStream, statSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';

const types = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.mjs': 'text/javascript',
  '.wasm': 'application/wasm', '.json': 'application/json', '.css': 'text/css', '.png': 'image/png',
};

const isolated = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
  'Cross-Origin-Resource-Policy': 'same-origin',
};
const profiles = {
  isolated,
  credentialless: { ...isolated, 'Cross-Origin-Embedder-Policy': 'credentialless' },
  // One document isolated without COOP/COEP on the site (Chromium 137+).
  dip: { 'Document-Isolation-Policy': 'isolate-and-require-corp', 'Cross-Origin-Resource-Policy': 'same-origin' },
  plain: {},
  csp: {
    ...isolated,
    'Content-Security-Policy': "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self'; connect-src 'self'",
  },
  missing: isolated,
  wrongmime: isolated,
};

export function startServer(roots, { port = 0 } = {}) {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://localhost');
    const [, profile, root, ...rest] = url.pathname.split('/');
    const headers = profiles[profile];
    if (!headers || !(root in roots)) {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('unknown profile or root');
      return;
    }
    const file = path.join(roots[root], ...rest.map(decodeURIComponent));
    if (!file.startsWith(roots[root])) {
      res.writeHead(403);
      res.end();
      return;
    }
    const ext = path.extname(file);
    if (ext === '.wasm' && profile === 'missing') {
      res.writeHead(404, { ...headers, 'content-type': 'text/plain' });
      res.end('not found');
      return;
    }
    if (ext === '.wasm' && profile === 'wrongmime') {
      res.writeHead(200, { ...headers, 'content-type': 'text/html' });
      res.end('<!DOCTYPE html><html><body>single-page app fallback</body></html>');
      return;
    }
    sendFile(res, file, headers);
  });
  return listen(server, port);
}

// One folder served at the root under one header profile: a bundler's
// output, whose asset URLs may be absolute ('/assets/...'). `missing`
// lists every path asked for that the folder lacks (requests from nested
// workers included, which a browser driver may not report).
export async function startSiteServer(dir, profile, { port = 0 } = {}) {
  const headers = profiles[profile];
  if (!headers) throw new Error(`startSiteServer: unknown profile ${profile}`);
  const missing = [];
  const server = http.createServer((req, res) => {
    const { pathname } = new URL(req.url, 'http://localhost');
    const file = path.join(dir, ...pathname.split('/').map(decodeURIComponent), pathname.endsWith('/') ? 'index.html' : '');
    if (!file.startsWith(dir)) {
      res.writeHead(403);
      res.end();
      return;
    }
    if (!sendFile(res, file, headers)) missing.push(pathname);
  });
  return { ...(await listen(server, port)), missing };
}

// Sends `file`, or a 404; false for a 404.
function sendFile(res, file, headers) {
  let stat;
  try {
    stat = statSync(file);
  } catch {
    stat = null;
  }
  if (!stat || !stat.isFile()) {
    res.writeHead(404, { ...headers, 'content-type': 'text/plain' });
    res.end('not found');
    return false;
  }
  res.writeHead(200, {
    ...headers,
    'content-type': types[path.extname(file)] ?? 'application/octet-stream',
    'content-length': stat.size,
    'cache-control': 'no-store',
  });
  createReadStream(file).pipe(res);
  return true;
}

function listen(server, port) {
  return new Promise((resolve) => {
    server.listen(port, '127.0.0.1', () => {
      resolve({ server, origin: `http://127.0.0.1:${server.address().port}` });
    });
  });
}
