// The JS side of design.md §Serial fallback: a host without SharedArrayBuffer
// gets the single-threaded build and a diagnostic, never a failure;
// TESSERA_WASM_THREADS (or the launcher's threads option) sizes the wasm pool.
// The integration cases need build/emscripten and build/emscripten-st (./dev
// test builds both before it runs this file).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { chooseBuild, moduleSettings, threadingSupport } from '../../js/threading.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const launcher = path.join(root, 'cli', 'tessera-cli.mjs');
const builds = { threaded: 'threaded.js', single: 'single.js' };

test('threading needs SharedArrayBuffer, Atomics and cross-origin isolation', () => {
  const full = { SharedArrayBuffer: function SAB() {}, Atomics: {}, crossOriginIsolated: true };
  assert.deepEqual(threadingSupport(full), { ok: true, reason: '' });
  assert.equal(threadingSupport({ ...full, crossOriginIsolated: undefined }).ok, true);  // Node
  const noSab = threadingSupport({ Atomics: {} });
  assert.equal(noSab.ok, false);
  assert.match(noSab.reason, /SharedArrayBuffer is not available/);
  const notIsolated = threadingSupport({ ...full, crossOriginIsolated: false });
  assert.equal(notIsolated.ok, false);
  assert.match(notIsolated.reason, /not cross-origin isolated/);
});

test('chooseBuild falls back to the single-threaded build with the reason', () => {
  const threaded = chooseBuild(builds, { SharedArrayBuffer: function SAB() {}, Atomics: {} });
  assert.deepEqual(threaded, { url: 'threaded.js', threaded: true, reason: '' });
  const single = chooseBuild(builds, {});
  assert.equal(single.url, 'single.js');
  assert.equal(single.threaded, false);
  assert.deepEqual(moduleSettings(single), { tesseraThreadsUnavailable: single.reason });
});

test('moduleSettings validates the threads option', () => {
  assert.deepEqual(moduleSettings({ threaded: true }, { threads: 4 }), { tesseraWasmThreads: 4 });
  for (const bad of [0, -1, 257, 2.5, '4']) {
    assert.throws(() => moduleSettings({ threaded: true }, { threads: bad }), RangeError);
  }
});

// TESSERA_BUILD_ROOT: a folder holding emscripten/ and emscripten-st/
// (default: this repository's build/).
const buildRoot = process.env.TESSERA_BUILD_ROOT || path.join(root, 'build');
const haveBuilds = ['emscripten', 'emscripten-st'].every((p) =>
  fs.existsSync(path.join(buildRoot, p, 'tessera-cli.js')));

// `info --json` through the launcher; env entries set to null are removed.
function info(nodeFlags, launcherArgs, env = {}) {
  const childEnv = { ...process.env };
  for (const [k, v] of Object.entries(env)) {
    if (v === null) delete childEnv[k]; else childEnv[k] = v;
  }
  const args = [...nodeFlags, launcher, '--build-root', buildRoot, ...launcherArgs, 'info', '--json'];
  const r = spawnSync(process.execPath, args, { encoding: 'utf8', env: childEnv, timeout: 60_000 });
  assert.equal(r.status, 0, `launcher failed: ${r.stderr}`);
  return JSON.parse(r.stdout).execution;
}

test('without SharedArrayBuffer the module runs serially and says why',
  { skip: !haveBuilds && 'build/emscripten and build/emscripten-st are not built' }, () => {
    const e = info(['--no-harmony-sharedarraybuffer'], []);
    assert.equal(e.effective_threads, 1);
    assert.match(e.threads_reason, /built without threads/);
    assert.match(e.threads_reason, /SharedArrayBuffer is not available/);
  });

test('with SharedArrayBuffer the threaded build sizes its pool from TESSERA_WASM_THREADS',
  { skip: !haveBuilds && 'build/emscripten and build/emscripten-st are not built' }, () => {
    for (const threads of [1, 2, 4]) {
      const e = info([], [], { TESSERA_WASM_THREADS: String(threads) });
      assert.equal(e.effective_threads, threads);
      assert.match(e.threads_reason, new RegExp(`TESSERA_WASM_THREADS = ${threads}`));
    }
    const fromOption = info([], ['--threads', '3'], { TESSERA_WASM_THREADS: null });
    assert.equal(fromOption.effective_threads, 3);
  });
