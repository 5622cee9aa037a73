// What the wasm benchmark scripts share: their integer options, the
// GFLOP/s a tessera-cli run prints, medians, and rounds that run every
// configuration once in an order rotated from round to round (so a slow
// stretch of a shared machine hits each configuration alike).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const runWasi = join(root, 'toolchains/runners/run-wasi.mjs');

// The positive integer after `name` in args, or fallback; exits with a
// message naming the option otherwise.
export function intOption(script, args, name, fallback) {
  const i = args.indexOf(name);
  if (i < 0) return fallback;
  const value = Number(args[i + 1]);
  if (!Number.isInteger(value) || value < 1) {
    process.stderr.write(`${script}: ${name} needs a positive integer\n`);
    process.exit(2);
  }
  return value;
}

// A WASI module's output through run-wasi.mjs, with node flags and env.
export function runWasiModule(wasm, args, { nodeFlags = [], env = {} } = {}) {
  return String(execFileSync(process.execPath, [...nodeFlags, runWasi, wasm, ...args],
                             { env: { ...process.env, ...env } }));
}

// The Wasmtime CLI a WASI preset's build was configured with (its
// TESSERA_WASMTIME), or null: the benchmarks run the modules under the
// engine their tests ran under.
export function presetWasmtime(preset) {
  const cache = join(root, 'build', preset, 'CMakeCache.txt');
  if (!existsSync(cache)) return null;
  const line = readFileSync(cache, 'utf8').match(/^TESSERA_WASMTIME:FILEPATH=(.*)$/m);
  return line && !line[1].endsWith('NOTFOUND') ? line[1] : null;
}

// "wasmtime 36.0.20" for the CLI at path.
export const wasmtimeVersion = (path) =>
  String(execFileSync(path, ['--version'])).trim().split(/\s+/).slice(0, 2).join(' ');

// A WASI module's output under the Wasmtime CLI at `wasmtime`, through
// run-wasmtime.sh (threads: the wasi-threads host), with env.
export function runWasmtimeModule(wasmtime, wasm, args, { threads = false, env = {} } = {}) {
  const runner = join(root, 'toolchains/runners/run-wasmtime.sh');
  return String(execFileSync(runner, [`--wasmtime=${wasmtime}`, ...(threads ? ['--threads'] : []),
                                      wasm, ...args],
                             { env: { ...process.env, ...env } }));
}

// The number after `label` in output (e.g. 'GFLOP/s: '); throws if absent.
export function figure(output, label) {
  const at = String(output).indexOf(label);
  const value = at < 0 ? NaN : parseFloat(String(output).slice(at + label.length));
  if (Number.isNaN(value)) throw new Error(`no "${label}" figure in:\n${output}`);
  return value;
}

export const gflops = (output) => figure(output, 'GFLOP/s: ');

export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const h = Math.floor(s.length / 2);
  return s.length % 2 ? s[h] : (s[h - 1] + s[h]) / 2;
}

// results[i][r]: configs[i].run() in round r (each returns a number).
export function rotatedRounds(configs, rounds) {
  const results = configs.map(() => []);
  for (let r = 0; r < rounds; ++r) {
    for (let j = 0; j < configs.length; ++j) {
      const i = (j + r) % configs.length;
      results[i][r] = configs[i].run();
    }
  }
  return results;
}

export const range = (xs, digits = 2) =>
  `${Math.min(...xs).toFixed(digits)}-${Math.max(...xs).toFixed(digits)}`;

// "median (range)" of per-round ratios num[r] / den[r]: paired within a
// round, so a slow stretch cancels out.
export function pairedRatio(num, den) {
  const ratios = num.map((x, r) => x / den[r]);
  return `${median(ratios).toFixed(2)}x (range ${range(ratios)})`;
}
