// Type-level test of tessera-wasm's index.d.ts: never run, only checked by
// tsc (tsconfig.json here; ./dev copies both into build/js/consumer/types/ so
// 'tessera-wasm' resolves to the installed tarball). Every call and option
// is used as a user would; each `@ts-expect-error` line is a misuse the types
// must reject (tsc fails if such a line stops being an error).
import {
  load,
  TesseraError,
  type Counters,
  type Dtype,
  type GemmArgs,
  type InlineTessera,
  type Isa,
  type LoadOptions,
  type Mode,
  type Operand,
  type ResolvedPolicy,
  type Tensor,
  type Tessera,
  type TesseraErrorCode,
  type TesseraInfo,
  type WorkerTessera,
} from 'tessera-wasm';

// Exact type equality (not mere assignability).
type Equal<X, Y> = (<T>() => T extends X ? 1 : 2) extends (<T>() => T extends Y ? 1 : 2) ? true : false;
function expectType<T>() {
  return <V>(value: V, ..._exact: Equal<V, T> extends true ? [] : [never]): V => value;
}

declare const bytes: ArrayBuffer;
declare const sharedF32: Float32Array;  // e.g. a view on a SharedArrayBuffer

// ---- load() and its options ----------------------------------------------------

export async function options(): Promise<void> {
  const all: LoadOptions = {
    threads: 4,
    mode: 'auto',
    isa: 'simd128',
    initTimeoutMs: 10_000,
    wasmUrl: new URL('https://example.com/tessera.wasm'),
    workerUrl: new URL('./worker-host-web.js', 'https://example.com/'),
    wasmBinary: bytes,
    counters: true,
    maxThreadsPerKernel: 2,
    oversubscribe: true,
    packageUrl: new URL('./tessera-wasm/', 'https://example.com/app/'),
    selftest: true,
    profile: '{"tessera_profile":1}',
    profilePortable: false,
  };
  await load({ profile: { tessera_profile: 1, settings: {} }, profilePortable: true });
  expectType<Tessera>()(await load(all));
  expectType<Tessera>()(await load());
  expectType<Tessera>()(await load({}));
  expectType<InlineTessera>()(await load({ mode: 'inline', threads: 'auto', isa: 'scalar' }));
  expectType<WorkerTessera>()(await load({ mode: 'worker', threads: 1 }));

  await load({ wasmUrl: 'https://example.com/tessera.wasm' });
  await load({ wasmUrl: { threads: 'https://example.com/t.wasm', single: new URL('file:///s.wasm') } });
  await load({ wasmUrl: { single: 'https://example.com/s.wasm' } });
  await load({ workerUrl: 'https://example.com/worker.js' });
  await load({ wasmBinary: new Uint8Array(bytes) });
  await load({ wasmBinary: { threads: bytes, single: new DataView(bytes) } });

  // A mode known only at run time: the general Tessera.
  const mode: 'auto' | Mode = Math.random() < 0.5 ? 'inline' : 'worker';
  expectType<Tessera>()(await load({ mode }));

  // @ts-expect-error unknown option key
  await load({ thread: 4 });
  // @ts-expect-error threads is a number or 'auto', not a numeric string
  await load({ threads: '4' });
  // @ts-expect-error no such mode
  await load({ mode: 'thread' });
  // @ts-expect-error no such isa
  await load({ isa: 'avx2' });
  // @ts-expect-error wasmUrl per build: only threads and single
  await load({ wasmUrl: { simd: 'https://example.com/t.wasm' } });
  // @ts-expect-error counters is a boolean
  await load({ counters: 1 });
  // @ts-expect-error options is an object
  await load('inline');
}

// ---- Instance facts --------------------------------------------------------------

export function facts(t: Tessera, inline: InlineTessera, worker: WorkerTessera): void {
  const info: TesseraInfo = t.info;
  expectType<'threads' | 'single'>()(info.build);
  expectType<boolean>()(info.simd);
  expectType<Isa>()(info.isa);
  expectType<number>()(info.threads);
  expectType<Mode>()(info.mode);
  expectType<'node' | 'browser' | 'worker'>()(info.host);
  expectType<boolean | null>()(info.crossOriginIsolated);
  expectType<boolean>()(info.sharedMemory);
  expectType<boolean>()(info.zeroCopy);
  expectType<readonly string[]>()(info.fallbacks);
  expectType<number>()(info.loadMs);
  expectType<string>()(info.selftest);
  expectType<string>()(info.profile);
  expectType<string>()(info.policy.profile);
  expectType<boolean>()(t.disposed);
  expectType<'inline'>()(inline.info.mode);
  expectType<'worker'>()(worker.info.mode);

  const p: ResolvedPolicy = info.policy;
  const seen: Array<number | boolean | string | string[] | number[]> = [
    p.effective_threads, p.max_threads_per_kernel, p.threads_usable, p.threads_reason,
    p.executor, p.affinity_policy, p.worker_cpus, p.worker_cores, p.worker_classes,
    p.uses_smt_siblings, p.caller_cpu, p.caller_pinned, p.spin_policy, p.spin_budget,
    p.idle_policy, p.idle_release_ms, p.allow_nested_parallelism, p.counters,
    p.pool_classes, p.fallbacks,
  ];
  void seen;
  if (p.executor === 'pool' && p.spin_policy === 'fixed_iterations') void p.spin_budget;

  // @ts-expect-error info is read-only
  t.info.threads = 2;
  // @ts-expect-error no such field
  void info.policy.effectiveThreads;
}

// ---- Kernels, in either mode ------------------------------------------------------

export async function kernels(t: Tessera): Promise<void> {
  const a32 = new Float32Array(6), b32 = new Float32Array(6);
  const a64 = new Float64Array(6), b64 = new Float64Array(6);

  // gemm: the result has the operands' type; with c, c's own type.
  expectType<Float32Array>()(await t.gemm({ m: 2, n: 2, k: 3, a: a32, b: b32 }));
  expectType<Float64Array>()(await t.gemm({ m: 2, n: 2, k: 3, a: a64, b: b64 }));
  // gemv and dot.
  expectType<Float32Array>()(await t.gemv({ m: 2, n: 3, a: a32, x: b32 }));
  expectType<Float64Array>()(await t.gemv({ m: 2, n: 3, a: a64, x: b64, trans: true, incx: -1, lda: 3, threads: 'serial' }));
  expectType<number>()(await t.dot(a32, b32));
  expectType<number>()(await t.dot(a64, b64, { n: 2, incx: 2, incy: -1, threads: 0 }));
  // @ts-expect-error x and y must have the same element type
  await t.dot(a32, b64);
  const full: GemmArgs<Float64Array> = {
    m: 2, n: 2, k: 3, a: a64, b: b64, c: new Float64Array(4),
    alpha: 2, beta: 0.5, transA: true, transB: false, lda: 2, ldb: 2, ldc: 2, threads: 'serial',
  };
  expectType<Operand<Float64Array>>()(await t.gemm(full));
  const c64 = new Float64Array(4);
  expectType<typeof c64>()(await t.gemm({ m: 2, n: 2, k: 3, a: a64, b: b64, c: c64, beta: 1, threads: 2 }));
  // f32 inputs of different buffers (one shared) mix freely.
  expectType<Float32Array>()(await t.gemm({ m: 2, n: 2, k: 3, a: sharedF32, b: b32 }));

  // Tensors: alloc is awaited (a value inline, a promise in worker mode).
  const ta = await t.alloc(Float32Array, 6);
  const tc = await t.alloc(Float32Array, 4);
  const td = await t.alloc(Float64Array, 4);
  expectType<Tensor<Float32Array>>()(ta);
  expectType<Tensor<Float64Array>>()(td);
  expectType<'f32'>()(ta.dtype);
  expectType<'f64'>()(td.dtype);
  const dtype: Dtype = td.dtype;
  void dtype;
  expectType<number>()(ta.length);
  ta.data.set([1, 2, 3, 4, 5, 6]);
  expectType<Float32Array>()(ta.data);
  expectType<Float64Array>()(td.data);
  expectType<Tensor<Float32Array>>()(await t.gemm({ m: 2, n: 2, k: 3, a: ta, b: b32, c: tc }));
  expectType<Tensor<Float64Array>>()(await t.gemm({ m: 2, n: 2, k: 3, a: a64, b: b64, c: td }));

  // Elementwise (f32): into a new array, an array, a tensor, or in place.
  expectType<Float32Array>()(await t.add(a32, b32));
  expectType<typeof a32>()(await t.add(a32, b32, a32));
  expectType<Tensor<Float32Array>>()(await t.mul(ta, b32, ta));
  expectType<Float32Array>()(await t.mul(ta, ta));
  expectType<Float32Array>()(await t.relu(a32));
  expectType<Tensor<Float32Array>>()(await t.relu(ta, ta));
  // The rest of the set, and f64: the result has the operands' type.
  expectType<Float32Array>()(await t.div(a32, b32));
  expectType<Float64Array>()(await t.add(a64, b64));
  expectType<Float64Array>()(await t.max(a64, b64));
  expectType<Tensor<Float64Array>>()(await t.sub(td, td, td));
  expectType<Float64Array>()(await t.sqrt(a64));
  expectType<Tensor<Float64Array>>()(await t.neg(td, td));

  expectType<Counters>()(await t.counters());
  const c = await t.counters();
  const total: number = c.dispatches + c.serialFallbacks + c.spins + c.parks + c.wakeups + c.callerWaits + c.workerActiveNs;
  void total;
  expectType<ResolvedPolicy>()(await t.resolvedPolicy());
  ta.dispose();
  tc.dispose();
  td.dispose();
  await t.dispose();

  // @ts-expect-error Int32Array is not a kernel operand
  await t.relu(new Int32Array(4));
  // @ts-expect-error Int32Array is not a gemm operand
  await t.gemm({ m: 1, n: 1, k: 1, a: new Int32Array(1), b: new Int32Array(1) });
  // @ts-expect-error a plain array is not an operand
  await t.add([1, 2], [3, 4]);
  // @ts-expect-error a and b must share the element type
  await t.add(a32, b64);
  // @ts-expect-error out must have the operand's element type
  await t.abs(a64, a32);
  // @ts-expect-error a and b must share the element type
  await t.gemm({ m: 1, n: 1, k: 1, a: a32, b: b64 });
  // @ts-expect-error c must have the operands' element type
  await t.gemm({ m: 1, n: 1, k: 1, a: a32, b: b32, c: c64 });
  // @ts-expect-error unknown gemm argument
  await t.gemm({ m: 1, n: 1, k: 1, a: a32, b: b32, trans: true });
  // @ts-expect-error gemm threads: 'serial' or a number
  await t.gemm({ m: 1, n: 1, k: 1, a: a32, b: b32, threads: 'auto' });
  // @ts-expect-error an f64 gemm gives a Float64Array
  const wrong: Float32Array = await t.gemm({ m: 1, n: 1, k: 1, a: a64, b: b64 });
  void wrong;
  // @ts-expect-error alloc takes the element arrays tessera has (not Uint32Array)
  await t.alloc(Uint32Array, 4);
  // The integer GEMM: 8-bit operands, int32, u8 or i8 results.
  const qa = new Uint8Array(6), qb = new Int8Array(6);
  expectType<Int32Array>()(await t.matmulInteger({ m: 2, n: 2, k: 3, a: qa, b: qb, aZeroPoint: 3 }));
  // A given y comes back as itself, its type included.
  const yOut = new Int8Array(4);
  expectType<typeof yOut>()(await t.qlinearMatmul({
    m: 2, n: 2, k: 3, a: qa, b: qb, aScale: 0.1, bScale: [0.2, 0.3], bZeroPoint: [0, 1], yScale: 0.5,
    y: yOut,
  }));
  expectType<Uint8Array>()(await t.qlinearMatmul({ m: 2, n: 2, k: 3, a: qa, b: qb, aScale: 0.1, bScale: 0.2, yScale: 0.5 }));
  expectType<Int8Array>()(await t.qlinearMatmul({
    m: 2, n: 2, k: 3, a: qa, b: qb, aScale: 0.1, bScale: 0.2, yScale: 0.5, yType: 'i8',
  }));
  const q = await t.dynamicQuantizeLinear(new Float32Array(4));
  expectType<Uint8Array>()(q.y);
  expectType<number>()(q.scale);
  const ti = await t.alloc(Int32Array, 4);
  expectType<'i32'>()(ti.dtype);
  // Half precision: bits in Uint16Array or u16 tensors.
  const bits = await t.toF16(new Float32Array(4));
  expectType<Uint16Array>()(bits);
  expectType<Float32Array>()(await t.fromF16(bits));
  const y16 = new Uint16Array(4);  // a given y comes back as itself
  expectType<typeof y16>()(await t.toBf16(new Float32Array(4), y16, { threads: 2 }));
  const t16 = await t.alloc(Uint16Array, 4);
  expectType<'u16'>()(t16.dtype);
  expectType<Tensor<Uint16Array>>()(await t.toBf16(new Float32Array(4), t16));
  expectType<Float32Array>()(await t.fromBf16(t16));
  // @ts-expect-error bf16 bits come in 16-bit arrays
  await t.fromBf16(new Uint8Array(4));
  // GEMM, gemv and dot on half operands.
  expectType<Float32Array>()(await t.gemmHalf({ m: 2, n: 2, k: 2, a: bits, aType: 'f16', b: new Float32Array(4) }));
  const c16 = new Uint16Array(4);
  expectType<typeof c16>()(await t.gemmHalf({ m: 2, n: 2, k: 2, a: t16, aType: 'bf16', b: t16, bType: 'bf16', c: c16,
                                                cType: 'bf16', mode: 'exact', activation: 'relu' }));
  expectType<Float32Array>()(await t.gemvHalf({ m: 2, n: 2, a: bits, aType: 'f16', x: new Float32Array(2) }));
  expectType<number>()(await t.dotHalf(bits, bits, { type: 'f16' }));
  // @ts-expect-error the mode is exact or fast
  await t.gemmHalf({ m: 1, n: 1, k: 1, a: bits, b: bits, mode: 'quick' });
  // @ts-expect-error an integer product takes 8-bit operands
  await t.matmulInteger({ m: 1, n: 1, k: 1, a: new Float32Array(1), b: qb });
  // @ts-expect-error qlinearMatmul needs its scales
  await t.qlinearMatmul({ m: 1, n: 1, k: 1, a: qa, b: qb });
  // @ts-expect-error the blocking forms need an inline instance
  t.gemmSync({ m: 1, n: 1, k: 1, a: a32, b: b32 });
  // @ts-expect-error a tensor's dtype is read-only
  ta.dtype = 'f64';
}

// ---- Mode 'inline': plain values and *Sync kernels -----------------------------------

export async function inlineMode(): Promise<void> {
  const t = await load({ mode: 'inline', threads: 2, counters: true });
  const a = new Float32Array(6), b = new Float32Array(6);
  const x = t.alloc(Float32Array, 6);  // no await: a Tensor
  const y = t.alloc(Float64Array, 4);
  expectType<Tensor<Float32Array>>()(x);
  expectType<Tensor<Float64Array>>()(y);
  expectType<Float32Array>()(t.gemmSync({ m: 2, n: 2, k: 3, a, b }));
  expectType<Float64Array>()(t.gemmSync({ m: 2, n: 2, k: 3, a: new Float64Array(6), b: new Float64Array(6) }));
  expectType<Tensor<Float64Array>>()(t.gemmSync({ m: 2, n: 2, k: 1, a: new Float64Array(2), b: new Float64Array(2), c: y }));
  expectType<Float32Array>()(t.addSync(a, b));
  expectType<Uint16Array>()(t.toF16Sync(a));
  expectType<Float32Array>()(t.fromBf16Sync(t.toBf16Sync(a)));
  expectType<Float32Array>()(t.gemvSync({ m: 2, n: 3, a, x: b }));
  expectType<number>()(t.dotSync(a, b, { incx: 1 }));
  expectType<Tensor<Float32Array>>()(t.addSync(x, b, x));
  expectType<typeof a>()(t.mulSync(a, b, a));
  expectType<Float32Array>()(t.reluSync(x));
  expectType<Tensor<Float32Array>>()(t.reluSync(x, x));
  expectType<Promise<Float32Array>>()(t.relu(a));
  expectType<Counters>()(t.counters());
  expectType<ResolvedPolicy>()(t.resolvedPolicy());
  x.dispose();
  y.dispose();
  expectType<void>()(t.dispose());

  // @ts-expect-error Int32Array is not an operand of the blocking forms either
  t.reluSync(new Int32Array(4));
  // @ts-expect-error addSync returns the array, not a promise
  await t.addSync(a, b).then(() => {});
}

// ---- Mode 'worker': promises everywhere -----------------------------------------------

export async function workerMode(): Promise<void> {
  const t = await load({ mode: 'worker', workerUrl: new URL('https://example.com/w.js') });
  expectType<Promise<Tensor<Float32Array>>>()(t.alloc(Float32Array, 4));
  expectType<Promise<Counters>>()(t.counters());
  expectType<Promise<ResolvedPolicy>>()(t.resolvedPolicy());
  expectType<Promise<Float32Array>>()(t.relu(new Float32Array(4)));
  const x = await t.alloc(Float32Array, 4);
  expectType<Tensor<Float32Array>>()(await t.relu(x, x));
  expectType<Promise<void>>()(t.dispose());

  // @ts-expect-error no blocking calls in worker mode
  t.reluSync(new Float32Array(4));
  // @ts-expect-error alloc gives a promise in worker mode
  t.alloc(Float32Array, 4).data;
}

// Narrowing a Tessera of unknown mode to the inline interface.
const isInline = (t: Tessera): t is InlineTessera => t.info.mode === 'inline';
export async function eitherMode(): Promise<void> {
  const t = await load();
  if (isInline(t)) expectType<Float32Array>()(t.reluSync(new Float32Array(2)));
}

// ---- Errors -------------------------------------------------------------------------

function describe(code: TesseraErrorCode): string {
  switch (code) {
    case 'invalid-argument': return 'a bad argument';
    case 'unsupported': return 'not available here';
    case 'out-of-memory': return 'the heap is full';
    case 'internal': return 'a bug';
    case 'init-timeout': return 'loading took too long';
    case 'wasm-fetch': return 'the .wasm could not be read';
    case 'not-wasm': return 'not a WebAssembly module';
    case 'disposed': return 'used after dispose()';
    default: {
      const unreachable: never = code;  // every code is handled
      return unreachable;
    }
  }
}

export async function errors(): Promise<void> {
  try {
    const t = await load({ mode: 'inline' });
    t.gemmSync({ m: 1, n: 1, k: 1, a: new Float32Array(1), b: new Float32Array(1), beta: 1 });
  } catch (error: unknown) {
    if (error instanceof TesseraError) {
      expectType<TesseraErrorCode>()(error.code);
      expectType<'TesseraError'>()(error.name);
      const message: string = error.message;
      void message;
      if (error.code === 'out-of-memory') expectType<'out-of-memory'>()(error.code);
      describe(error.code);
      // @ts-expect-error no such code
      if (error.code === 'timeout') return;
    }
  }
  const made = new TesseraError('invalid-argument', 'made by hand', { cause: new Error('cause') });
  expectType<Error>()(made as Error);
  // @ts-expect-error not a TesseraErrorCode
  new TesseraError('bogus', 'message');
}
