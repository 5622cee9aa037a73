// The message-passing pool: parallel GEMM where memory cannot be shared (a
// page without cross-origin isolation, or `pool: 'messages'`). Helpers are
// dedicated workers, each with its own instance of the single-threaded
// module (mode 'worker' of this package). A call's C is split in row
// blocks. Each helper gets a copy of its rows of A (and of C when they are
// read), B and the bias, transferred, never copied again. The caller
// computes the first block itself. The bits are those of the one-thread
// call: each element of C is computed by the same one-thread kernel over
// the same depth blocks (the kernels' kc does not depend on m), whatever
// block it falls in.
//
// Whether splitting pays is decided per call from the work against the
// bytes each helper must receive and return (see plan()). A 64^3 GEMM
// stays on the caller. Bandwidth-bound kernels (elementwise, gemv, dot,
// softmax) never come here: copying their operands costs more than
// running them.
import { TesseraError } from './errors.js';
import { Tensor, gemmArguments } from './instance.js';
import { values } from './abi.js';
import { dtypes } from './operands.js';
import { loadInWorker } from './worker-client.js';

// The cost model. The compute rate starts at the single-threaded SIMD128
// sgemm figure (a 2-CPU Intel Xeon, Node 20 and Chromium 156) and then
// follows the caller's own timed blocks. The copy rate is what a split
// costs per byte a helper receives and returns, both sides counted (the
// caller's compact copies and its write-back of C, the helper's copies into
// and out of its heap): 1.4 GB/s in Node, half that in Chromium's nested
// workers; the lower figure is used. Each split also costs a fixed
// overhead beyond the round trip (event-loop turns, allocations), which
// 256^3 showed: split, it ran 0.6-0.8x its one-worker speed.
const initialFlopsPerSecond = { f32: 40e9, f64: 20e9 };
const copyBytesPerSecond = 0.7e9;
const splitOverheadMs = 0.5;
// A split must be predicted at least this much faster than one worker:
// below it, noise on a shared machine decides.
const requiredGain = 0.85;
// Fewer rows per block than this leave the micro-kernel's tiles empty.
const minRowsPerBlock = 8;

export async function startMessagePool(o, participants, now) {
  // The helpers load at once; if one fails, the others are stopped.
  const options = { ...o, threads: 1, mode: 'worker', pool: 'auto', counters: false };
  const started = await Promise.allSettled(Array.from({ length: participants - 1 }, () => loadInWorker(options, 'pool')));
  const failed = started.find((r) => r.status === 'rejected');
  if (failed) {
    for (const r of started) if (r.status === 'fulfilled') r.value.worker.terminate();
    throw failed.reason;
  }
  const helpers = started.map((r) => r.value);
  // The latency part of the cost model: the fastest of a few round trips
  // to every helper at once (the first also pays for warming up).
  let latencyMs = Infinity;
  for (let i = 0; i < 4; ++i) {
    const started = now();
    await Promise.all(helpers.map((h) => h.request('resolvedPolicy', [])));
    latencyMs = Math.min(latencyMs, now() - started);
  }
  return new MessagePool(helpers, latencyMs, now);
}

// Row r of the split of m rows into `parts` blocks, on multiples of 8.
const boundary = (m, parts, i) => (i === parts ? m : Math.min(m, Math.round((m * i) / parts / 8) * 8));

// Elements a row-major operand spans: (rows - 1) * ld + cols.
const span = (rows, cols, ld) => (rows === 0 || cols === 0 ? 0 : (rows - 1) * ld + cols);

class MessagePool {
  constructor(helpers, latencyMs, now) {
    this.helpers = helpers;
    this.participants = helpers.length + 1;
    this.latencyMs = latencyMs;
    this.now = now;
    this.flopsPerSecond = { ...initialFlopsPerSecond };  // per dtype
    this.stats = { splitCalls: 0, localCalls: 0, bytesSent: 0 };
    this.lastPlan = 'no call yet';
  }

  // How to run a GEMM, and why: on the caller (flops / rate), or in p
  // equal row blocks (multiples of 8), the caller's first: its share of
  // the flops, plus a round trip and the fixed overhead, plus the bytes a
  // helper receives (its rows of A, and of C when C is read; B; the bias)
  // and returns (its rows of C). Returns { blocks: [[r0, r1], ...], reason }.
  plan(g) {
    const { m, n, k, beta, ldc, biasKind, dtype } = g;
    // The call's own threads: 'serial' or 1 keep it on the caller, n caps it.
    const most = g.threads === values.TSR_THREADS_SERIAL ? 1 : g.threads > 0 ? Math.min(g.threads, this.participants) : this.participants;
    const flops = 2 * m * n * k;
    const oneMs = (flops / this.flopsPerSecond[dtype]) * 1e3;
    const readsC = beta !== 0 || ldc !== n;
    let best = { p: 1, ms: oneMs };
    for (let p = 2; p <= most; ++p) {
      const rows = Math.ceil(m / p);
      if (rows < minRowsPerBlock) break;
      const elements = rows * k + k * n + rows * n * (readsC ? 2 : 1) + (biasKind === 'column' ? n : biasKind === 'row' ? rows : 0);
      const bytes = elements * dtypes[dtype].bytes;
      const ms = oneMs / p + this.latencyMs + splitOverheadMs + (bytes / copyBytesPerSecond) * 1e3;
      if (ms < best.ms) best = { p, ms, bytes };
    }
    const shape = `${m} x ${n} x ${k}`;
    const model = `(${(this.flopsPerSecond[dtype] / 1e9).toFixed(1)} GFLOP/s, operands copied at ${copyBytesPerSecond / 1e9} GB/s, ${(this.latencyMs + splitOverheadMs).toFixed(2)} ms a split)`;
    if (best.p === 1 || best.ms > requiredGain * oneMs) {
      return { blocks: [[0, m]],
               reason: `${shape} on the caller: predicted ${oneMs.toFixed(2)} ms, and no split over ${most} workers is predicted at least ${Math.round((1 - requiredGain) * 100)}% faster ${model}` };
    }
    const blocks = [];
    for (let i = 0; i < best.p; ++i) blocks.push([boundary(m, best.p, i), boundary(m, best.p, i + 1)]);
    return { blocks,
             reason: `${shape} split over ${best.p} workers, rows ${blocks.map(([r0, r1]) => r1 - r0).join(' + ')} (the caller's first): predicted ${best.ms.toFixed(2)} ms against ${oneMs.toFixed(2)} ms on the caller, ${(best.bytes / 1e6).toFixed(2)} MB copied to and from each helper ${model}` };
  }

  // gemm through the pool: the whole call is checked first, so bad input
  // is an error before any block runs, and C is written only once every
  // block has succeeded.
  async gemm(owner, args) {
    if (owner.disposed) throw new TesseraError('disposed', 'gemm: this tessera instance was disposed');
    const g = gemmArguments('gemm', args);
    for (const [name, x] of [['a', g.a], ['b', g.b], ['c', g.c], ['bias', g.bias]]) {
      if (x instanceof Tensor) {
        if (x.owner !== owner) throw new TesseraError('invalid-argument', `gemm: ${name} is a tensor of another tessera instance`);
        if (x.ptr === 0) throw new TesseraError('disposed', `gemm: ${name} is a disposed tensor`);
      }
    }
    const plan = this.plan(g);
    this.lastPlan = plan.reason;
    const { blocks } = plan;
    if (blocks.length === 1) {
      ++this.stats.localCalls;
      return this.timed(g, () => owner.gemmSync(args));
    }
    ++this.stats.splitCalls;
    const pending = [];
    for (let i = 1; i < blocks.length; ++i) {
      const [sub, transfer] = blockArguments(g, blocks[i][0], blocks[i][1]);
      this.stats.bytesSent += transfer.reduce((sum, buffer) => sum + buffer.byteLength, 0);
      pending.push(this.helpers[i - 1].request('gemm', [sub], transfer));
    }
    // The caller's block, while the helpers run theirs; a failure here
    // still waits for them, so no helper is left writing into a call
    // that has already returned.
    let local, localError;
    try {
      const [sub] = blockArguments(g, blocks[0][0], blocks[0][1], owner);
      local = this.timed({ ...g, m: blocks[0][1] - blocks[0][0] }, () => owner.gemmSync(sub));
    } catch (error) {
      localError = error;
    }
    const results = await Promise.allSettled(pending);
    if (localError) throw localError;
    const failed = results.find((r) => r.status === 'rejected');
    if (failed) throw failed.reason;
    // Every block succeeded: C is written now (a tensor's view is read
    // after the calls, as the heap may have grown).
    const c = g.c instanceof Tensor ? g.c.data : g.c;
    const dense = g.beta === 0 && g.ldc === g.n;
    [local, ...results.map((r) => r.value)].forEach((block, i) => {
      c.set(block, blocks[i][0] * (dense ? g.n : g.ldc));
    });
    return g.c;
  }

  // Runs one block on the caller and folds its rate into the model.
  timed(g, body) {
    const started = this.now();
    const result = body();
    const seconds = (this.now() - started) / 1e3;
    const flops = 2 * g.m * g.n * g.k;
    if (flops >= 1e7 && seconds > 0) this.flopsPerSecond[g.dtype] = 0.7 * this.flopsPerSecond[g.dtype] + 0.3 * (flops / seconds);
    return result;
  }

  counters() {
    return { messagePoolSplitCalls: this.stats.splitCalls, messagePoolLocalCalls: this.stats.localCalls,
             messagePoolBytesSent: this.stats.bytesSent, messagePoolLastPlan: this.lastPlan };
  }

  // Stops the helpers; a call in flight rejects with 'disposed' instead
  // of waiting for blocks that will never come.
  dispose() {
    for (const h of this.helpers) {
      h.disposed = true;
      for (const { reject } of h.pending.values()) {
        reject(new TesseraError('disposed', 'gemm: the tessera instance was disposed during the call'));
      }
      h.pending.clear();
      h.worker.terminate();
    }
  }
}

// The arguments of rows [r0, r1) of the call, and the buffers to transfer.
// For a helper (caller undefined) every operand is a compact copy: a view
// would make postMessage clone its whole buffer (for a tensor, the heap).
// On the caller, typed arrays are passed as views and its own tensors B
// and bias in place; only the gathered or tensor rows of A are copied.
function blockArguments(g, r0, r1, caller) {
  const view = (x) => (x instanceof Tensor ? x.data : x);
  const part = (x, from, to) => (caller === undefined || x instanceof Tensor ? view(x).slice(from, to) : x.subarray(from, to));
  const rows = r1 - r0;
  const { n, k, lda, ldc } = g;
  let a, subLda;
  if (!g.transA) {
    a = part(g.a, r0 * lda, r0 * lda + span(rows, k, lda));
    subLda = lda;
  } else {
    // op(A) rows are stored A's columns: gather them, k rows of `rows`.
    const stored = view(g.a);
    a = new stored.constructor(k * rows);
    for (let p = 0; p < k; ++p) a.set(stored.subarray(p * lda + r0, p * lda + r1), p * rows);
    subLda = Math.max(1, rows);
  }
  const b = caller === undefined ? view(g.b).slice(0, g.needB) : g.b;
  const sub = { m: rows, n, k, a, b, alpha: g.alpha, beta: g.beta, transA: g.transA, transB: g.transB,
                lda: subLda, ldb: g.ldb, activation: g.activation, threads: 'serial' };
  const transfer = caller === undefined ? [a.buffer, b.buffer] : [];
  if (g.beta !== 0 || ldc !== n) {
    // Read by the kernel (beta) or holding gaps that must come back as
    // they were (ldc > n): always a copy, so C is written only at the end.
    sub.c = view(g.c).slice(r0 * ldc, r0 * ldc + span(rows, n, ldc));
    sub.ldc = ldc;
    transfer.push(sub.c.buffer);
  }
  if (g.bias !== null) {
    sub.biasKind = g.biasKind;
    sub.bias = g.biasKind === 'row' ? part(g.bias, r0, r1) : caller === undefined ? view(g.bias).slice(0, n) : g.bias;
    if (caller === undefined) transfer.push(sub.bias.buffer);
  }
  return [sub, transfer];
}
