#include "tessera/platform/serial_executor.hpp"

namespace tessera::platform {

void SerialExecutor::run(int participants, FunctionRef<void(int)> body) {
  // Width is 1, but a caller that asks for more logical participants still
  // gets every index, in order, on this thread: the result of a plan never
  // depends on which executor ran it.
  for (int p = 0; p < participants; ++p) body(p);
}

SerialExecutor& serial_executor() noexcept {
  static SerialExecutor instance;
  return instance;
}

}  // namespace tessera::platform
