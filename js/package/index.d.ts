// Types for tessera-wasm: the whole public API of index.js and index.node.js
// (one declaration file serves both export conditions). Hand-written: keep it
// in step with lib/*.js and js/bindings.json (the kernel table).
//
// Sync or async: in mode 'inline' the module runs on the calling thread, so
// alloc(), counters(), resolvedPolicy() and dispose() return their result
// directly and every kernel also has a blocking *Sync form. In mode 'worker'
// the module runs in a dedicated Worker and all of these return promises.
// load() therefore returns one of two interfaces:
//   - InlineTessera, when the options say mode: 'inline';
//   - WorkerTessera, when they say mode: 'worker';
//   - Tessera (what both extend) for mode 'auto' or a mode not known at
//     compile time: results of alloc() etc. are typed `T | Promise<T>`, which
//     `await` handles in either mode, and the *Sync kernels are absent.
// The *Sync members exist at run time in worker mode too, but there they
// always throw TesseraError 'unsupported'; leaving them out of WorkerTessera
// and Tessera turns that certain failure into a compile error. A Tessera is
// not narrowed by `t.info.mode === 'inline'` (TypeScript does not narrow an
// object by a nested property); pass mode: 'inline' to load(), or write a
// guard: `(t: Tessera): t is InlineTessera => t.info.mode === 'inline'`.
//
// The types name URL: a project needs lib "dom" or @types/node (either
// declares it).

// ---- Errors -------------------------------------------------------------------

/**
 * What went wrong, as `TesseraError.code`:
 * - `'invalid-argument'`: a bad option, argument, shape, dtype or length;
 * - `'unsupported'`: valid but not available here (e.g. a `*Sync` call in
 *   worker mode, an `isa` this host cannot run);
 * - `'out-of-memory'`: the wasm heap cannot hold an allocation;
 * - `'internal'`: a bug or a failure inside the module;
 * - `'init-timeout'`: loading took longer than `initTimeoutMs`;
 * - `'wasm-fetch'`: the `.wasm` file (or the worker script) could not be read;
 * - `'not-wasm'`: the bytes read are not a WebAssembly module (e.g. an HTML
 *   page served for a missing file);
 * - `'disposed'`: the instance or tensor was disposed.
 */
export type TesseraErrorCode =
  | 'invalid-argument'
  | 'unsupported'
  | 'out-of-memory'
  | 'internal'
  | 'init-timeout'
  | 'wasm-fetch'
  | 'not-wasm'
  | 'disposed';

/** The error every failure of the package rejects or throws with. */
export class TesseraError extends Error {
  /**
   * @param code What went wrong.
   * @param message A sentence naming the call and the argument at fault.
   * @param options `cause`: the underlying error, if any.
   */
  constructor(code: TesseraErrorCode, message: string, options?: { cause?: unknown });
  /** What went wrong; switch on this, not on the message. */
  code: TesseraErrorCode;
  /** Always `'TesseraError'`. */
  name: 'TesseraError';
}

// ---- load() -------------------------------------------------------------------

/** Where the module runs: on the calling thread, or in a dedicated Worker. */
export type Mode = 'inline' | 'worker';

/** An instruction-set level of the wasm build: SIMD128 or plain scalar code. */
export type Isa = 'simd128' | 'scalar';

/** A `.wasm` location: an absolute URL (`file:`, `http:`, `https:`, a string or a URL). */
export type WasmLocation = string | URL;

/** The bytes of a `.wasm` module. */
export type WasmBytes = ArrayBuffer | ArrayBufferView;

/** Options of {@link load}. Every key is checked: an unknown key or a bad value rejects with `'invalid-argument'`. */
export interface LoadOptions {
  /**
   * Participants in the thread pool, the caller included: an integer in
   * [1, 256], or `'auto'` (default): min(8, logical CPUs). A number above
   * the host's logical CPUs (`navigator.hardwareConcurrency`,
   * `os.availableParallelism()`) is capped there, with the reason in
   * `info.fallbacks`, unless `oversubscribe` is true. 1, or a host without
   * SharedArrayBuffer or cross-origin isolation, loads the single-threaded
   * build (see `info.fallbacks`).
   */
  threads?: 'auto' | number;
  /**
   * Run the `threads` asked for even where they exceed the host's logical
   * CPUs (default false: they are capped there, since threads that
   * time-slice one core make every parallel call wait for the slowest).
   */
  oversubscribe?: boolean;
  /**
   * How to run `threads` > 1. `'auto'` (default): the threaded build where
   * the host allows shared memory, elsewhere (a page without cross-origin
   * isolation) the message-passing pool: `threads - 1` more workers, each
   * with its own single-threaded module, over which the asynchronous
   * `gemm`, `matmulInteger` and `qlinearMatmul` are split when its cost
   * model predicts a gain (operands are copied to
   * them per call; the bits are the one-thread call's). `'shared'`: the
   * threaded build or nothing. `'messages'`: the message-passing pool even
   * where memory could be shared.
   */
  pool?: 'auto' | 'shared' | 'messages';
  /**
   * `'inline'`: the module runs on the calling thread. `'worker'`: in a
   * dedicated Worker; every call is asynchronous. `'auto'` (default):
   * `'worker'` on a browser window's main thread, `'inline'` elsewhere
   * (Node, Web Workers).
   */
  mode?: 'auto' | Mode;
  /** The instruction set the kernels use; default: the best this host runs. */
  isa?: Isa;
  /** Milliseconds before loading rejects with `'init-timeout'`: (0, 600000]; default 30000. */
  initTimeoutMs?: number;
  /**
   * Where to read the `.wasm` from, instead of the file shipped next to the
   * package (`dist/<build>/tessera.wasm`): one URL, or one per build. Use an
   * absolute URL: in Node a relative string or a plain path is not a URL.
   */
  wasmUrl?: WasmLocation | { threads?: WasmLocation; single?: WasmLocation };
  /** The worker script of mode `'worker'`, if a bundler moved the package's own. */
  workerUrl?: WasmLocation;
  /**
   * Where a copy of this package's `lib/` and `dist/` folders is served, for
   * bundlers that do not rewrite `new URL('...', import.meta.url)` (esbuild):
   * the threaded module's JavaScript, the `.wasm` files, the pthread worker,
   * the worker of mode `'worker'` and the message pool's helper script are
   * read from there (the single-threaded module's JavaScript is bundled).
   * Vite and webpack need nothing.
   */
  packageUrl?: WasmLocation;
  /** The `.wasm` bytes themselves (no fetch): one module, or one per build. */
  wasmBinary?: WasmBytes | { threads?: WasmBytes; single?: WasmBytes };
  /** Collect execution counters (see {@link Tessera.counters}); default false. */
  counters?: boolean;
  /** The most participants one kernel call may use: an integer in [0, 256]; 0 (default): no limit. */
  maxThreadsPerKernel?: number;
  /**
   * Check the kernels at load against double-precision loops (a few small
   * GEMMs, dot and exp; under 20 ms) and, if the SIMD level computes wrong
   * answers on this engine, run the scalar level instead and say so in
   * `info.fallbacks`. Default true; `info.selftest` says what it found.
   */
  selftest?: boolean;
  /**
   * A tuned profile to apply (docs/design.md §Profiles): the JSON text
   * tessera-tune writes, or that text parsed. A profile measured on another
   * CPU, ISA level or tessera version is not applied (`info.fallbacks` says
   * why) unless `profilePortable`; a malformed one rejects `load` with an
   * error naming the key. `info.profile` says what was applied.
   */
  profile?: string | Record<string, unknown>;
  /** Apply a `profile` measured elsewhere anyway (with a fallback saying so); default false. */
  profilePortable?: boolean;
}

/**
 * Loads the module and makes an instance. Never throws: every failure
 * rejects with a {@link TesseraError}.
 * @example
 * const t = await load({ mode: 'inline' });
 * const c = t.gemmSync({ m, n, k, a, b });
 */
export function load(options: LoadOptions & { mode: 'inline' }): Promise<InlineTessera>;
/** {@link load} in mode `'worker'`: every call of the instance returns a promise. */
export function load(options: LoadOptions & { mode: 'worker' }): Promise<WorkerTessera>;
/** {@link load} in mode `'auto'` (the default) or a mode known only at run time. */
export function load(options?: LoadOptions): Promise<Tessera>;

// ---- Instance facts -------------------------------------------------------------

/** How the instance was loaded and what it runs on (`tessera.info`). */
export interface TesseraInfo<M extends Mode = Mode> {
  /** The wasm build loaded: with a thread pool, or single-threaded. */
  readonly build: 'threads' | 'single';
  /** Whether the kernels use SIMD128 (`isa === 'simd128'`). */
  readonly simd: boolean;
  /** The instruction set the kernels use. */
  readonly isa: Isa;
  /**
   * Participants per call at most, the caller included: the thread pool's
   * (`policy.effective_threads`) or the message-passing pool's.
   */
  readonly threads: number;
  /**
   * Which pool runs parallel work: `'shared-memory'` (the threaded build),
   * `'message-passing'` (the single-threaded build plus `participants - 1`
   * workers with their own module, for `gemm`, `matmulInteger` and
   * `qlinearMatmul` only; `fallbacks` says why), or
   * `'none'`.
   */
  readonly pool: { readonly kind: 'shared-memory' | 'message-passing' | 'none'; readonly participants: number };
  /** Where the module runs. */
  readonly mode: M;
  /** The JavaScript host the module runs in (in mode `'worker'` on a page: `'worker'`). */
  readonly host: 'node' | 'browser' | 'worker';
  /** `globalThis.crossOriginIsolated` where the module runs; `null` where it is not defined (Node). */
  readonly crossOriginIsolated: boolean | null;
  /** Whether the wasm heap is a SharedArrayBuffer. */
  readonly sharedMemory: boolean;
  /** Whether tensors are used in place; false when worker mode copies arguments and results. */
  readonly zeroCopy: boolean;
  /** Every fallback taken while loading, each with its reason; empty when none. */
  readonly fallbacks: readonly string[];
  /** Milliseconds the module took to load. */
  readonly loadMs: number;
  /**
   * What the load-time self-test found (`policy.load_selftest`): "passed on
   * simd128 (...; 1.23 ms ...)", "off (TESSERA_SELFTEST = 0)" with
   * `selftest: false`; a level that failed is also in `fallbacks`.
   */
  readonly selftest: string;
  /**
   * The tuned profile in force (`policy.profile`): "none", or "applied from
   * tsr_context_options.profile_json: ..." with the settings it changed.
   */
  readonly profile: string;
  /** The execution policy in force, as {@link Tessera.resolvedPolicy} returned it at load. */
  readonly policy: ResolvedPolicy;
}

/**
 * The execution policy the instance resolved (the C API's JSON, so its keys
 * are snake_case).
 */
export interface ResolvedPolicy {
  /** Participants of the pool, the caller included. */
  effective_threads: number;
  /** The most participants one kernel call uses (<= `effective_threads`). */
  max_threads_per_kernel: number;
  /** Whether this build can run worker threads at all. */
  threads_usable: boolean;
  /** How `effective_threads` was decided. */
  threads_reason: string;
  /** Who runs the participants: one participant, tessera's pool, or an application executor. */
  executor: 'serial' | 'pool' | 'application';
  /** How workers are pinned to CPUs (always `'none'` in wasm). */
  affinity_policy: 'none' | 'physical_cores' | 'performance_cores' | 'physical_then_smt' | 'explicit';
  /** Per worker participant: its logical CPU; empty when not pinning. */
  worker_cpus: number[];
  /** Per worker participant: its physical core; empty when not pinning. */
  worker_cores: number[];
  /** Per worker participant: its core class; empty when not pinning. */
  worker_classes: Array<'performance' | 'efficiency' | 'unknown'>;
  /** Whether workers share physical cores with each other (SMT siblings). */
  uses_smt_siblings: boolean;
  /** The CPU the creating thread ran on; -1 when unknown. */
  caller_cpu: number;
  /** Whether the caller is pinned (always false). */
  caller_pinned: boolean;
  /** How a waiting thread spins before it blocks. */
  spin_policy: 'adaptive' | 'fixed_iterations' | 'fixed_duration' | 'park_immediately';
  /** Iterations or nanoseconds of spinning, for the fixed spin policies; else 0. */
  spin_budget: number;
  /** Whether idle workers are kept or released. */
  idle_policy: 'keep_workers' | 'release_when_idle';
  /** For `'release_when_idle'`: milliseconds without work before release. */
  idle_release_ms: number;
  /** Whether a kernel called inside a parallel region may fork again. */
  allow_nested_parallelism: boolean;
  /** Whether execution counters are collected. */
  counters: boolean;
  /** Size tiers of the native pool below full width (ignored by the wasm pool). */
  pool_classes: number;
  /** Every fallback taken while resolving, each with its reason. */
  fallbacks: string[];
  /** How the ISA level was checked at load (the load-time self-test). */
  load_selftest: string;
  /** The tuned profile applied, or "none" (and why, when one was given). */
  profile: string;
}

/**
 * Cumulative execution counters of the instance. All zero unless it was
 * loaded with `counters: true`. Numbers, exact up to 2^53.
 */
export interface Counters {
  /** Parallel regions started (2 or more participants). */
  dispatches: number;
  /** Regions run serially on the caller because the pool was busy or the call was nested. */
  serialFallbacks: number;
  /** Spin-wait iterations (workers waiting for work, the caller waiting for workers). */
  spins: number;
  /** Times a thread blocked. */
  parks: number;
  /** Times a blocked worker had to be woken. */
  wakeups: number;
  /** Regions where the caller finished its own part before the workers. */
  callerWaits: number;
  /** Nanoseconds workers spent running kernel bodies. */
  workerActiveNs: number;
  /** With a message-passing pool: GEMMs split over its workers (counted whatever `counters` is). */
  messagePoolSplitCalls?: number;
  /** With a message-passing pool: GEMMs its cost model kept on the caller. */
  messagePoolLocalCalls?: number;
  /** With a message-passing pool: bytes of operands sent to its workers. */
  messagePoolBytesSent?: number;
  /** With a message-passing pool: the last GEMM's decision and its reason. */
  messagePoolLastPlan?: string;
}

// ---- Tensors and operands ---------------------------------------------------------

/** The element arrays the float kernels take. */
export type FloatArray = Float32Array | Float64Array;
/** Every element array a tensor can hold: the float kernels', the integer GEMM's and the half formats' bits. */
export type ElementArray = FloatArray | Uint8Array | Int8Array | Int32Array | Uint16Array;

/**
 * The element type of a tensor: `'f32'` (Float32Array), `'f64'`
 * (Float64Array), `'u8'` (Uint8Array), `'i8'` (Int8Array), `'i32'`
 * (Int32Array) or `'u16'` (Uint16Array: f16 or bf16 values as their bits).
 */
export type Dtype = 'f32' | 'f64' | 'u8' | 'i8' | 'i32' | 'u16';
/** The dtype of an element array type. */
export type DtypeOf<A extends ElementArray> = A extends Float64Array ? 'f64'
  : A extends Float32Array ? 'f32'
  : A extends Uint8Array ? 'u8'
  : A extends Int8Array ? 'i8'
  : A extends Uint16Array ? 'u16'
  : 'i32';

/**
 * `length` elements in the instance's wasm heap ({@link Tessera.alloc}).
 * Passing a tensor to a kernel uses it in place, without the copy a typed
 * array costs. A tensor belongs to the instance that made it.
 */
export interface Tensor<A extends ElementArray = FloatArray> {
  /** The element type. */
  readonly dtype: DtypeOf<A>;
  /** Elements. */
  readonly length: number;
  /**
   * The elements, to read and write. Inline: a view on the heap, made again
   * if the heap grew, so read `data` again rather than keeping an old view.
   * Worker mode: a view on shared memory, or (when `info.zeroCopy` is
   * false) a local copy sent with every call and refreshed when the tensor
   * is a call's output.
   * @throws {TesseraError} `'disposed'` after {@link Tensor.dispose}.
   */
  readonly data: A;
  /** Frees the heap memory. Idempotent; the tensor is unusable afterwards. */
  dispose(): void;
}

/** A kernel operand: a typed array (copied in, and out for outputs) or a tensor of this instance (used in place). */
export type Operand<A extends FloatArray = FloatArray> = A | Tensor<A>;

/**
 * Arguments of `gemm`: C <- alpha op(A) op(B) + beta C, row-major, where
 * op(X) is X or its transpose; op(A) is m x k, op(B) k x n, C m x n. Results
 * are the same, bit for bit, for every thread count.
 * @typeParam A The element array: Float32Array or Float64Array; a, b and c share it.
 * @typeParam C The type of `c`, which the call returns.
 */
export interface GemmArgs<A extends FloatArray = FloatArray, C extends Operand<A> = Operand<A>> {
  /** Rows of op(A) and C: an integer >= 0. */
  m: number;
  /** Columns of op(B) and C: an integer >= 0. */
  n: number;
  /** Columns of op(A), rows of op(B): an integer >= 0. */
  k: number;
  /** A: (transA ? k : m) rows of `lda` elements (the last row: only its used part). */
  a: Operand<A>;
  /** B: (transB ? n : k) rows of `ldb` elements. */
  b: Operand<A>;
  /**
   * C, written in place: m rows of `ldc` elements; not the same array as
   * `a` or `b`. Omitted: a new array (then `beta` must be 0).
   */
  c?: C;
  /** Scale of op(A) op(B); default 1. */
  alpha?: number;
  /** Scale of C; default 0 (C is then not read). */
  beta?: number;
  /** Use A transposed; default false. */
  transA?: boolean;
  /** Use B transposed; default false. */
  transB?: boolean;
  /** Elements between rows of A; default its row length (transA ? m : k). */
  lda?: number;
  /** Elements between rows of B; default its row length (transB ? k : n). */
  ldb?: number;
  /** Elements between rows of C; default n. */
  ldc?: number;
  /**
   * A bias added in the fused epilogue, C = activation(alpha op(A) op(B) +
   * beta C + bias), while each tile is still in registers: n elements per
   * column (`biasKind` 'column', the default with a bias) or m per row
   * ('row'). Not the same array as `c`.
   */
  bias?: Operand<A>;
  /** How `bias` is laid out: 'column' (bias[j] for column j), 'row' (bias[i] for row i), or 'none' (no bias; the default without one). */
  biasKind?: 'none' | 'column' | 'row';
  /** Applied last in the fused epilogue: 'none' (default), 'relu', 'gelu' (the tanh form) or 'sigmoid'. */
  activation?: 'none' | 'relu' | 'gelu' | 'sigmoid';
  /**
   * Participants for this call: `'serial'` (the caller alone), 0 (default:
   * automatic), or n > 0 (at most n, capped by the instance and the work).
   */
  threads?: 'serial' | number;
}

/**
 * Arguments of `gemv`: y <- alpha op(A) x + beta y, A m x n row-major, op(A)
 * A or its transpose (then x has m entries and y n). x and y follow BLAS
 * increments: entry i is at i * inc, and a negative increment walks the
 * array from its far end. Results are the same, bit for bit, for every
 * thread count.
 * @typeParam A The element array: Float32Array or Float64Array; a, x and y share it.
 * @typeParam Y The type of `y`, which the call returns.
 */
export interface GemvArgs<A extends FloatArray = FloatArray, Y extends Operand<A> = Operand<A>> {
  /** Rows of A: an integer >= 0. */
  m: number;
  /** Columns of A: an integer >= 0. */
  n: number;
  /** A: m rows of `lda` elements (the last row: only its used part). */
  a: Operand<A>;
  /** x: (trans ? m : n) entries, `incx` apart. */
  x: Operand<A>;
  /** y, written in place: (trans ? n : m) entries, `incy` apart; not the same array as `a` or `x`. Omitted: a new array (then `beta` must be 0). */
  y?: Y;
  /** Scale of op(A) x; default 1. */
  alpha?: number;
  /** Scale of y; default 0 (y is then not read). As in BLAS, when m or n is 0, y is left unchanged. */
  beta?: number;
  /** Use A transposed; default false. */
  trans?: boolean;
  /** Elements between rows of A; default n. */
  lda?: number;
  /** Step between entries of x: a non-zero integer, default 1. */
  incx?: number;
  /** Step between entries of y: a non-zero integer, default 1. */
  incy?: number;
  /** Participants: `'serial'`, 0 (default: automatic) or n > 0. */
  threads?: 'serial' | number;
}

/** Options of `dot`. */
export interface DotOptions {
  /** Entries to multiply; default: as many as x holds at step `incx`. */
  n?: number;
  /** Step between entries of x: a non-zero integer, default 1. */
  incx?: number;
  /** Step between entries of y: a non-zero integer, default 1. */
  incy?: number;
  /** Participants: `'serial'`, 0 (default: automatic) or n > 0. */
  threads?: 'serial' | number;
}

/**
 * Options of the row reductions (`sumRows`, `maxRows`, `meanRows`,
 * `argmaxRows`): x is a rows x cols row-major matrix with `ld` elements
 * between rows; one value per row. Results are the same, bit for bit, for
 * every thread count.
 */
export interface RowsOptions<O> {
  /** Elements per row: an integer >= 0. */
  cols: number;
  /** Rows; default: the whole rows x holds (its length must then be whole rows). */
  rows?: number;
  /** Elements between rows of x; default cols. */
  ld?: number;
  /** Where the `rows` results go; omitted: a new array. (Not for argmaxRows.) */
  out?: O;
  /** Participants: `'serial'`, 0 (default: automatic) or n > 0. */
  threads?: 'serial' | number;
}

/**
 * Options of `softmax` / `logSoftmax` along each row of the rows x cols
 * row-major matrix x (the row maximum subtracted first; a row of -Infinity
 * gives NaN, as in PyTorch). `out` may be x itself (in place).
 */
export interface SoftmaxOptions<O> extends RowsOptions<O> {
  /** Elements between rows of out; default `ld`. */
  ldOut?: number;
}

/** An f32 operand: a Float32Array or an f32 tensor. */
/** An 8-bit operand of the integer GEMM: u8 or i8, as an array or a tensor. */
export type Int8Operand = Uint8Array | Int8Array | Tensor<Uint8Array> | Tensor<Int8Array>;
/** An int32 output of the integer GEMM. */
export type Int32Operand = Int32Array | Tensor<Int32Array>;
/** An 8-bit output of `qlinearMatmul`. */
export type Int8Output = Uint8Array | Int8Array | Tensor<Uint8Array> | Tensor<Int8Array>;

/**
 * What the integer GEMM's calls share: op(A) m x k and op(B) k x n, 8-bit
 * (u8 or i8 each), row-major as stored (leading dimensions `lda`, `ldb`),
 * zero points per tensor, and B's per tensor (a number) or per column (n
 * of them). The sums are exact, wrapping modulo 2^32, and the same bits on
 * every engine and thread count.
 */
export interface IntegerGemmArgs {
  m: number;
  n: number;
  k: number;
  a: Int8Operand;
  b: Int8Operand;
  /** A's zero point, in its type's range (default 0). */
  aZeroPoint?: number;
  /** B's zero point: one, or n (one per column of op(B)); default 0. */
  bZeroPoint?: number | ArrayLike<number>;
  transA?: boolean;
  transB?: boolean;
  lda?: number;
  ldb?: number;
  /** `'serial'`, 0 (automatic, the default) or n > 0 participants. */
  threads?: 'serial' | number;
}

/** Arguments of `matmulInteger` (ONNX MatMulInteger): C (int32) = (op(A) - aZeroPoint)(op(B) - bZeroPoint) + beta C. */
export interface MatmulIntegerArgs<C extends Int32Operand = Int32Array> extends IntegerGemmArgs {
  /** The output, m x n with leading dimension `ldc`; omitted: a new Int32Array (beta 0). */
  c?: C;
  /** 0 (default: C is overwritten) or 1 (accumulated into). */
  beta?: 0 | 1;
  ldc?: number;
}

/**
 * Arguments of `qlinearMatmul` (ONNX QLinearMatMul): y =
 * saturate(round_half_even(s * aScale * bScale[j] / yScale) + yZeroPoint),
 * the same bits as onnxruntime.
 */
export interface QLinearMatmulArgs<Y extends Int8Output = Uint8Array> extends IntegerGemmArgs {
  aScale: number;
  /** B's scale: one, or n per column (with bZeroPoint per column too). */
  bScale: number | ArrayLike<number>;
  yScale: number;
  yZeroPoint?: number;
  /** The output, m x n with leading dimension `ldy`; omitted: a new array of `yType`. */
  y?: Y;
  /** 'u8' or 'i8': y's type (default: y's, else 'u8'). */
  yType?: 'u8' | 'i8';
  ldy?: number;
}

/**
 * A Float16Array (Chromium 135 and later; its elements are f16 bits),
 * described by shape so that these declarations need no TypeScript lib
 * that declares it.
 */
export interface Float16ArrayLike extends ArrayBufferView {
  readonly length: number;
  readonly [Symbol.toStringTag]: 'Float16Array';
}
/** f16 values: their bits in a Uint16Array or u16 tensor, or a Float16Array. */
export type F16Operand = Uint16Array | Tensor<Uint16Array> | Float16ArrayLike;
/** bf16 values: their bits in a Uint16Array or u16 tensor. */
export type Bf16Operand = Uint16Array | Tensor<Uint16Array>;

/** A GEMM operand in f32, f16 or bf16 storage (a Uint16Array or u16 tensor needs its type named). */
export type HalfGemmOperand = Operand32 | F16Operand | Bf16Operand;
/** The storage of a half-precision GEMM operand. */
export type HalfStorage = 'f32' | 'f16' | 'bf16';

/**
 * `gemmHalf`: C <- alpha op(A) op(B) + beta C, row-major, each of A, B, C in
 * f32, f16 or bf16, f32 arithmetic. A Float32Array (or f32 tensor) is f32, a
 * Float16Array f16; the bits in a Uint16Array or u16 tensor need `aType` /
 * `bType` / `cType` ('f16' or 'bf16'). mode 'exact' (the default) gives the
 * bits of `gemm` on the widened operands, a 16-bit C that result rounded to
 * nearest even; 'fast' (bf16 x bf16 on a CPU's bf16 dot product) has no
 * kernel on the wasm levels and is an 'unsupported' error naming the level
 * (or, for an f16 or f32 A or B, saying it takes bf16).
 */
export interface GemmHalfArgs<C extends HalfGemmOperand = Float32Array> {
  m: number; n: number; k: number;
  a: HalfGemmOperand; b: HalfGemmOperand; c?: C;
  aType?: HalfStorage; bType?: HalfStorage; cType?: HalfStorage;
  alpha?: number; beta?: number;
  transA?: boolean; transB?: boolean;
  lda?: number; ldb?: number; ldc?: number;
  bias?: Operand32 | null; biasKind?: 'none' | 'column' | 'row';
  activation?: 'none' | 'relu' | 'gelu' | 'sigmoid';
  mode?: 'exact' | 'fast';
  threads?: 'serial' | number;
}
/** `gemvHalf`: gemv with A in f16 or bf16 (row-major, m x n), x and y f32. */
export interface GemvHalfArgs<Y extends Operand32 = Float32Array> {
  m: number; n: number;
  a: F16Operand | Bf16Operand; aType?: 'f16' | 'bf16';
  x: Operand32; y?: Y;
  alpha?: number; beta?: number; trans?: boolean; lda?: number;
  incx?: number; incy?: number;
  threads?: 'serial' | number;
}
/** `dotHalf`'s options: both vectors in `type` (needed for Uint16Arrays unless a Float16Array says f16). */
export interface DotHalfOptions {
  type?: 'f16' | 'bf16'; n?: number; incx?: number; incy?: number; threads?: 'serial' | number;
}

/** The result of `dynamicQuantizeLinear`: y and the scale and zero point it was quantized with. */
export interface DynamicQuantized<Y extends Uint8Array | Tensor<Uint8Array> = Uint8Array> {
  y: Y;
  scale: number;
  zeroPoint: number;
}

export type Operand32 = Operand<Float32Array>;
/** An f64 operand: a Float64Array or an f64 tensor. */
export type Operand64 = Operand<Float64Array>;

// ---- Instances -----------------------------------------------------------------

/**
 * A loaded instance, in either mode: what {@link load} returns for mode
 * `'auto'`. Kernels return promises in both modes; `alloc`, `counters`,
 * `resolvedPolicy` and `dispose` return a value inline and a promise in
 * worker mode, so `await` them. Kernels take typed arrays or tensors of this
 * instance; without `out` / `c` they return a new array, with it they
 * write it and return it.
 */
export interface Tessera {
  /** How the instance was loaded and what it runs on. */
  readonly info: TesseraInfo;
  /** Whether {@link Tessera.dispose} was called. */
  readonly disposed: boolean;

  /**
   * General matrix multiply (see {@link GemmArgs}), f32 or f64.
   * @returns `c`, or a new array of the operands' type when `c` is omitted.
   */
  gemm<C extends Operand32 = Float32Array>(args: GemmArgs<Float32Array, C>): Promise<C>;
  /** General matrix multiply, f64 (see {@link GemmArgs}). @returns `c`, or a new Float64Array. */
  gemm<C extends Operand64 = Float64Array>(args: GemmArgs<Float64Array, C>): Promise<C>;
  /**
   * Matrix-vector multiply (see {@link GemvArgs}), f32 or f64.
   * @returns `y`, or a new array of the operands' type when `y` is omitted.
   */
  gemv<Y extends Operand32 = Float32Array>(args: GemvArgs<Float32Array, Y>): Promise<Y>;
  /** Matrix-vector multiply, f64 (see {@link GemvArgs}). */
  gemv<Y extends Operand64 = Float64Array>(args: GemvArgs<Float64Array, Y>): Promise<Y>;
  /**
   * The dot product of x and y (f32 or f64; both the same type), summed in
   * fixed blocks combined in a fixed order: the same bits for every thread
   * count and on every target.
   */
  dot(x: Operand32, y: Operand32, options?: DotOptions): Promise<number>;
  /** {@link Tessera.dot} (f64). */
  dot(x: Operand64, y: Operand64, options?: DotOptions): Promise<number>;
  /**
   * out[i] = a[i] + b[i], f32 or f64 (a, b and out share the type). Same bits on
   * every target. `out` may be the very same array or tensor as `a` or `b`;
   * any other overlap is an error.
   * @returns `out`, or a new array of the operands' type.
   */
  add<O extends Operand32 = Float32Array>(a: Operand32, b: Operand32, out?: O): Promise<O>;
  /** {@link Tessera.add} (f64). */
  add<O extends Operand64 = Float64Array>(a: Operand64, b: Operand64, out?: O): Promise<O>;
  /**
   * out[i] = a[i] - b[i], f32 or f64 (a, b and out share the type). Same bits on
   * every target. `out` may be the very same array or tensor as `a` or `b`;
   * any other overlap is an error.
   * @returns `out`, or a new array of the operands' type.
   */
  sub<O extends Operand32 = Float32Array>(a: Operand32, b: Operand32, out?: O): Promise<O>;
  /** {@link Tessera.sub} (f64). */
  sub<O extends Operand64 = Float64Array>(a: Operand64, b: Operand64, out?: O): Promise<O>;
  /**
   * out[i] = a[i] * b[i], f32 or f64 (a, b and out share the type). Same bits on
   * every target. `out` may be the very same array or tensor as `a` or `b`;
   * any other overlap is an error.
   * @returns `out`, or a new array of the operands' type.
   */
  mul<O extends Operand32 = Float32Array>(a: Operand32, b: Operand32, out?: O): Promise<O>;
  /** {@link Tessera.mul} (f64). */
  mul<O extends Operand64 = Float64Array>(a: Operand64, b: Operand64, out?: O): Promise<O>;
  /**
   * out[i] = a[i] / b[i] (IEEE division, correctly rounded), f32 or f64 (a, b and out share the type). Same bits on
   * every target. `out` may be the very same array or tensor as `a` or `b`;
   * any other overlap is an error.
   * @returns `out`, or a new array of the operands' type.
   */
  div<O extends Operand32 = Float32Array>(a: Operand32, b: Operand32, out?: O): Promise<O>;
  /** {@link Tessera.div} (f64). */
  div<O extends Operand64 = Float64Array>(a: Operand64, b: Operand64, out?: O): Promise<O>;
  /**
   * out[i] = minimum(a[i], b[i]) as NumPy's np.minimum: a NaN operand propagates, -0 < +0, f32 or f64 (a, b and out share the type). Same bits on
   * every target. `out` may be the very same array or tensor as `a` or `b`;
   * any other overlap is an error.
   * @returns `out`, or a new array of the operands' type.
   */
  min<O extends Operand32 = Float32Array>(a: Operand32, b: Operand32, out?: O): Promise<O>;
  /** {@link Tessera.min} (f64). */
  min<O extends Operand64 = Float64Array>(a: Operand64, b: Operand64, out?: O): Promise<O>;
  /**
   * out[i] = maximum(a[i], b[i]) as NumPy's np.maximum: a NaN operand propagates, -0 < +0, f32 or f64 (a, b and out share the type). Same bits on
   * every target. `out` may be the very same array or tensor as `a` or `b`;
   * any other overlap is an error.
   * @returns `out`, or a new array of the operands' type.
   */
  max<O extends Operand32 = Float32Array>(a: Operand32, b: Operand32, out?: O): Promise<O>;
  /** {@link Tessera.max} (f64). */
  max<O extends Operand64 = Float64Array>(a: Operand64, b: Operand64, out?: O): Promise<O>;
  /**
   * out[i] = |x[i]| (clears the sign bit), f32 or f64. `out` may be the very same array or tensor as `x`.
   * @returns `out`, or a new array of the operand's type.
   */
  abs<O extends Operand32 = Float32Array>(x: Operand32, out?: O): Promise<O>;
  /** {@link Tessera.abs} (f64). */
  abs<O extends Operand64 = Float64Array>(x: Operand64, out?: O): Promise<O>;
  /**
   * out[i] = -x[i] (flips the sign bit), f32 or f64. `out` may be the very same array or tensor as `x`.
   * @returns `out`, or a new array of the operand's type.
   */
  neg<O extends Operand32 = Float32Array>(x: Operand32, out?: O): Promise<O>;
  /** {@link Tessera.neg} (f64). */
  neg<O extends Operand64 = Float64Array>(x: Operand64, out?: O): Promise<O>;
  /**
   * out[i] = sqrt(x[i]), correctly rounded, f32 or f64. `out` may be the very same array or tensor as `x`.
   * @returns `out`, or a new array of the operand's type.
   */
  sqrt<O extends Operand32 = Float32Array>(x: Operand32, out?: O): Promise<O>;
  /** {@link Tessera.sqrt} (f64). */
  sqrt<O extends Operand64 = Float64Array>(x: Operand64, out?: O): Promise<O>;
  /**
   * out[i] = x[i] < 0 ? 0 : x[i] (NaN and -0 pass through), f32 or f64. `out` may be the very same array or tensor as `x`.
   * @returns `out`, or a new array of the operand's type.
   */
  relu<O extends Operand32 = Float32Array>(x: Operand32, out?: O): Promise<O>;
  /** {@link Tessera.relu} (f64). */
  relu<O extends Operand64 = Float64Array>(x: Operand64, out?: O): Promise<O>;
  /**
   * out[i] = e^x[i], within 1 ulp (f32 and f64); overflow gives +Infinity, underflow goes through the subnormals to +0. The bits are the same in every JavaScript engine and on native SSE2. `out` may be the very same array or tensor as `x`.
   * @returns `out`, or a new array of the operand's type.
   */
  exp<O extends Operand32 = Float32Array>(x: Operand32, out?: O): Promise<O>;
  /** {@link Tessera.exp} (f64). */
  exp<O extends Operand64 = Float64Array>(x: Operand64, out?: O): Promise<O>;
  /**
   * out[i] = ln x[i], within 1 ulp; log(±0) = -Infinity, log(x < 0) = NaN. The bits are the same in every JavaScript engine and on native SSE2. `out` may be the very same array or tensor as `x`.
   * @returns `out`, or a new array of the operand's type.
   */
  log<O extends Operand32 = Float32Array>(x: Operand32, out?: O): Promise<O>;
  /** {@link Tessera.log} (f64). */
  log<O extends Operand64 = Float64Array>(x: Operand64, out?: O): Promise<O>;
  /**
   * out[i] = tanh x[i], within 2 ulp (f32) / 3 ulp (f64); tanh(±Infinity) = ±1. The bits are the same in every JavaScript engine and on native SSE2. `out` may be the very same array or tensor as `x`.
   * @returns `out`, or a new array of the operand's type.
   */
  tanh<O extends Operand32 = Float32Array>(x: Operand32, out?: O): Promise<O>;
  /** {@link Tessera.tanh} (f64). */
  tanh<O extends Operand64 = Float64Array>(x: Operand64, out?: O): Promise<O>;
  /**
   * out[i] = 1 / (1 + e^-x[i]), within 2 ulp; sigmoid(-Infinity) = +0. The bits are the same in every JavaScript engine and on native SSE2. `out` may be the very same array or tensor as `x`.
   * @returns `out`, or a new array of the operand's type.
   */
  sigmoid<O extends Operand32 = Float32Array>(x: Operand32, out?: O): Promise<O>;
  /** {@link Tessera.sigmoid} (f64). */
  sigmoid<O extends Operand64 = Float64Array>(x: Operand64, out?: O): Promise<O>;
  /**
   * out[i] = 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))) (the tanh form), within 256 ulp (the negative tail is ill-conditioned; 13 ulp for x >= -3 in f32). The bits are the same in every JavaScript engine and on native SSE2. `out` may be the very same array or tensor as `x`.
   * @returns `out`, or a new array of the operand's type.
   */
  gelu<O extends Operand32 = Float32Array>(x: Operand32, out?: O): Promise<O>;
  /** {@link Tessera.gelu} (f64). */
  gelu<O extends Operand64 = Float64Array>(x: Operand64, out?: O): Promise<O>;
  /** The sum of each row (fixed blocks combined in a fixed order). @returns `out`, or a new array of `rows` values. */
  sumRows<O extends Operand32 = Float32Array>(x: Operand32, options: RowsOptions<O>): Promise<O>;
  /** {@link Tessera.sumRows} (f64). */
  sumRows<O extends Operand64 = Float64Array>(x: Operand64, options: RowsOptions<O>): Promise<O>;
  /** The maximum of each row (NaN if the row has one). @returns `out`, or a new array of `rows` values. */
  maxRows<O extends Operand32 = Float32Array>(x: Operand32, options: RowsOptions<O>): Promise<O>;
  /** {@link Tessera.maxRows} (f64). */
  maxRows<O extends Operand64 = Float64Array>(x: Operand64, options: RowsOptions<O>): Promise<O>;
  /** The mean of each row (its sum divided by cols). @returns `out`, or a new array of `rows` values. */
  meanRows<O extends Operand32 = Float32Array>(x: Operand32, options: RowsOptions<O>): Promise<O>;
  /** {@link Tessera.meanRows} (f64). */
  meanRows<O extends Operand64 = Float64Array>(x: Operand64, options: RowsOptions<O>): Promise<O>;
  /** The index of the first maximum of each row (a NaN counts as the maximum), as an Int32Array of `rows` indices. */
  argmaxRows(x: Operand32, options: RowsOptions<never>): Promise<Int32Array>;
  /** {@link Tessera.argmaxRows} (f64). */
  argmaxRows(x: Operand64, options: RowsOptions<never>): Promise<Int32Array>;
  /** Softmax along each row: exp(x - max) / sum. @returns `out`, or a new array. */
  softmax<O extends Operand32 = Float32Array>(x: Operand32, options: SoftmaxOptions<O>): Promise<O>;
  /** {@link Tessera.softmax} (f64). */
  softmax<O extends Operand64 = Float64Array>(x: Operand64, options: SoftmaxOptions<O>): Promise<O>;
  /** Log-softmax along each row: (x - max) - log(sum exp(x - max)). @returns `out`, or a new array. */
  logSoftmax<O extends Operand32 = Float32Array>(x: Operand32, options: SoftmaxOptions<O>): Promise<O>;
  /** {@link Tessera.logSoftmax} (f64). */
  logSoftmax<O extends Operand64 = Float64Array>(x: Operand64, options: SoftmaxOptions<O>): Promise<O>;

  /**
   * MatMulInteger: the exact integer product of 8-bit operands.
   * @returns `c`, or a new Int32Array.
   */
  matmulInteger<C extends Int32Operand = Int32Array>(args: MatmulIntegerArgs<C>): Promise<C>;
  /**
   * QLinearMatMul: the integer product requantized to u8 or i8.
   * @returns `y`, or a new array of `yType`.
   */
  qlinearMatmul(args: QLinearMatmulArgs<Int8Array> & { yType: 'i8'; y?: undefined }): Promise<Int8Array>;
  qlinearMatmul<Y extends Int8Output = Uint8Array>(args: QLinearMatmulArgs<Y>): Promise<Y>;
  /**
   * DynamicQuantizeLinear: x (finite) to u8 with the scale and zero point of
   * its range, as onnxruntime computes them.
   */
  dynamicQuantizeLinear<Y extends Uint8Array | Tensor<Uint8Array> = Uint8Array>(
    x: Operand32, y?: Y, options?: { threads?: 'serial' | number }): Promise<DynamicQuantized<Y>>;

  /**
   * f32 to f16, rounded to nearest even (past 65504 by half an ulp or more:
   * infinity); subnormals, signed zeros and NaN payloads kept. The same
   * bits on every engine and thread count.
   * @returns `y`, or a new Uint16Array of the bits.
   */
  toF16<Y extends F16Operand = Uint16Array>(x: Operand32, y?: Y, options?: { threads?: 'serial' | number }): Promise<Y>;
  /** f16 (bits, or a Float16Array) to f32, exact. @returns `y`, or a new Float32Array. */
  fromF16<Y extends Operand32 = Float32Array>(x: F16Operand, y?: Y, options?: { threads?: 'serial' | number }): Promise<Y>;
  /** f32 to bf16, rounded to nearest even. @returns `y`, or a new Uint16Array of the bits. */
  toBf16<Y extends Bf16Operand = Uint16Array>(x: Operand32, y?: Y, options?: { threads?: 'serial' | number }): Promise<Y>;
  /** bf16 bits to f32, exact. @returns `y`, or a new Float32Array. */
  fromBf16<Y extends Operand32 = Float32Array>(x: Bf16Operand, y?: Y, options?: { threads?: 'serial' | number }): Promise<Y>;
  /** GEMM on f16 / bf16 (and f32) operands: {@link GemmHalfArgs}. @returns `c`, or a new Float32Array (Uint16Array for a 16-bit `cType`). */
  gemmHalf<C extends HalfGemmOperand = Float32Array>(args: GemmHalfArgs<C>): Promise<C>;
  /** gemv with A in f16 or bf16: the bits of `gemv` on the widened A, reading half the bytes. @returns `y`. */
  gemvHalf<Y extends Operand32 = Float32Array>(args: GemvHalfArgs<Y>): Promise<Y>;
  /** dot of two f16 (or two bf16) vectors: the bits of `dot` on the widened vectors. */
  dotHalf(x: F16Operand | Bf16Operand, y: F16Operand | Bf16Operand, options?: DotHalfOptions): Promise<number>;

  /**
   * A tensor of `length` elements in the wasm heap (contents unspecified).
   * `Type` is Float32Array, Float64Array, Uint8Array, Int8Array, Int32Array or Uint16Array.
   */
  alloc(Type: Float32ArrayConstructor, length: number): Tensor<Float32Array> | Promise<Tensor<Float32Array>>;
  alloc(Type: Float64ArrayConstructor, length: number): Tensor<Float64Array> | Promise<Tensor<Float64Array>>;
  alloc(Type: Uint8ArrayConstructor, length: number): Tensor<Uint8Array> | Promise<Tensor<Uint8Array>>;
  alloc(Type: Int8ArrayConstructor, length: number): Tensor<Int8Array> | Promise<Tensor<Int8Array>>;
  alloc(Type: Int32ArrayConstructor, length: number): Tensor<Int32Array> | Promise<Tensor<Int32Array>>;
  alloc(Type: Uint16ArrayConstructor, length: number): Tensor<Uint16Array> | Promise<Tensor<Uint16Array>>;
  /** The execution counters so far (all zero unless loaded with `counters: true`). */
  counters(): Counters | Promise<Counters>;
  /** The execution policy in force. */
  resolvedPolicy(): ResolvedPolicy | Promise<ResolvedPolicy>;
  /**
   * Frees the instance and stops its threads (and its Worker); needed for a
   * Node process to exit. Idempotent. Calls afterwards fail with `'disposed'`.
   */
  dispose(): void | Promise<void>;
}

/**
 * An instance running on the calling thread (mode `'inline'`): results
 * without promises, and a blocking `*Sync` form of every kernel.
 */
export interface InlineTessera extends Tessera {
  readonly info: TesseraInfo<'inline'>;

  /**
   * {@link Tessera.gemm}, blocking the calling thread until done.
   * @throws {TesseraError}
   */
  gemmSync<C extends Operand32 = Float32Array>(args: GemmArgs<Float32Array, C>): C;
  /** {@link Tessera.gemm} (f64), blocking. @throws {TesseraError} */
  gemmSync<C extends Operand64 = Float64Array>(args: GemmArgs<Float64Array, C>): C;
  /** {@link Tessera.gemv}, blocking. @throws {TesseraError} */
  gemvSync<Y extends Operand32 = Float32Array>(args: GemvArgs<Float32Array, Y>): Y;
  /** {@link Tessera.gemv} (f64), blocking. @throws {TesseraError} */
  gemvSync<Y extends Operand64 = Float64Array>(args: GemvArgs<Float64Array, Y>): Y;
  /** {@link Tessera.dot}, blocking. @throws {TesseraError} */
  dotSync(x: Operand32, y: Operand32, options?: DotOptions): number;
  /** {@link Tessera.dot} (f64), blocking. @throws {TesseraError} */
  dotSync(x: Operand64, y: Operand64, options?: DotOptions): number;
  /** {@link Tessera.add}, blocking. @throws {TesseraError} */
  addSync<O extends Operand32 = Float32Array>(a: Operand32, b: Operand32, out?: O): O;
  /** {@link Tessera.add} (f64), blocking. @throws {TesseraError} */
  addSync<O extends Operand64 = Float64Array>(a: Operand64, b: Operand64, out?: O): O;
  /** {@link Tessera.sub}, blocking. @throws {TesseraError} */
  subSync<O extends Operand32 = Float32Array>(a: Operand32, b: Operand32, out?: O): O;
  /** {@link Tessera.sub} (f64), blocking. @throws {TesseraError} */
  subSync<O extends Operand64 = Float64Array>(a: Operand64, b: Operand64, out?: O): O;
  /** {@link Tessera.mul}, blocking. @throws {TesseraError} */
  mulSync<O extends Operand32 = Float32Array>(a: Operand32, b: Operand32, out?: O): O;
  /** {@link Tessera.mul} (f64), blocking. @throws {TesseraError} */
  mulSync<O extends Operand64 = Float64Array>(a: Operand64, b: Operand64, out?: O): O;
  /** {@link Tessera.div}, blocking. @throws {TesseraError} */
  divSync<O extends Operand32 = Float32Array>(a: Operand32, b: Operand32, out?: O): O;
  /** {@link Tessera.div} (f64), blocking. @throws {TesseraError} */
  divSync<O extends Operand64 = Float64Array>(a: Operand64, b: Operand64, out?: O): O;
  /** {@link Tessera.min}, blocking. @throws {TesseraError} */
  minSync<O extends Operand32 = Float32Array>(a: Operand32, b: Operand32, out?: O): O;
  /** {@link Tessera.min} (f64), blocking. @throws {TesseraError} */
  minSync<O extends Operand64 = Float64Array>(a: Operand64, b: Operand64, out?: O): O;
  /** {@link Tessera.max}, blocking. @throws {TesseraError} */
  maxSync<O extends Operand32 = Float32Array>(a: Operand32, b: Operand32, out?: O): O;
  /** {@link Tessera.max} (f64), blocking. @throws {TesseraError} */
  maxSync<O extends Operand64 = Float64Array>(a: Operand64, b: Operand64, out?: O): O;
  /** {@link Tessera.abs}, blocking. @throws {TesseraError} */
  absSync<O extends Operand32 = Float32Array>(x: Operand32, out?: O): O;
  /** {@link Tessera.abs} (f64), blocking. @throws {TesseraError} */
  absSync<O extends Operand64 = Float64Array>(x: Operand64, out?: O): O;
  /** {@link Tessera.neg}, blocking. @throws {TesseraError} */
  negSync<O extends Operand32 = Float32Array>(x: Operand32, out?: O): O;
  /** {@link Tessera.neg} (f64), blocking. @throws {TesseraError} */
  negSync<O extends Operand64 = Float64Array>(x: Operand64, out?: O): O;
  /** {@link Tessera.sqrt}, blocking. @throws {TesseraError} */
  sqrtSync<O extends Operand32 = Float32Array>(x: Operand32, out?: O): O;
  /** {@link Tessera.sqrt} (f64), blocking. @throws {TesseraError} */
  sqrtSync<O extends Operand64 = Float64Array>(x: Operand64, out?: O): O;
  /** {@link Tessera.relu}, blocking. @throws {TesseraError} */
  reluSync<O extends Operand32 = Float32Array>(x: Operand32, out?: O): O;
  /** {@link Tessera.relu} (f64), blocking. @throws {TesseraError} */
  reluSync<O extends Operand64 = Float64Array>(x: Operand64, out?: O): O;
  /** {@link Tessera.exp}, blocking. @throws {TesseraError} */
  expSync<O extends Operand32 = Float32Array>(x: Operand32, out?: O): O;
  /** {@link Tessera.exp} (f64), blocking. @throws {TesseraError} */
  expSync<O extends Operand64 = Float64Array>(x: Operand64, out?: O): O;
  /** {@link Tessera.log}, blocking. @throws {TesseraError} */
  logSync<O extends Operand32 = Float32Array>(x: Operand32, out?: O): O;
  /** {@link Tessera.log} (f64), blocking. @throws {TesseraError} */
  logSync<O extends Operand64 = Float64Array>(x: Operand64, out?: O): O;
  /** {@link Tessera.tanh}, blocking. @throws {TesseraError} */
  tanhSync<O extends Operand32 = Float32Array>(x: Operand32, out?: O): O;
  /** {@link Tessera.tanh} (f64), blocking. @throws {TesseraError} */
  tanhSync<O extends Operand64 = Float64Array>(x: Operand64, out?: O): O;
  /** {@link Tessera.sigmoid}, blocking. @throws {TesseraError} */
  sigmoidSync<O extends Operand32 = Float32Array>(x: Operand32, out?: O): O;
  /** {@link Tessera.sigmoid} (f64), blocking. @throws {TesseraError} */
  sigmoidSync<O extends Operand64 = Float64Array>(x: Operand64, out?: O): O;
  /** {@link Tessera.gelu}, blocking. @throws {TesseraError} */
  geluSync<O extends Operand32 = Float32Array>(x: Operand32, out?: O): O;
  /** {@link Tessera.gelu} (f64), blocking. @throws {TesseraError} */
  geluSync<O extends Operand64 = Float64Array>(x: Operand64, out?: O): O;
  /** {@link Tessera.sumRows}, blocking. @throws {TesseraError} */
  sumRowsSync<O extends Operand32 = Float32Array>(x: Operand32, options: RowsOptions<O>): O;
  /** {@link Tessera.sumRows} (f64), blocking. @throws {TesseraError} */
  sumRowsSync<O extends Operand64 = Float64Array>(x: Operand64, options: RowsOptions<O>): O;
  /** {@link Tessera.maxRows}, blocking. @throws {TesseraError} */
  maxRowsSync<O extends Operand32 = Float32Array>(x: Operand32, options: RowsOptions<O>): O;
  /** {@link Tessera.maxRows} (f64), blocking. @throws {TesseraError} */
  maxRowsSync<O extends Operand64 = Float64Array>(x: Operand64, options: RowsOptions<O>): O;
  /** {@link Tessera.meanRows}, blocking. @throws {TesseraError} */
  meanRowsSync<O extends Operand32 = Float32Array>(x: Operand32, options: RowsOptions<O>): O;
  /** {@link Tessera.meanRows} (f64), blocking. @throws {TesseraError} */
  meanRowsSync<O extends Operand64 = Float64Array>(x: Operand64, options: RowsOptions<O>): O;
  /** {@link Tessera.argmaxRows}, blocking. @throws {TesseraError} */
  argmaxRowsSync(x: Operand32, options: RowsOptions<never>): Int32Array;
  /** {@link Tessera.argmaxRows} (f64), blocking. @throws {TesseraError} */
  argmaxRowsSync(x: Operand64, options: RowsOptions<never>): Int32Array;
  /** {@link Tessera.softmax}, blocking. @throws {TesseraError} */
  softmaxSync<O extends Operand32 = Float32Array>(x: Operand32, options: SoftmaxOptions<O>): O;
  /** {@link Tessera.softmax} (f64), blocking. @throws {TesseraError} */
  softmaxSync<O extends Operand64 = Float64Array>(x: Operand64, options: SoftmaxOptions<O>): O;
  /** {@link Tessera.logSoftmax}, blocking. @throws {TesseraError} */
  logSoftmaxSync<O extends Operand32 = Float32Array>(x: Operand32, options: SoftmaxOptions<O>): O;
  /** {@link Tessera.logSoftmax} (f64), blocking. @throws {TesseraError} */
  logSoftmaxSync<O extends Operand64 = Float64Array>(x: Operand64, options: SoftmaxOptions<O>): O;

  /** {@link Tessera.matmulInteger}, blocking. @throws {TesseraError} */
  matmulIntegerSync<C extends Int32Operand = Int32Array>(args: MatmulIntegerArgs<C>): C;
  /** {@link Tessera.qlinearMatmul}, blocking. @throws {TesseraError} */
  qlinearMatmulSync(args: QLinearMatmulArgs<Int8Array> & { yType: 'i8'; y?: undefined }): Int8Array;
  qlinearMatmulSync<Y extends Int8Output = Uint8Array>(args: QLinearMatmulArgs<Y>): Y;
  /** {@link Tessera.dynamicQuantizeLinear}, blocking. @throws {TesseraError} */
  dynamicQuantizeLinearSync<Y extends Uint8Array | Tensor<Uint8Array> = Uint8Array>(
    x: Operand32, y?: Y, options?: { threads?: 'serial' | number }): DynamicQuantized<Y>;
  /** {@link Tessera.toF16}, blocking. @throws {TesseraError} */
  toF16Sync<Y extends F16Operand = Uint16Array>(x: Operand32, y?: Y, options?: { threads?: 'serial' | number }): Y;
  /** {@link Tessera.fromF16}, blocking. @throws {TesseraError} */
  fromF16Sync<Y extends Operand32 = Float32Array>(x: F16Operand, y?: Y, options?: { threads?: 'serial' | number }): Y;
  /** {@link Tessera.toBf16}, blocking. @throws {TesseraError} */
  toBf16Sync<Y extends Bf16Operand = Uint16Array>(x: Operand32, y?: Y, options?: { threads?: 'serial' | number }): Y;
  /** {@link Tessera.fromBf16}, blocking. @throws {TesseraError} */
  fromBf16Sync<Y extends Operand32 = Float32Array>(x: Bf16Operand, y?: Y, options?: { threads?: 'serial' | number }): Y;
  /** {@link Tessera.gemmHalf}, blocking. @throws {TesseraError} */
  gemmHalfSync<C extends HalfGemmOperand = Float32Array>(args: GemmHalfArgs<C>): C;
  /** {@link Tessera.gemvHalf}, blocking. @throws {TesseraError} */
  gemvHalfSync<Y extends Operand32 = Float32Array>(args: GemvHalfArgs<Y>): Y;
  /** {@link Tessera.dotHalf}, blocking. @throws {TesseraError} */
  dotHalfSync(x: F16Operand | Bf16Operand, y: F16Operand | Bf16Operand, options?: DotHalfOptions): number;

  /** {@link Tessera.alloc}. @throws {TesseraError} `'invalid-argument'`, `'out-of-memory'`, `'disposed'`. */
  alloc(Type: Float32ArrayConstructor, length: number): Tensor<Float32Array>;
  alloc(Type: Float64ArrayConstructor, length: number): Tensor<Float64Array>;
  alloc(Type: Uint8ArrayConstructor, length: number): Tensor<Uint8Array>;
  alloc(Type: Int8ArrayConstructor, length: number): Tensor<Int8Array>;
  alloc(Type: Int32ArrayConstructor, length: number): Tensor<Int32Array>;
  alloc(Type: Uint16ArrayConstructor, length: number): Tensor<Uint16Array>;
  /** {@link Tessera.counters}. */
  counters(): Counters;
  /** {@link Tessera.resolvedPolicy}. */
  resolvedPolicy(): ResolvedPolicy;
  /** {@link Tessera.dispose}. */
  dispose(): void;
}

/**
 * An instance whose module runs in a dedicated Worker (mode `'worker'`):
 * the calling thread never blocks, every call returns a promise. (Its
 * `*Sync` members only throw `'unsupported'`, so they are not declared.)
 */
export interface WorkerTessera extends Tessera {
  readonly info: TesseraInfo<'worker'>;

  /** {@link Tessera.alloc}. */
  alloc(Type: Float32ArrayConstructor, length: number): Promise<Tensor<Float32Array>>;
  alloc(Type: Float64ArrayConstructor, length: number): Promise<Tensor<Float64Array>>;
  alloc(Type: Uint8ArrayConstructor, length: number): Promise<Tensor<Uint8Array>>;
  alloc(Type: Int8ArrayConstructor, length: number): Promise<Tensor<Int8Array>>;
  alloc(Type: Int32ArrayConstructor, length: number): Promise<Tensor<Int32Array>>;
  alloc(Type: Uint16ArrayConstructor, length: number): Promise<Tensor<Uint16Array>>;
  /** {@link Tessera.counters}. */
  counters(): Promise<Counters>;
  /** {@link Tessera.resolvedPolicy}. */
  resolvedPolicy(): Promise<ResolvedPolicy>;
  /** {@link Tessera.dispose}; resolves when the Worker has stopped. */
  dispose(): Promise<void>;
}
