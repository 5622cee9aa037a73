#!/usr/bin/env node
// tessera-cli for Node, picking the Emscripten build this host can run:
//   node cli/tessera-cli.mjs [--build-root DIR] [--threads N] <command> ...
// DIR (default: build/ beside this repository) holds emscripten/ (the
// -pthread build) and emscripten-st/. Without SharedArrayBuffer (e.g.
// `node --no-harmony-sharedarraybuffer`) the single-threaded build runs and
// `info` says why.
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { chooseBuild, moduleSettings } from '../js/threading.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
let buildRoot = path.resolve(here, '..', 'build');
let threads;
while (args.length > 0 && args[0].startsWith('--')) {
  const option = args.shift();
  const value = args.shift();
  if (value === undefined) {
    console.error(`tessera-cli.mjs: ${option} needs a value`);
    process.exit(2);
  }
  if (option === '--build-root') {
    buildRoot = path.resolve(value);
  } else if (option === '--threads') {
    threads = Number(value);
  } else {
    console.error(`tessera-cli.mjs: unknown option ${option}`);
    process.exit(2);
  }
}

const choice = chooseBuild({
  threaded: path.join(buildRoot, 'emscripten', 'tessera-cli.js'),
  single: path.join(buildRoot, 'emscripten-st', 'tessera-cli.js'),
});
let settings;
try {
  settings = moduleSettings(choice, { threads });
} catch (e) {
  console.error(`tessera-cli.mjs: ${e.message}`);
  process.exit(2);
}
// The generated program is a CommonJS script; its Node pre-js
// (toolchains/runners/emscripten-node-pre.js) merges these settings into its
// Module, and main() runs with Module.arguments.
globalThis.tesseraModuleSettings = { ...settings, arguments: args };
createRequire(import.meta.url)(choice.url);
