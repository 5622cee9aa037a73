// index.d.ts is written by hand next to the binding table (bindings.json,
// installed as lib/generated.js): every bound kernel, in every dtype the
// table gives it, has its promise and Sync declarations, so a kernel added to
// the table without types fails here.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { test } from 'node:test';

const packageDir = path.dirname(createRequire(import.meta.url).resolve('tessera-wasm/package.json'));
const { bindings } = await import(path.join(packageDir, 'lib', 'generated.js'));
const types = readFileSync(path.join(packageDir, 'index.d.ts'), 'utf8');

test('index.d.ts declares every kernel of the binding table, async and Sync, for each dtype', () => {
  const arrays = { f32: 'Float32Array|Operand32', f64: 'Float64Array|Operand64' };
  for (const [name, entry] of Object.entries(bindings.kernels)) {
    for (const form of [name, `${name}Sync`]) {
      const declarations = types.split("\n").filter((line) => new RegExp(`^\\s*${form}[<(]`).test(line));
      assert.ok(declarations.length > 0, `index.d.ts has no declaration of ${form}`);
      // One C function for every operand type (the integer and half kinds),
      // or one per half format (gemvHalf, dotHalf, whose f32 operands are
      // not a dtype of their own): no f32 / f64 binding to match.
      if ('int' in entry || 'f16' in entry || 'bf16' in entry) continue;
      for (const dtype of ['f32', 'f64']) {
        const typed = declarations.some((line) => new RegExp(arrays[dtype]).test(line));
        assert.equal(typed, dtype in entry, `${form}: ${dtype} ${dtype in entry ? 'bound but not declared' : 'declared but not bound'}`);
      }
    }
  }
});
