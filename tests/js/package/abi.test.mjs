// The C ABI the package writes by hand (struct offsets and sizes, enum
// values) comes from the module's own description (js/abi.cc, written into
// lib/generated.js by js/build-package.mjs). Both builds describe the ABI
// the package was generated from, and a package whose description is stale
// (a C struct gained a field, an enum was renumbered, and the package was not
// regenerated) fails at load with the difference named, before it writes a
// word at the wrong offset.
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { load } from 'tessera-wasm';

const here = path.dirname(fileURLToPath(import.meta.url));
const packageDir = path.resolve(here, '..', 'node_modules', 'tessera-wasm');
const { abi } = await import(pathToFileURL(path.join(packageDir, 'lib', 'generated.js')));

test('the generated ABI is the one both builds describe', async () => {
  for (const threads of [1, 2]) {
    const t = await load({ threads, mode: 'inline' });
    try {
      assert.equal(t.info.build, threads === 1 ? 'single' : 'threads');
      const live = JSON.parse(t.module.UTF8ToString(t.module._tsr_js_abi()));
      assert.deepEqual(live, abi, `the ${t.info.build} build`);
    } finally {
      t.dispose();
    }
  }
  // The structs and values the package uses are there, with C's wasm32 widths.
  const policy = abi.structs.tsr_execution_policy;
  assert.equal(policy.fields.max_threads_per_kernel.size, 4);
  assert.equal(policy.fields.counters.size, 4);
  assert.equal(abi.structs.tsr_counters.size, 7 * 8);
  assert.equal(abi.values.TSR_THREADS_SERIAL, -1);
  assert.equal(abi.pointer_size, 4);
});

test('a package generated for another ABI is rejected at load, naming the difference', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'tessera-stale-abi-'));
  try {
    const copy = path.join(dir, 'tessera-wasm');
    cpSync(packageDir, copy, { recursive: true });
    // As if tsr_execution_policy had gained a field before `counters` in C
    // and the package had not been regenerated: the package's copy still
    // has the old layout, the module the new one (here: the other way round,
    // which is the same mismatch).
    const file = path.join(copy, 'lib', 'generated.js');
    const stale = JSON.parse(JSON.stringify(abi));
    stale.structs.tsr_execution_policy.size += 8;
    stale.structs.tsr_execution_policy.fields.counters.offset += 8;
    const text = readFileSync(file, 'utf8');
    const start = text.indexOf('export const abi = ');
    writeFileSync(file, `${text.slice(0, start)}export const abi = ${JSON.stringify(stale, null, 2)};\n`);
    const { load: staleLoad } = await import(pathToFileURL(path.join(copy, 'index.node.js')));
    for (const threads of [1, 2]) {
      await assert.rejects(staleLoad({ threads, mode: 'inline' }), (e) => {
        assert.ok(e instanceof Error && e.name === 'TesseraError', String(e));
        assert.equal(e.code, 'internal');
        assert.match(e.message, /C ABI differs from the one lib\/generated\.js was generated from/);
        // Each entry that differs is named, with both values.
        const counters = abi.structs.tsr_execution_policy.fields.counters.offset;
        assert.ok(e.message.includes(`structs.tsr_execution_policy.fields.counters.offset: module ${counters}, ` +
                                     `package ${counters + 8}`), e.message);
        assert.ok(e.message.includes('structs.tsr_execution_policy.size: module '), e.message);
        return true;
      });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
