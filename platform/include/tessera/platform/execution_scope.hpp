// The thread-local execution scope (design.md §execute_ranges).
//
// Two pieces of per-thread state decide how a kernel may split its work:
//  - the current executor, installed by ExecutorScope (a Context installs its
//    own while a call runs; a direct caller can install one). Outside any
//    scope there is no executor and execution is serial.
//  - the region depth, raised by RegionScope around every range callback.
//    A kernel that finds depth > 0 is already inside a parallel region and
//    runs its work as one block, so nested calls never oversubscribe.
#pragma once

#include "tessera/platform/executor.hpp"

namespace tessera::platform {

// The executor installed on this thread, or nullptr.
Executor* current_executor() noexcept;
// How many range callbacks this thread is nested in (0 outside any).
int region_depth() noexcept;

class ExecutorScope {
 public:
  explicit ExecutorScope(Executor* executor) noexcept;
  ~ExecutorScope();
  ExecutorScope(const ExecutorScope&) = delete;
  ExecutorScope& operator=(const ExecutorScope&) = delete;

 private:
  Executor* previous_;
};

class RegionScope {
 public:
  RegionScope() noexcept;
  ~RegionScope();
  RegionScope(const RegionScope&) = delete;
  RegionScope& operator=(const RegionScope&) = delete;
};

}  // namespace tessera::platform
