// The native pool registry (design.md §Pool ownership) and the per-Context
// lease that platform::acquire_executor hands out.
//
// One TieredPool per distinct ResolvedExecutionPolicy::registry_key(),
// created lazily by the first acquire_executor for that key and shared by
// every Context whose policy has the same key. The registry holds only a
// weak_ptr: the pool lives exactly as long as some lease holds it, and the
// next acquire after the last lease is gone creates a fresh one.
//
// Each acquire returns a new PoolLease: an Executor that forwards to the
// shared pool and owns that Context's counters, so two Contexts sharing a
// pool still read their own dispatches, spins, etc.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "native/src/pool_counters.hpp"
#include "native/src/tiered_pool.hpp"
#include "tessera/platform/executor.hpp"

namespace tessera::native {

class PoolLease final : public platform::Executor {
 public:
  PoolLease(std::shared_ptr<TieredPool> pool, bool counters);
  // Frees the counters only after no worker is still recording into them.
  ~PoolLease() override;

  int width() const noexcept override { return pool_->width(); }
  void run(int participants, FunctionRef<void(int)> body) override;
  platform::ExecutionCounters counters() const override;
  std::vector<std::string> pin_failures() const override;

  const std::shared_ptr<TieredPool>& pool() const noexcept { return pool_; }

 private:
  std::shared_ptr<TieredPool> pool_;
  std::unique_ptr<PoolCounters> counters_;  // null when counters are off
};

// Pools currently alive in the registry (tests and diagnostics).
int live_registry_pools();

}  // namespace tessera::native
