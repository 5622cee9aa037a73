// The SUMMA time model of docs/distributed-scaling.md: predicted time and
// parallel efficiency of tessera::mpi::gemm (N x N x N) on P ranks, from
//   - the local GEMM rate of one rank (one core), measured on this machine
//     by `tessera-cli gemm L L KC --threads 1` for several local sizes L
//     (--rates L:GFLOPS,...; interpolated in log L),
//   - a broadcast cost model t(m bytes, r ranks) with a latency alpha and a
//     bandwidth beta per link: the better of a binomial tree,
//     ceil(log2 r) (alpha + m / beta), and scatter + ring allgather,
//     (log2 r + r - 1) alpha + 2 (r - 1) / r * m / beta (what MPI libraries
//     pick between for small and large messages),
//   - the algorithm's own counts: ceil(N / kc) depth slices; per slice each
//     rank receives an (N/p) x kc panel of A along its grid row (q ranks)
//     and a kc x (N/q) panel of B along its grid column (p ranks) and
//     multiplies them, 2 (N/p)(N/q) kc flops.
// Two bounds: no overlap (T = compute + communication, what Open MPI over
// shared memory gives: it progresses broadcasts only inside MPI calls) and
// full overlap (T = max(compute, communication) + one slice's broadcasts).
// Efficiency = compute / T: 1 means the P ranks run at their local rate.
//
//   node bench/mpi/summa_model.mjs --rates 128:60,512:150,2048:180 --kc 768 \
//        [--bytes 4] [--shm-alpha-us A --shm-beta-gbs B] [--predict-2x1 ...]
//
// Every input is an argument; nothing here is measured.

const args = process.argv.slice(2);
function option(name, fallback) {
  const i = args.indexOf(name);
  if (i < 0) return fallback;
  if (i + 1 >= args.length) throw new Error(`${name} needs a value`);
  return args[i + 1];
}

const rates = option("--rates", "")
  .split(",")
  .filter((x) => x)
  .map((x) => {
    const [size, gflops] = x.split(":").map(Number);
    if (!(size > 0 && gflops > 0)) throw new Error(`--rates: bad entry '${x}' (want L:GFLOPS)`);
    return [size, gflops * 1e9];
  })
  .sort((a, b) => a[0] - b[0]);
if (rates.length === 0) {
  console.error("summa_model: --rates L:GFLOPS,... is required (tessera-cli gemm L L KC --threads 1)");
  process.exit(2);
}
const kc = Number(option("--kc", "768"));
const bytes = Number(option("--bytes", "4"));

// The local rate for an L x L local block (geometric mean of the sides),
// interpolated in log L, clamped at the measured ends.
function rate(local) {
  if (local <= rates[0][0]) return rates[0][1];
  for (let i = 1; i < rates.length; ++i) {
    if (local <= rates[i][0]) {
      const [l0, r0] = rates[i - 1];
      const [l1, r1] = rates[i];
      const t = Math.log(local / l0) / Math.log(l1 / l0);
      return r0 + t * (r1 - r0);
    }
  }
  return rates[rates.length - 1][1];
}

function broadcast(m, r, link) {
  if (r <= 1 || m === 0) return 0;
  const log = Math.ceil(Math.log2(r));
  const tree = log * (link.alpha + m / link.beta);
  const scatterAllgather = (log + r - 1) * link.alpha + (2 * (r - 1)) / r * (m / link.beta);
  return Math.min(tree, scatterAllgather);
}

// One call on a p x q grid.
function summa(n, p, q, link) {
  const slices = Math.ceil(n / kc);
  const rows = n / p, cols = n / q;
  const compute = (2 * n * n * n) / (p * q) / rate(Math.sqrt(rows * cols));
  const perSlice =
    broadcast(rows * kc * bytes, q, link) + broadcast(kc * cols * bytes, p, link);
  const comm = slices * perSlice;
  return {
    compute,
    comm,
    noOverlap: compute + comm,
    overlap: Math.max(compute, comm) + perSlice,
    memoryBytes: 3 * rows * cols * bytes + 2 * (rows + cols) * kc * bytes * 2,
  };
}

const links = [
  {
    name: "shared memory (measured)",
    alpha: Number(option("--shm-alpha-us", "0.2")) * 1e-6,
    beta: Number(option("--shm-beta-gbs", "10")) * 1e9,
  },
  { name: "10 Gb/s Ethernet, TCP (stated: 25 us, 1.1 GB/s)", alpha: 25e-6, beta: 1.1e9 },
  { name: "100 Gb/s Ethernet, RoCE (stated: 3 us, 11 GB/s)", alpha: 3e-6, beta: 11e9 },
  { name: "InfiniBand HDR 200 Gb/s (stated: 1 us, 23 GB/s)", alpha: 1e-6, beta: 23e9 },
];
const sizes = [4096, 8192, 16384, 32768, 65536];
const grids = [2, 4, 8, 16, 32]; // P = 4 ... 1024, square grids

console.log(
  `SUMMA model: f${bytes * 8}, kc ${kc}, local rate ${rates
    .map(([l, r]) => `${l}:${(r / 1e9).toFixed(0)}`)
    .join(", ")} GFLOP/s per rank`);
for (const link of links) {
  console.log(`\n### ${link.name}\n`);
  console.log("efficiency without overlap / with full overlap (memory per rank)\n");
  console.log(`| N \\ ranks | ${grids.map((g) => `${g * g} (${g}x${g})`).join(" | ")} |`);
  console.log(`|---|${grids.map(() => "---").join("|")}|`);
  for (const n of sizes) {
    const cells = grids.map((g) => {
      const s = summa(n, g, g, link);
      const gib = s.memoryBytes / 2 ** 30;
      const memory = gib >= 1 ? `${gib.toFixed(1)} GiB` : `${(gib * 1024).toFixed(0)} MiB`;
      return `${(s.compute / s.noOverlap).toFixed(2)} / ${(s.compute / s.overlap).toFixed(2)} (${memory})`;
    });
    console.log(`| ${n} | ${cells.join(" | ")} |`);
  }
}

// The measured comparison: N^3 on 2 ranks x 1 thread (grids 1x2 and 2x1)
// against 1 rank x 2 threads at --rate-2t GFLOP/s, over shared memory.
const predict = option("--predict-n", "");
if (predict) {
  const n = Number(predict);
  const twoThreads = Number(option("--rate-2t", "0")) * 1e9;
  const shm = links[0];
  console.log(`\n### ${n}^3: 2 ranks x 1 thread against 1 rank x 2 threads (shared memory)\n`);
  const one = (2 * n * n * n) / twoThreads;
  console.log(`1 rank x 2 threads: ${one.toFixed(3)} s (at the measured ${(twoThreads / 1e9).toFixed(0)} GFLOP/s)`);
  for (const [p, q] of [[1, 2], [2, 1]]) {
    const s = summa(n, p, q, shm);
    console.log(
      `2 ranks, ${p}x${q}: compute ${s.compute.toFixed(3)} s + broadcasts ${s.comm.toFixed(3)} s = ` +
        `${s.noOverlap.toFixed(3)} s; predicted time ratio (2 ranks / 1 rank) ${(s.noOverlap / one).toFixed(3)}`);
  }
}
