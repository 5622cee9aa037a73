// wasi_thread_start(tid, record), the entry point a wasi-threads host calls
// on a new thread (wasm_thread_support_wasi.cc has the whole story): the
// stack pointer and TLS block from the record (ThreadRecord's first two
// fields, offsets 0 and 4), the body, then done = 1 (offset 8) and a wake of
// its one joiner (only join_thread waits on it), with no memory access after
// that.
//
// A top-level asm block in a file of its own: Zig 0.11 does not pass the
// target's features (atomics) to its assembler for .s files, and clang 16
// crashes on this block in a file that also has C++ functions (which use
// __stack_pointer themselves). tessera_wasi_thread_start_linked, called by
// start_thread, makes the linker take this file from the archive.
#include "tessera/platform/build_config.h"

#if TESSERA_THREADS_USABLE && defined(__wasi__)

__asm__(R"(
  .text
  .globaltype __stack_pointer, i32
  .functype __wasm_init_tls (i32) -> ()
  .functype tessera_wasi_thread_body (i32, i32) -> ()
  .globl wasi_thread_start
  .type wasi_thread_start,@function
  .export_name wasi_thread_start, wasi_thread_start
wasi_thread_start:
  .functype wasi_thread_start (i32, i32) -> ()
  local.get 1
  i32.load 0
  global.set __stack_pointer
  local.get 1
  i32.load 4
  call __wasm_init_tls
  local.get 0
  local.get 1
  call tessera_wasi_thread_body
  local.get 1
  i32.const 1
  i32.atomic.store 8
  local.get 1
  i32.const 8
  i32.add
  i32.const 1
  memory.atomic.notify 0
  drop
  end_function

  .globl tessera_wasi_thread_start_linked
  .type tessera_wasi_thread_start_linked,@function
tessera_wasi_thread_start_linked:
  .functype tessera_wasi_thread_start_linked () -> (i32)
  i32.const 1
  end_function
)");

#endif  // TESSERA_THREADS_USABLE && __wasi__
