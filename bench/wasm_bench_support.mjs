// What the wasm benchmark scripts share: their integer options, the
// GFLOP/s a tessera-cli run prints, medians, and rounds that run every
// configuration once in an order rotated from round to round (so a slow
// stretch of a shared machine hits each configuration alike).
import { execFileSync } from 'node:child_process';
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
