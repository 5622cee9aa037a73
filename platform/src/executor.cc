#include "tessera/platform/executor.hpp"

#include <exception>

namespace tessera::platform {
namespace {
// Plain int: only ever touched by its own thread.
constinit thread_local int t_parallel_body_depth = 0;
}  // namespace

int parallel_body_depth() noexcept { return t_parallel_body_depth; }

ParallelBodyScope::ParallelBodyScope() noexcept { ++t_parallel_body_depth; }
ParallelBodyScope::~ParallelBodyScope() { --t_parallel_body_depth; }

void run_serially_in_region(int participants, FunctionRef<void(int)> body) {
  const ParallelBodyScope region;
#if defined(__cpp_exceptions)
  std::exception_ptr first;
  for (int p = 0; p < participants; ++p) {
    try {
      body(p);
    } catch (...) {
      if (!first) first = std::current_exception();
    }
  }
  if (first) std::rethrow_exception(first);
#else
  for (int p = 0; p < participants; ++p) body(p);
#endif
}

}  // namespace tessera::platform
