// Executor: "run this body on w participants and return when all have
// finished". The caller is always participant 0; a pool adds workers 1..w-1.
// Implementations: SerialExecutor (inline, width 1), the native pool, the wasm
// threads pool and ExternalExecutor (an application's own parallel-for).
#pragma once

#include "tessera/platform/function_ref.hpp"

namespace tessera::platform {

class Executor {
 public:
  virtual ~Executor() = default;

  // Most participants run() can use, the caller included. Always >= 1.
  virtual int width() const noexcept = 0;

  // Calls body(p) once for every p in [0, participants), p = 0 on the calling
  // thread, and returns after every call has returned. `participants` is
  // clamped by nobody: callers pass 1 <= participants <= width().
  // If a body throws (native builds), the first exception is re-thrown here
  // after all participants have finished; the executor stays usable.
  virtual void run(int participants, FunctionRef<void(int)> body) = 0;
};

}  // namespace tessera::platform
