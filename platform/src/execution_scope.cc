#include "tessera/platform/execution_scope.hpp"

namespace tessera::platform {
namespace {
thread_local Executor* t_executor = nullptr;
thread_local int t_depth = 0;
}  // namespace

Executor* current_executor() noexcept { return t_executor; }
int region_depth() noexcept { return t_depth; }

ExecutorScope::ExecutorScope(Executor* executor) noexcept
    : previous_(t_executor) {
  t_executor = executor;
}
ExecutorScope::~ExecutorScope() { t_executor = previous_; }

RegionScope::RegionScope() noexcept { ++t_depth; }
RegionScope::~RegionScope() { --t_depth; }

}  // namespace tessera::platform
