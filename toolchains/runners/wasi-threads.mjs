// The wasi-threads half of run-wasi.mjs: a host for modules that import a
// shared memory and `wasi.thread-spawn` (the wasi-threads proposal, as the
// `wasi-threads` preset builds tessera-cli.wasm).
//
// thread-spawn(start_arg) starts a node:worker_threads Worker that
// instantiates the same compiled module on the same shared memory and calls
// its exported wasi_thread_start(tid, start_arg); it returns the new thread's
// id (> 0), or a negative value when no thread could be started. A Worker
// boots on its own OS thread, so the spawning thread need not return to its
// event loop first (tessera's pool never waits for a worker to come up: a
// worker not running yet has its share run by the caller).
//
// Thread ids come from one counter shared by every thread, so a Worker may
// spawn too. The module ends as a WASI process does: when _start returns, or
// when any thread calls proc_exit or traps, the process exits (idle Workers
// are unref'd and do not keep it alive).
import { writeSync } from 'node:fs';
import process from 'node:process';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';

const kWorkerKind = 'tessera-wasi-thread';

// Reads an unsigned LEB128 from bytes at pos; returns [value, next pos].
function readLeb(bytes, pos) {
  let value = 0;
  let shift = 0;
  for (;;) {
    const byte = bytes[pos++];
    value += (byte & 0x7f) * 2 ** shift;
    if ((byte & 0x80) === 0) return [value, pos];
    shift += 7;
  }
}

function readName(bytes, pos) {
  const [length, start] = readLeb(bytes, pos);
  return [new TextDecoder().decode(bytes.subarray(start, start + length)), start + length];
}

// The limits of the module's imported memory ({ module, name, initial,
// maximum, shared }, in 64 KiB pages), or null when it imports none. Node's
// WebAssembly.Module.imports() does not report limits, so the import section
// is read here.
export function memoryImport(bytes) {
  let pos = 8;  // magic and version
  while (pos < bytes.length) {
    const id = bytes[pos++];
    let size;
    [size, pos] = readLeb(bytes, pos);
    const end = pos + size;
    if (id !== 2) {
      pos = end;
      continue;
    }
    let count;
    [count, pos] = readLeb(bytes, pos);
    for (let i = 0; i < count; ++i) {
      let module, name;
      [module, pos] = readName(bytes, pos);
      [name, pos] = readName(bytes, pos);
      const kind = bytes[pos++];
      if (kind === 0) {               // function: type index
        [, pos] = readLeb(bytes, pos);
      } else if (kind === 1 || kind === 2) {  // table (ref type first) or memory
        if (kind === 1) ++pos;
        const flags = bytes[pos++];
        let initial, maximum;
        [initial, pos] = readLeb(bytes, pos);
        if (flags & 1) [maximum, pos] = readLeb(bytes, pos);
        if (kind === 2) return { module, name, initial, maximum, shared: (flags & 2) !== 0 };
      } else if (kind === 3) {        // global: value type, mutability
        pos += 2;
      } else if (kind === 4) {        // tag: attribute, type index
        ++pos;
        [, pos] = readLeb(bytes, pos);
      } else {
        throw new Error(`import section: unknown import kind ${kind}`);
      }
    }
    return null;
  }
  return null;
}

export function importsThreadSpawn(module) {
  return WebAssembly.Module.imports(module).some(
    (i) => i.module === 'wasi' && i.name === 'thread-spawn' && i.kind === 'function');
}

// Kills the process when a thread ended it (proc_exit, a trap) but the main
// thread, blocked in a wait, cannot receive the message in time.
function endProcessFromThread(code, text) {
  // Written synchronously: a Worker's process.stderr is forwarded through
  // the main thread's event loop, which a blocked main thread never runs.
  if (text) writeSync(2, text);
  parentPort.postMessage({ exit: code });
  setTimeout(() => {
    writeSync(2, `run-wasi: thread ended the process with code ${code}; the main ` +
                 'thread did not exit within 2 s, so the process is killed\n');
    process.kill(process.pid, 'SIGKILL');
  }, 2000).unref();
}

// The thread-spawn import for one thread of the module. `shared` holds what
// every thread shares: module, memory, the id counter (Int32Array on a
// SharedArrayBuffer), the WASI options, and whether spawning is enabled.
// `onExit(code)` ends the process from this thread.
export function makeThreadSpawn(shared, onExit) {
  return function threadSpawn(startArg) {
    if (!shared.spawnEnabled) return -1;  // a host that refuses threads (tests)
    const tid = Atomics.add(shared.ids, 0, 1);
    if (tid <= 0 || tid > 0x1fffffff) return -1;  // ids must stay positive (spec)
    let worker;
    try {
      worker = new Worker(new URL(import.meta.url), {
        workerData: { kind: kWorkerKind, shared, tid, startArg },
        stdout: false,
        stderr: false,
      });
    } catch (error) {
      process.stderr.write(`run-wasi: thread-spawn: ${error?.message ?? error}\n`);
      return -1;
    }
    worker.on('message', (message) => {
      if (message && typeof message.exit === 'number') onExit(message.exit);
    });
    worker.on('error', (error) => {
      process.stderr.write(`run-wasi: thread ${tid}: ${error?.stack ?? error}\n`);
      onExit(1);
    });
    worker.unref();
    return tid;
  };
}

// proc_exit as a thrown marker, so that a thread's exit code is known
// whichever node:wasi version runs it.
export class ThreadExit {
  constructor(code) { this.code = code; }
}
export function wasiImportsExitingByThrow(wasiImport) {
  return { ...wasiImport, proc_exit: (code) => { throw new ThreadExit(code); } };
}

// The state every thread shares, made by the main thread.
export function makeSharedThreadState({ module, memory, wasiOptions, spawnEnabled }) {
  const ids = new Int32Array(new SharedArrayBuffer(4));
  ids[0] = 1;  // thread ids start at 1; the main thread has none
  return { module, memory, ids, wasiOptions, spawnEnabled };
}

async function runThread() {
  const { shared, tid, startArg } = workerData;
  // node:wasi prints an ExperimentalWarning per thread: drop it here too.
  const emitWarning = process.emitWarning;
  process.emitWarning = (warning, ...rest) =>
    /WASI/.test(String(warning?.message ?? warning)) ? undefined
                                                       : emitWarning.call(process, warning, ...rest);
  const { WASI } = await import('node:wasi');
  const wasi = new WASI({ ...shared.wasiOptions, returnOnExit: true });
  const onExit = (code) => endProcessFromThread(code);
  const imports = {
    wasi_snapshot_preview1: wasiImportsExitingByThrow(wasi.wasiImport),
    wasi: { 'thread-spawn': makeThreadSpawn(shared, onExit) },
    env: { memory: shared.memory },
  };
  const instance = new WebAssembly.Instance(shared.module, imports);
  // node:wasi needs the memory; initialize() refuses an instance that has
  // _start (a command), so it is handed the memory alone.
  wasi.initialize({ exports: { memory: shared.memory } });
  try {
    instance.exports.wasi_thread_start(tid, startArg);
  } catch (error) {
    if (error instanceof ThreadExit) {
      endProcessFromThread(error.code);
    } else {
      endProcessFromThread(1, `run-wasi: thread ${tid}: ${error?.stack ?? error}\n`);
    }
    return;
  }

  parentPort.close();
}

// No top-level await here: a module with one is evaluated asynchronously, and
// V8 (Node 18 and 20) aborts the whole process ("Check failed: (location_) !=
// nullptr" in SourceTextModule::ExecuteAsyncModule) when a Worker is
// terminated while such an evaluation is under way. Idle pool threads are
// terminated that way whenever the main thread exits first, which is the
// normal end of every run. The thread runs in a promise job instead.
if (!isMainThread && workerData?.kind === kWorkerKind) {
  runThread().catch((error) => {
    endProcessFromThread(1, `run-wasi: thread ${workerData.tid}: ${error?.stack ?? error}\n`);
  });
}
