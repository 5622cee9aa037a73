// What the JavaScript benchmarks share (bench/js/*.bench.mjs): arguments,
// medians, the alternating rounds and a child process per thread count.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

// The value after `name` on the command line, or `fallback`.
export const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : fallback;
};

export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

// Each run { fn, medians } gets `rounds` medians of `reps` timed calls of
// fn, as work / ms / 1e6 (GFLOP/s or GOP/s for `work` flops or ops). The
// order rotates each round, and each library starts after a pause: a pool
// that spins after its call (onnxruntime-web's does for a while) must not
// take the cores from whichever library comes next.
export async function alternateRounds(runs, { rounds, reps, work }) {
  for (const r of runs) await r.fn();  // warm-up
  for (let round = 0; round < rounds; ++round) {
    for (let j = 0; j < runs.length; ++j) {
      const r = runs[(round + j) % runs.length];
      await new Promise((resolve) => setTimeout(resolve, 100));
      const times = [];
      for (let i = 0; i < reps; ++i) {
        const t0 = performance.now();
        await r.fn();
        times.push(performance.now() - t0);
      }
      r.medians.push(work / median(times) / 1e6);
    }
  }
}

// A run's figure: the median of its round medians with their range.
export const summary = (medians) => ({ value: median(medians), min: Math.min(...medians), max: Math.max(...medians) });

// Runs `script --child <threads> ...args` and returns the JSON of its last
// line (onnxruntime-web fixes its thread count when it first starts: one
// process per thread count). Exits the bench on a child's failure.
export function runChild(script, threads, args) {
  const r = spawnSync(process.execPath, [fileURLToPath(script), '--child', String(threads), ...args],
                      { encoding: 'utf8', maxBuffer: 1 << 24 });
  if (r.status !== 0) {
    console.error(r.stderr);
    process.exit(1);
  }
  return JSON.parse(r.stdout.trim().split('\n').pop());
}
