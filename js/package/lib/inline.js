// Loads the module on this thread and makes the instance's context.
import createSingleModule from '../dist/single/tessera.mjs';
import { platform } from './platform.js';

import { checkModuleAbi, fieldOffset, statusCode, structSize } from './abi.js';
import { TesseraError } from './errors.js';
import { checkWasm } from './fetch-binary.js';
import { InlineTessera } from './instance.js';
import { chooseBuild } from './options.js';
import { startMessagePool } from './message-pool.js';
import { packageFile } from './package-files.js';

function pick(value, build) {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string' || value instanceof URL || value instanceof ArrayBuffer || ArrayBuffer.isView(value)) {
    return value;
  }
  return value[build];
}

function withTimeout(promise, ms, what) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new TesseraError('init-timeout', `${what} did not finish within initTimeoutMs = ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

function writeString(module, text) {
  const bytes = module.lengthBytesUTF8(text) + 1;
  const ptr = module._malloc(bytes);
  module.stringToUTF8(text, ptr, bytes);
  return ptr;
}

export async function loadInline(o, mode) {
  const choice = chooseBuild(o, platform.logicalCpus(), globalThis, platform.canStartWorkers());
  const build = choice.build;
  const started = Date.now();
  let bytes;
  const setup = (async () => {
    bytes = pick(o.wasmBinary, build);
    const url = pick(o.wasmUrl, build) ?? packageFile(build, 'wasm', o.packageUrl);
    if (bytes === undefined) bytes = await platform.readBinary(url);
    bytes = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes.buffer ?? bytes, bytes.byteOffset ?? 0, bytes.byteLength);
    checkWasm(bytes, o.wasmBinary !== undefined ? 'wasmBinary' : String(url));
    // The single-threaded module is imported statically (bundled with the
    // package: it starts no workers, and a Service Worker allows no
    // dynamic import()). The threaded one is imported from its URL (the
    // comments keep webpack and Vite from bundling it): a bundled copy
    // would have the bundle's import.meta.url, and its pthread workers
    // import the module from the URL they are given.
    const moduleUrl = build === 'threads' ? packageFile(build, 'module', o.packageUrl).href : null;
    let createTesseraModule = createSingleModule;
    if (build === 'threads') {
      try {
        ({ default: createTesseraModule } = await import(/* webpackIgnore: true */ /* @vite-ignore */ moduleUrl));
      } catch (error) {
        throw new TesseraError('wasm-fetch', `cannot import the threads build's JavaScript from ${moduleUrl}: ${error?.message ?? String(error)}`, { cause: error });
      }
    }
    const settings = {
      ...platform.moduleSettings(moduleUrl, build === 'threads' ? packageFile(build, 'pthreadWorker', o.packageUrl) : null),
      wasmBinary: bytes,
      tesseraEnv: { TESSERA_WASM_THREADS: String(choice.threads), TESSERA_SELFTEST: o.selftest ? '1' : '0' },
      print: () => {},
      printErr: (text) => { if (typeof console === 'object') console.warn(`tessera: ${text}`); },
    };
    if (build === 'threads') settings.tesseraWasmThreads = choice.threads;
    return createTesseraModule(settings);
  })();
  let module;
  try {
    module = await withTimeout(setup, o.initTimeoutMs, `loading the ${build} build`);
  } catch (error) {
    // A module that finishes after the timeout must not keep threads alive.
    setup.then((m) => m.PThread?.terminateAllThreads(), () => {});
    if (error instanceof TesseraError) throw error;
    // The runtime's own failures (a .wasm with the right magic number that
    // does not compile, an instantiation error) as the package's errors.
    const compile = /CompileError|LinkError|Aborted/.test(String(error));
    throw new TesseraError(compile ? 'not-wasm' : 'internal',
      `loading the ${build} build failed: ${error?.message ?? String(error)}`, { cause: error });
  }

  const m = module;
  try {
    checkModuleAbi(m, build);
  } catch (error) {
    m.PThread?.terminateAllThreads();
    throw error;
  }
  // The context: isa, counters and max_threads_per_kernel through the C API
  // structs (tessera.h), at the offsets the module reported (lib/abi.js).
  const optionsPtr = m._malloc(structSize('tsr_context_options'));
  const policyPtr = m._malloc(structSize('tsr_execution_policy'));
  const outPtr = m._malloc(4);
  const isaPtr = o.isa !== undefined ? writeString(m, o.isa) : 0;
  const profileText = o.profile === undefined ? undefined
    : typeof o.profile === 'string' ? o.profile : JSON.stringify(o.profile);
  const profilePtr = profileText !== undefined ? writeString(m, profileText) : 0;
  let context = 0;
  let status;
  try {
    const field = (struct, name, bytes) => fieldOffset(struct, name, bytes) >> 2;
    m.HEAPU32[(optionsPtr >> 2) + field('tsr_context_options', 'isa', 4)] = isaPtr;
    m.HEAP32[(optionsPtr >> 2) + field('tsr_context_options', 'naive', 4)] = 0;
    m.HEAP32[(optionsPtr >> 2) + field('tsr_context_options', 'ignore_environment', 4)] = 0;
    m.HEAPU32[(optionsPtr >> 2) + field('tsr_context_options', 'profile_json', 4)] = profilePtr;
    m.HEAPU32[(optionsPtr >> 2) + field('tsr_context_options', 'profile_path', 4)] = 0;
    m.HEAP32[(optionsPtr >> 2) + field('tsr_context_options', 'profile_portable', 4)] = o.profilePortable ? 1 : 0;
    m._tsr_execution_policy_init(policyPtr);
    m.HEAP32[(policyPtr >> 2) + field('tsr_execution_policy', 'max_threads_per_kernel', 4)] = o.maxThreadsPerKernel;
    m.HEAP32[(policyPtr >> 2) + field('tsr_execution_policy', 'counters', 4)] = o.counters ? 1 : 0;
    status = m._tsr_context_create_with_policy(optionsPtr, policyPtr, outPtr);
    context = m.HEAPU32[outPtr >> 2];
  } finally {
    for (const p of [optionsPtr, policyPtr, outPtr, isaPtr, profilePtr]) if (p) m._free(p);
  }
  if (status !== 0) {
    const message = m.UTF8ToString(m._tsr_last_error_message());
    m.PThread?.terminateAllThreads();
    throw new TesseraError(statusCode(status), `load: ${message}`);
  }
  const isaOut = m._malloc(4);
  m._tsr_context_isa(context, isaOut);
  const isa = m.UTF8ToString(m.HEAPU32[isaOut >> 2]);
  m._free(isaOut);

  const tessera = new InlineTessera(module, context, null);
  const fallbacks = [...choice.fallbacks];
  let pool = { kind: build === 'threads' ? 'shared-memory' : 'none', participants: build === 'threads' ? choice.threads : 1 };
  // maxThreadsPerKernel caps a call's participants: no more helpers than
  // a call may use.
  const poolSize = o.maxThreadsPerKernel > 0 ? Math.min(choice.messagePool, o.maxThreadsPerKernel) : choice.messagePool;
  if (choice.messagePool > 1 && poolSize <= 1) {
    fallbacks.push(`maxThreadsPerKernel: ${o.maxThreadsPerKernel} leaves the message-passing pool no helper: the single-threaded build runs serially`);
  }
  if (poolSize > 1) {
    // The helpers get the bytes this instance compiled (no second fetch).
    const starting = startMessagePool({ ...o, wasmBinary: { single: bytes } }, poolSize, () => performance.now());
    try {
      tessera.messagePool = await withTimeout(starting, o.initTimeoutMs, `starting ${poolSize - 1} message-pool workers`);
      pool = { kind: 'message-passing', participants: poolSize };
    } catch (error) {
      // A pool that starts after the timeout must not keep its workers.
      starting.then((late) => late.dispose(), () => {});
      fallbacks.push(`the message-passing pool's workers did not start (${error.message}): the single-threaded build runs serially`);
    }
  }
  const policy = tessera.resolvedPolicy();
  const shared = typeof SharedArrayBuffer === 'function' && m.HEAPU8.buffer instanceof SharedArrayBuffer;
  tessera.info = {
    build,
    simd: isa === 'simd128',
    isa,
    threads: Math.max(policy.effective_threads, pool.participants),
    pool,
    mode,
    host: platform.hostName,
    crossOriginIsolated: typeof globalThis.crossOriginIsolated === 'boolean' ? globalThis.crossOriginIsolated : null,
    sharedMemory: shared,
    zeroCopy: true,
    fallbacks: [...fallbacks, ...policy.fallbacks],
    loadMs: Date.now() - started,
    selftest: policy.load_selftest,
    profile: policy.profile,
    policy,
  };
  return tessera;
}
