// The message-passing pool: parallel GEMMs (gemm, matmulInteger,
// qlinearMatmul) where memory cannot be shared (a
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
import { values } from './abi.js';
import { TesseraError } from './errors.js';
import { Tensor, gemmArguments } from './instance.js';
import { dtypes, span } from './operands.js';
import { matmulIntegerArguments, qlinearArguments } from './quantized.js';
import { copyOf, drainSpares, spareFits } from './spare-buffers.js';
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
const initialFlopsPerSecond = { f32: 40e9, f64: 20e9, int8: 60e9 };
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

// m rows in `parts` blocks on multiples of 8, the caller's first with
// `lead` rows more than an equal share (at least 8 rows a block).
function splitRows(m, parts, lead) {
  const even = boundary(m, parts, 1);
  const first = Math.max(minRowsPerBlock, Math.min(m - minRowsPerBlock * (parts - 1), even + Math.round(lead / 8) * 8));
  const blocks = [[0, first]];
  for (let i = 0; i < parts - 1; ++i) blocks.push([first + boundary(m - first, parts - 1, i), first + boundary(m - first, parts - 1, i + 1)]);
  return blocks;
}


class MessagePool {
  constructor(helpers, latencyMs, now) {
    this.helpers = helpers;
    this.participants = helpers.length + 1;
    this.latencyMs = latencyMs;
    this.now = now;
    this.flopsPerSecond = { ...initialFlopsPerSecond };  // per dtype
    // How much later than the caller a helper finishes the same rows, per
    // byte it receives and returns (its copies into and out of its heap,
    // the message's latency): the caller takes that many more rows.
    // Starts at 0.3 ms per MB (Chromium 156, sgemm 1024 on an AMD EPYC:
    // with equal blocks the helper finished 2.5-4.7 ms after the caller)
    // and then follows the calls (see balance()).
    this.lagMsPerByte = 0.3e-6;
    this.stats = { splitCalls: 0, localCalls: 0, bytesSent: 0 };
    // Helper i's last block of C, once copied into the output: sent back
    // to it as the next block's output, since a copy into fresh pages
    // costs several times one into pages used before (spare-buffers.js).
    this.blockBuffers = helpers.map(() => null);
    this.lastPlan = 'no call yet';
  }

  // How to run a GEMM, and why: on the caller (flops / rate), or in p
  // equal row blocks (multiples of 8), the caller's first: its share of
  // the flops, plus a round trip and the fixed overhead, plus the bytes a
  // helper receives (its rows of A, and of C when C is read; B; the bias)
  // and returns (its rows of C). Returns { blocks: [[r0, r1], ...], reason }.
  plan(g) {
    const { m, n, k } = g;
    // The call's own threads: 'serial' or 1 keep it on the caller, n caps it.
    const most = g.threads === values.TSR_THREADS_SERIAL ? 1 : g.threads > 0 ? Math.min(g.threads, this.participants) : this.participants;
    const flops = 2 * m * n * k;
    const oneMs = (flops / this.flopsPerSecond[g.rate]) * 1e3;
    let best = { p: 1, ms: oneMs };
    for (let p = 2; p <= most; ++p) {
      // At least 8 rows a block on average, so no block rounds to empty.
      if (m < minRowsPerBlock * p) break;
      const rows = Math.ceil(m / p);
      const bytes = rows * k * g.bytes.a + k * n * g.bytes.b + rows * n * g.bytes.out * (g.readsOut ? 2 : 1) + g.bytes.extra(rows);
      const ms = oneMs / p + this.latencyMs + splitOverheadMs + (bytes / copyBytesPerSecond) * 1e3;
      if (ms < best.ms) best = { p, ms, bytes };
    }
    const shape = `${m} x ${n} x ${k}`;
    const model = `(${(this.flopsPerSecond[g.rate] / 1e9).toFixed(1)} G${g.rate === 'int8' ? 'OP' : 'FLOP'}/s, operands copied at ${copyBytesPerSecond / 1e9} GB/s, ${(this.latencyMs + splitOverheadMs).toFixed(2)} ms a split)`;
    if (best.p === 1 || best.ms > requiredGain * oneMs) {
      return { blocks: [[0, m]],
               reason: `${shape} on the caller: predicted ${oneMs.toFixed(2)} ms, and no split over ${most} workers is predicted at least ${Math.round((1 - requiredGain) * 100)}% faster ${model}` };
    }
    // The caller's head start: x more rows shorten each helper's block by
    // x / (p - 1), which narrows the gap by x (p / (p - 1)) row times.
    const rowMs = oneMs / m;
    const lead = (this.lagMsPerByte * best.bytes * (best.p - 1)) / (best.p * rowMs);
    const blocks = splitRows(m, best.p, lead);
    return { blocks, bytes: best.bytes, rowMs,
             reason: `${shape} split over ${best.p} workers, rows ${blocks.map(([r0, r1]) => r1 - r0).join(' + ')} (the caller's first, longer by the ${(this.lagMsPerByte * best.bytes).toFixed(2)} ms a helper is measured to lag): predicted ${best.ms.toFixed(2)} ms against ${oneMs.toFixed(2)} ms on the caller, ${(best.bytes / 1e6).toFixed(2)} MB copied to and from each helper ${model}` };
  }

  // A GEMM of kind `kind` (gemm, matmulInteger, qlinear; `name` its
  // method) through the pool. The whole call is checked first, so bad
  // input is an error before any block runs, and the output is written
  // only once every block has succeeded.
  async run(owner, name, kind, args) {
    if (owner.disposed) throw new TesseraError('disposed', `${name}: this tessera instance was disposed`);
    const g = splitKinds[kind](name, args);
    for (const [key, x] of Object.entries({ ...args, [g.outKey]: g.out })) {
      if (x instanceof Tensor) {
        if (x.owner !== owner) throw new TesseraError('invalid-argument', `${name}: ${key} is a tensor of another tessera instance`);
        if (x.ptr === 0) throw new TesseraError('disposed', `${name}: ${key} is a disposed tensor`);
      }
    }
    // The lengths the one-worker call checks when it places its operands:
    // checked here too, since a split call cuts them itself (a short A
    // would gather zeros, a short output would fail half written).
    for (const [key, x, need] of [['a', args.a, g.needA], ['b', args.b, g.needB], [g.outKey, g.out, g.needOut]]) {
      if (x.length < need) throw new TesseraError('invalid-argument', `${name}: ${key} has ${x.length} elements but needs ${need}`);
    }
    const plan = this.plan(g);
    this.lastPlan = plan.reason;
    const { blocks } = plan;
    const sync = owner[`${name}Sync`];
    if (blocks.length === 1) {
      ++this.stats.localCalls;
      return this.timed(g, () => sync(args));
    }
    ++this.stats.splitCalls;
    // A and B the call owns (a worker host's copies of the page's arrays)
    // go to the last helper as they are, transferred: no copy is made for
    // it, so it starts sooner. The caller's own rows of A and B are placed
    // in its heap first, since the arrays are gone once transferred.
    const handOver = args[operandsOwned] === true && !g.transA && transferable(owner, args.a) && transferable(owner, args.b);
    // An output nobody else can see (made for this call, or the host's
    // copy) that the kernel does not read takes the caller's block
    // directly, instead of a block copied into it at the end.
    const direct = (args[operandsOwned] === true || args[g.outKey] === undefined) && !g.readsOut && ArrayBuffer.isView(g.out);
    const pending = [];
    const placed = [];  // the caller's tensors of a hand-over, freed at the end
    let local, localError;
    try {
      // The caller's block (its arguments made while A and B are still
      // here) runs while the helpers run theirs; a failure here still
      // waits for them, so no helper is left writing into a call that has
      // already returned.
      const [mine] = blockArguments(g, args, blocks[0][0], blocks[0][1], owner);
      if (direct) mine[g.outKey] = g.out.subarray(0, blocks[0][1] * g.n);
      for (let i = 1; i < blocks.length; ++i) {
        const last = i === blocks.length - 1;
        if (last && handOver) {
          placed.push(...placeInHeap(owner, g, args, blocks[0][0], blocks[0][1]));
          [mine.a, mine.b] = placed;
        }
        const [sub, transfer, bytes] = blockArguments(g, args, blocks[i][0], blocks[i][1], undefined, last && handOver);
        this.stats.bytesSent += bytes;
        const output = g.readsOut ? null : this.blockOutput(i - 1, g, blocks[i][1] - blocks[i][0]);
        if (output !== null) {
          sub[g.outKey] = output;
          transfer.push(output.buffer);
        }
        pending.push(this.helpers[i - 1].request(name, [sub], transfer));
      }
      local = this.timed({ ...g, m: blocks[0][1] - blocks[0][0] }, () => sync(mine));
    } catch (error) {
      localError = error;
    } finally {
      for (const t of placed) t.dispose();
    }
    const localDone = this.now();
    const results = await Promise.allSettled(pending);
    if (localError) throw localError;
    this.balance(plan, blocks, this.now() - localDone);
    const failed = results.find((r) => r.status === 'rejected');
    if (failed) throw failed.reason;
    // Every block succeeded: the output is written now (a tensor's view is
    // read after the calls, as the heap may have grown).
    const out = g.out instanceof Tensor ? g.out.data : g.out;
    const ld = g.readsOut ? g.ldOut : g.n;
    [local, ...results.map((r) => r.value)].forEach((block, i) => {
      if (i > 0 || !direct) out.set(block, blocks[i][0] * ld);
      if (i > 0 && block.buffer instanceof ArrayBuffer) this.blockBuffers[i - 1] = block.buffer;
    });
    return g.out;
  }

  // Helper h's output for a block of `rows` rows of C (read by no kernel,
  // ld n): a view on its previous block's buffer where that holds between
  // one and two such blocks, else null (the helper makes one).
  blockOutput(h, g, rows) {
    const buffer = this.blockBuffers[h];
    const Type = (g.out instanceof Tensor ? g.out.data : g.out).constructor;
    const bytes = rows * g.n * Type.BYTES_PER_ELEMENT;
    if (buffer === null || !spareFits(buffer.byteLength, bytes)) return null;
    this.blockBuffers[h] = null;
    return new Type(buffer, 0, rows * g.n);
  }

  // Folds a split call's imbalance into lagMsPerByte: the caller waited
  // `waitedMs` for the helpers after its own block, having had `extra`
  // rows more than an equal share. A helper lagging by L needs
  // L (p - 1) / (p rowMs) extra rows; a wait means the lag is larger than
  // those rows covered, no wait that it may be smaller (the estimate
  // then shrinks by one 8-row step, so it settles where the two finish
  // together). A pool's first split is skipped (its helpers pay their
  // warm-up there), and no lag counts for more than a quarter of the
  // caller's block, so one slow reply cannot hand the caller most of the
  // next call.
  balance(plan, blocks, waitedMs) {
    if (this.stats.splitCalls === 1) return;
    const p = blocks.length;
    const extra = blocks[0][1] - boundary(blocks.at(-1)[1], p, 1);
    const covered = (extra * plan.rowMs * p) / (p - 1);
    const lagMs = waitedMs > 0.2 ? covered + waitedMs : Math.max(0, covered - (8 * plan.rowMs * p) / (p - 1));
    const most = 0.25 * blocks[0][1] * plan.rowMs;
    this.lagMsPerByte = 0.7 * this.lagMsPerByte + 0.3 * (Math.min(lagMs, most) / plan.bytes);
  }

  // Runs one block on the caller and folds its rate into the model.
  timed(g, body) {
    const started = this.now();
    const result = body();
    const seconds = (this.now() - started) / 1e3;
    const flops = 2 * g.m * g.n * g.k;
    if (flops >= 1e7 && seconds > 0) this.flopsPerSecond[g.rate] = 0.7 * this.flopsPerSecond[g.rate] + 0.3 * (flops / seconds);
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
        reject(new TesseraError('disposed', 'the tessera instance was disposed during the call'));
      }
      h.pending.clear();
      h.worker.terminate();
    }
    this.blockBuffers.fill(null);
    drainSpares();  // this thread's spare buffers are let go
  }
}

// The kinds the pool splits: each reads a call's checked arguments into one
// shape. a and b as the user gave them (arrays or tensors), A's stored
// layout (transA, lda), the output (out under outKey, its leading
// dimension under ldOutKey; readsOut when the kernel reads it or it has
// gaps to keep), the arguments cut by rows (rowKeys) and those sent whole
// (wholeKeys), the element sizes for the cost model and the compute rate's
// name.
const splitKinds = {
  gemm(what, args) {
    const g = gemmArguments(what, args);
    const e = dtypes[g.dtype].bytes;
    return {
      m: g.m, n: g.n, k: g.k, transA: g.transA, lda: g.lda, needA: g.needA, needB: g.needB, needOut: g.needC,
      threads: g.threads, fixed: {},
      out: g.c, outKey: 'c', ldOut: g.ldc, ldOutKey: 'ldc', readsOut: g.beta !== 0 || g.ldc !== g.n,
      rowKeys: g.biasKind === 'row' ? ['bias'] : [], wholeKeys: g.biasKind === 'column' ? ['bias'] : [],
      rate: g.dtype,
      bytes: { a: e, b: e, out: e, extra: (rows) => e * (g.biasKind === 'column' ? g.n : g.biasKind === 'row' ? rows : 0) },
    };
  },
  matmulInteger(what, args) {
    const q = matmulIntegerArguments(what, args);
    const { m, n, k, transA } = q.d;
    return {
      m, n, k, transA, lda: q.o.lda, needA: q.o.needA, needB: q.o.needB, needOut: q.needC, threads: q.threads, fixed: {},
      out: q.c, outKey: 'c', ldOut: q.ldc, ldOutKey: 'ldc', readsOut: q.beta !== 0 || q.ldc !== n,
      rowKeys: [], wholeKeys: ['bZeroPoint'], rate: 'int8',
      bytes: { a: 1, b: 1, out: 4, extra: () => 4 * q.qb.count },
    };
  },
  qlinear(what, args) {
    const q = qlinearArguments(what, args);
    const { m, n, k, transA } = q.d;
    return {
      // yType explicit: a helper without y must make the same type.
      m, n, k, transA, lda: q.o.lda, needA: q.o.needA, needB: q.o.needB, needOut: q.needY, threads: q.threads,
      fixed: { yType: q.yType },
      out: q.y, outKey: 'y', ldOut: q.ldy, ldOutKey: 'ldy', readsOut: q.ldy !== n,
      rowKeys: [], wholeKeys: ['bZeroPoint', 'bScale'], rate: 'int8',
      bytes: { a: 1, b: 1, out: 1, extra: () => 8 * q.qb.count },
    };
  },
};

// Marks a call whose typed arrays belong to the pool's caller alone (a
// worker host's copies of the page's arguments): they may be transferred
// to a helper, and its output written in place.
export const operandsOwned = Symbol('tessera.operandsOwned');

// Whether x is a typed array whose buffer can be transferred: its own, not
// the module's heap.
const transferable = (owner, x) =>
  ArrayBuffer.isView(x) && x.buffer instanceof ArrayBuffer && x.buffer !== owner.module.HEAPU8.buffer;

// The caller's rows [r0, r1) of A and all of B, copied into tensors of its
// heap (before A and B are handed over). Returns [a, b].
function placeInHeap(owner, g, args, r0, r1) {
  const a = args.a.subarray(r0 * g.lda, r0 * g.lda + span(r1 - r0, g.k, g.lda));
  const b = args.b.subarray(0, g.needB);
  const ta = owner.alloc(a.constructor, a.length);
  let tb;
  try {
    tb = owner.alloc(b.constructor, b.length);
  } catch (error) {
    ta.dispose();
    throw error;
  }
  ta.data.set(a);
  tb.data.set(b);
  return [ta, tb];
}

// The arguments of rows [r0, r1) of the call, and the buffers to transfer.
// For a helper (caller undefined) every array is a compact copy: a view
// would make postMessage clone its whole buffer (for a tensor, the heap);
// with handOver, A and B are instead views on their own buffers, which
// are transferred. On the caller, typed arrays are passed as views and its
// own tensors B and the whole arguments in place; only the gathered or
// tensor rows of A are copied.
function blockArguments(g, args, r0, r1, caller, handOver = false) {
  const view = (x) => (x instanceof Tensor ? x.data : x);
  // A helper's copies go into spare buffers where this thread has them.
  const copy = (x, from, to) => copyOf(view(x).subarray(from, to));
  const compact = (x, from, to) => (ArrayBuffer.isView(x) || x instanceof Tensor ? copy(x, from, to) : x);
  const part = (x, from, to) => (caller === undefined || x instanceof Tensor ? copy(x, from, to) : x.subarray(from, to));
  const rows = r1 - r0;
  const { n, k, lda, ldOut } = g;
  let a, subLda;
  if (handOver) {
    a = args.a.subarray(r0 * lda, r0 * lda + span(rows, k, lda));
    subLda = lda;
  } else if (!g.transA) {
    a = part(args.a, r0 * lda, r0 * lda + span(rows, k, lda));
    subLda = lda;
  } else {
    // op(A) rows are stored A's columns: gather them, k rows of `rows`.
    const stored = view(args.a);
    a = new stored.constructor(k * rows);
    for (let p = 0; p < k; ++p) a.set(stored.subarray(p * lda + r0, p * lda + r1), p * rows);
    subLda = Math.max(1, rows);
  }
  const sub = { ...args, ...g.fixed, m: rows, a, lda: subLda, threads: 'serial' };
  delete sub[g.outKey];
  delete sub[g.ldOutKey];
  const transfer = [];
  const send = (x) => {
    if (caller === undefined && ArrayBuffer.isView(x) && !transfer.includes(x.buffer)) transfer.push(x.buffer);
    return x;
  };
  send(a);
  sub.b = caller !== undefined ? args.b : send(handOver ? args.b.subarray(0, g.needB) : compact(args.b, 0, g.needB));
  for (const key of g.wholeKeys) {
    if (caller === undefined && args[key] !== undefined) sub[key] = send(compact(args[key]));
  }
  for (const key of g.rowKeys) sub[key] = send(part(args[key], r0, r1));
  if (g.readsOut) {
    // Read by the kernel (beta) or holding gaps that must come back as
    // they were (ld > n): always a copy, so the output is written only at
    // the end.
    sub[g.outKey] = send(copy(g.out, r0 * ldOut, r0 * ldOut + span(rows, n, ldOut)));
    sub[g.ldOutKey] = ldOut;
  }
  // The bytes the helper receives: its views' (a handed-over buffer holds
  // more than the block reads).
  const bytes = Object.values(sub).reduce((sum, x) => sum + (ArrayBuffer.isView(x) ? x.byteLength : 0), 0);
  return [sub, transfer, bytes];
}
