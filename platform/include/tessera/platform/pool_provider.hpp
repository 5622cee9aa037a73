// The backend switch of the execution layer: given a resolved policy, hand
// out the executor that realises it. Implemented once per platform backend:
//   native/  a shared pool from the registry keyed by the complete resolved
//            policy (created lazily, alive while any context holds it), with
//            its size tiers inside (SPEC 2.4);
//   wasm/    the wasm threads pool (Emscripten -pthread builds, when
//            SharedArrayBuffer exists) or the serial executor.
// effective_threads == 1 always yields a width-1 executor and starts no
// thread.
#pragma once

#include <cstdint>
#include <memory>

#include "tessera/platform/execution_policy.hpp"
#include "tessera/platform/executor.hpp"
#include "tessera/platform/status.hpp"

namespace tessera::platform {

// Diagnostics (SPEC 2.2), cumulative. All zero when counters are off.
struct ExecutionCounters {
  std::uint64_t dispatches = 0;       // parallel regions started
  std::uint64_t serial_fallbacks = 0; // regions run serially because the
                                      // pool was busy or the call was nested
  std::uint64_t spins = 0;            // spin-wait iterations (workers + caller)
  std::uint64_t parks = 0;            // times a thread blocked in the OS
  std::uint64_t wakeups = 0;          // times a parked worker was woken
  std::uint64_t caller_waits = 0;     // regions where the caller had to wait
  std::uint64_t worker_active_ns = 0; // time workers spent running bodies
};

// The executor for `policy`. On failure (e.g. threads could not be started)
// the Status says why; callers fall back to serial and record it.
Status acquire_executor(const ResolvedExecutionPolicy& policy,
                        std::shared_ptr<Executor>* out);

}  // namespace tessera::platform
