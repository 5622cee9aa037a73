// Diagnostics counters of an executor (design.md §Counters): cumulative, per
// Context, off by default. When a policy turns them off they cost nothing (the
// pool touches no counter memory); when on, they cost at most ~2% of a
// dispatch-heavy loop (bench/dispatch_bench.cc measures it).
#pragma once

#include <cstdint>

#include "tessera/platform/build_config.h"  // TESSERA_CXX_API_BEGIN

TESSERA_CXX_API_BEGIN
namespace tessera::platform {

// A snapshot. All zero when counters are off or the executor cannot observe
// a quantity (e.g. spins inside an application's own parallel-for).
struct ExecutionCounters {
  std::uint64_t dispatches = 0;        // parallel regions started (w >= 2)
  std::uint64_t serial_fallbacks = 0;  // regions run serially on the caller
                                       // because the pool was busy (another
                                       // thread's region) or the call was
                                       // nested in a region
  std::uint64_t spins = 0;             // spin-wait iterations (workers waiting
                                       // for work + the caller waiting for
                                       // workers)
  std::uint64_t parks = 0;             // times a thread blocked in the OS
  std::uint64_t wakeups = 0;           // times a parked worker had to be woken
  std::uint64_t caller_waits = 0;      // regions where the caller finished its
                                       // own part before the workers
  std::uint64_t worker_active_ns = 0;  // time workers spent running bodies
};

}  // namespace tessera::platform
TESSERA_CXX_API_END
