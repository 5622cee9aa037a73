// The backend switch of the execution layer: given a resolved policy, hand
// out the executor that realises it. Implemented once per platform backend:
//   native/  a shared pool from the registry keyed by the complete resolved
//            policy (created lazily, alive while any context holds it), with
//            its size tiers inside (design.md §Pool tiers);
//   wasm/    the wasm threads pool (Emscripten -pthread builds, when
//            SharedArrayBuffer exists) or the serial executor.
// effective_threads == 1 always yields a width-1 executor and starts no
// thread.
#pragma once

#include <cstdint>
#include <memory>

#include "tessera/platform/execution_counters.hpp"
#include "tessera/platform/execution_policy.hpp"
#include "tessera/platform/executor.hpp"
#include "tessera/platform/status.hpp"

namespace tessera::platform {

// The executor for `policy`. On failure (e.g. threads could not be started,
// or worker_cpus does not have one entry per worker) the Status says why and
// *out is untouched; callers fall back to serial and record it.
//
// Native: every call returns a new lease (an Executor owning this caller's
// counters when policy.counters is set) on the pool shared by every policy
// with the same registry_key() and pool_classes; width() is
// effective_threads; pin_failures() lists the workers that could not be
// pinned to policy.worker_cpus (entry i is participant i + 1), to append to
// the resolved policy's fallbacks. One participant or !threads_usable: the
// process-wide serial executor (not owned; no counters).
Status acquire_executor(const ResolvedExecutionPolicy& policy,
                        std::shared_ptr<Executor>* out);

// Ends the threads of every pool that no context leases any more, joining
// them, and returns how many such pools could not be released. Native pools
// end with their last lease already (the registry holds weak references):
// 0. The wasm threads pool is kept for the process (design.md §Pool
// ownership); a JavaScript host calls this before it terminates the
// pthreads' Workers, so they are idle when it does.
int release_idle_pools();

}  // namespace tessera::platform
