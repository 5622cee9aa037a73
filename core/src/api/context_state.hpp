// What a Context holds. Immutable after creation; shared by handle copies.
#pragma once

#include "core/src/registry/kernel_table.hpp"
#include "tessera/context.hpp"
#include "tessera/platform/executor.hpp"

namespace tessera::detail {

struct ContextState {
  ContextOptions options;
  Knobs knobs;  // environment merged with options.knobs
  const core::KernelTable* table = nullptr;
  platform::Topology topology;
  platform::ResolvedExecutionPolicy resolved;
  // Keeps the executor alive: the pool lease from acquire_executor, the
  // application's executor, or null for the process-wide serial executor.
  std::shared_ptr<platform::Executor> executor_owner;
  platform::Executor* executor = nullptr;  // never null
};

// The state behind `context`, or the reason there is none.
Status context_state(const Context& context, const ContextState** out);

}  // namespace tessera::detail
