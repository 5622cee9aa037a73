// SerialExecutor: width 1, runs the body inline on the caller. It is what
// every resolver falls back to when threads are unusable (wasm32-wasip1,
// wasm without -pthread) or not worth it.
#pragma once

#include "tessera/platform/executor.hpp"

namespace tessera::platform {

class SerialExecutor final : public Executor {
 public:
  int width() const noexcept override { return 1; }
  void run(int participants, FunctionRef<void(int)> body) override;
};

// A process-wide instance (stateless, so sharing it is free).
SerialExecutor& serial_executor() noexcept;

}  // namespace tessera::platform
