#!/usr/bin/env node
// ./dev serve: node tests/js/browser/serve.mjs PORT PACKAGE_DIR EXAMPLE_DIR
// Serves the browser example with the package at ../pkg/, under the header
// profiles of server.mjs (isolated, credentialless and dip: threads;
// plain: single-threaded).
import { startServer } from './server.mjs';

const [port = '8080', pkg, example] = process.argv.slice(2);
const { origin } = await startServer({ pkg, example }, { port: Number(port) });
console.log(`tessera browser example (Ctrl-C stops):
  ${origin}/isolated/example/index.html        cross-origin isolated: the threaded build in a Worker
  ${origin}/credentialless/example/index.html  COEP credentialless
  ${origin}/dip/example/index.html             Document-Isolation-Policy (this document only; Chromium 137+)
  ${origin}/plain/example/index.html           no isolation: the single-threaded build, and why`);
