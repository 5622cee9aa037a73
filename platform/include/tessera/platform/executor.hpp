// Executor: "run this body on w participants and return when all have
// finished". The caller is participant 0; a pool adds workers 1..w-1.
// Implementations: SerialExecutor (inline, width 1), the native pool, the wasm
// threads pool and ExternalExecutor (an application's own parallel-for).
//
// run(w, body) replaces the serial loop
//     for (int p = 0; p < w; ++p) body(p);
// Every index runs exactly once; which thread runs which index is the
// executor's business, so bodies must write only what their index owns.
//
// Concurrency contract shared by tessera's executors (native pool, wasm pool,
// ExternalExecutor):
//  - Busy: when a second application thread calls run() while a region is
//    already running on the same executor, the second call does not wait and
//    does not start more threads: it runs its body serially on its own thread
//    (indices 0..w-1 in order) and counts a serial fallback. No deadlock, no
//    oversubscription.
//  - Nested: a body that calls run() again (on any tessera executor) is
//    inside a parallel region (parallel_body_depth() > 0). Unless the policy
//    allows nested parallelism, that inner run is serial on the calling
//    thread. When it is allowed, the inner run may fork, but a nested run on
//    an executor that is itself busy (e.g. its own) still falls back to
//    serial, so it never deadlocks.
#pragma once

#include <string>
#include <vector>

#include "tessera/platform/execution_counters.hpp"
#include "tessera/platform/function_ref.hpp"
#include "tessera/platform/build_config.h"  // TESSERA_CXX_API_BEGIN

TESSERA_CXX_API_BEGIN
namespace tessera::platform {

class Executor {
 public:
  virtual ~Executor() = default;

  // Most participants run() can use, the caller included. Always >= 1.
  virtual int width() const noexcept = 0;

  // Calls body(p) once for every p in [0, participants) and returns after
  // every call has returned. p = 0 runs on the calling thread (except under
  // ExternalExecutor, whose application parallel-for places every index).
  // Callers pass 1 <= participants <= width(); an executor given more runs
  // them all anyway (serially, counted as a serial fallback) rather than drop
  // indices.
  // If a body throws (native builds), the first exception is re-thrown here
  // after all participants have finished; the executor stays usable.
  virtual void run(int participants, FunctionRef<void(int)> body) = 0;

  // Cumulative diagnostics of this executor (per Context: a Context's pool
  // lease owns its own counters even when the pool is shared). Zero when the
  // policy turned counters off or the executor does not collect them.
  virtual ExecutionCounters counters() const { return {}; }

  // Every failed attempt to pin a worker to its CPU (text for the resolved
  // policy's fallbacks, e.g. "worker 1: could not pin to CPU 7: Invalid
  // argument"). Pinning happens when workers start (and restart after an idle
  // release), so the list can grow; it never shrinks.
  virtual std::vector<std::string> pin_failures() const { return {}; }
};

// How many parallel bodies this thread is running right now: > 0 inside a
// parallel region (on a worker, or on a caller inside its own participant's
// body, or inside a range callback of core::execute_ranges). The one
// thread-local depth of the execution layer: executors use it for the
// nested rule above, and kernels for "a call from inside a parallel region
// runs as one block unless the policy allows nesting". (There is no
// thread-local current executor: drivers get theirs from the Context.)
int parallel_body_depth() noexcept;

// The serial form of a parallel region, shared by every executor's busy and
// nested fallbacks: body(0..w-1) in order on the calling thread inside a
// ParallelBodyScope; every index runs even if one throws, then the first
// exception is re-thrown (the same contract as a parallel region).
void run_serially_in_region(int participants, FunctionRef<void(int)> body);

// Marks the current thread as running an executor body for its lifetime.
// The parallel executors (pools, ExternalExecutor) wrap each body call in one
// (a pool's worker threads instead hold one for their whole life: they only
// ever run bodies). SerialExecutor does not: it starts no region.
class ParallelBodyScope {
 public:
  ParallelBodyScope() noexcept;
  ~ParallelBodyScope();
  ParallelBodyScope(const ParallelBodyScope&) = delete;
  ParallelBodyScope& operator=(const ParallelBodyScope&) = delete;
};

}  // namespace tessera::platform
TESSERA_CXX_API_END
