#include "tessera/platform/executor.hpp"

namespace tessera::platform {
namespace {
// Plain int: only ever touched by its own thread.
constinit thread_local int t_parallel_body_depth = 0;
}  // namespace

int parallel_body_depth() noexcept { return t_parallel_body_depth; }

ParallelBodyScope::ParallelBodyScope() noexcept { ++t_parallel_body_depth; }
ParallelBodyScope::~ParallelBodyScope() { --t_parallel_body_depth; }

}  // namespace tessera::platform
