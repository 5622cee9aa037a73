// TieredPool: the native pool for one resolved execution policy
// (design.md §Native pool, §Pool tiers). A full-width ThreadPool plus up to
// `pool_classes` lazily built private sub-pools of halving widths, one
// dispatch lock for the family, and the busy / nested rules of executor.hpp.
//
// run(w, body):
//  - w == 1: body(0) inline.
//  - nested (parallel_body_depth() > 0) and nesting not allowed: serial on
//    the calling thread (indices 0..w-1 in order), a serial fallback.
//  - the family is busy (try-lock fails: another thread's region, or a
//    nested run on this same family): serial, a serial fallback. One region
//    at a time across the whole family, tiers included, so concurrent
//    callers never oversubscribe and never wait on each other.
//  - otherwise: rule 2 of design.md §Pool tiers, the region forks into the
//    smallest tier holding w (the full pool if none), so a region with fewer
//    participants never wakes (or shares a pool with) idle threads; rule 1, a
//    run issued from inside a running region (allowed nesting) is never
//    rerouted: it uses the full pool.
//  - w > width: every index still runs, serially (a serial fallback).
//  - in a child process forked after the pool was made (no workers there):
//    serial, a serial fallback (fork_guard.hpp).
// A tier pool that cannot start its threads is not used (the full pool
// serves its widths) and the reason is kept in pin_failures().
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "native/src/pool_counters.hpp"
#include "native/src/thread_pool.hpp"
#include "tessera/platform/execution_policy.hpp"
#include "tessera/platform/function_ref.hpp"
#include "tessera/platform/pool_tiers.hpp"
#include "tessera/platform/status.hpp"

namespace tessera::native {

class TieredPool {
 public:
  // Starts the full-width pool's workers (tiers start on first use). Fails
  // with a Status (never throws) when the policy's worker_cpus does not fit
  // or a thread cannot be started.
  static Status create(const platform::ResolvedExecutionPolicy& policy,
                       std::shared_ptr<TieredPool>* out);

  int width() const noexcept { return full_->width(); }
  // See the header comment. counters: the calling Context's, or null.
  void run(int w, FunctionRef<void(int)> body, PoolCounters* counters);

  std::vector<std::string> pin_failures() const;
  // ThreadPool::wait_for_recorders over the full pool and every built tier:
  // a Context's counters may be freed once this returns.
  void wait_for_recorders(const PoolCounters* counters) const;
  // platform::pool_tier_widths(width(), pool_classes): the tiers the core's
  // resolvers snap onto (one rule, platform/pool_tiers.hpp).
  const std::vector<int>& tier_widths() const noexcept { return tier_widths_; }
  // The pool a region of w participants issued now from outside any region
  // forks into: platform::routed_width over tier_widths().
  int routed_width(int w) const noexcept;
  // Tier pools built so far (tests).
  int built_tiers() const;
  // Live worker threads in the full pool and every built tier (tests).
  int live_workers() const;
  // In a forked child (see fork_guard.hpp).
  bool full_orphaned() const noexcept { return full_->orphaned(); }

  explicit TieredPool(PoolConfig full, bool allow_nested,
                      std::vector<int> tier_widths);

 private:
  ThreadPool* route(int w);  // under the family lock

  const bool allow_nested_;
  const PoolConfig full_config_;
  std::unique_ptr<ThreadPool> full_;
  const std::vector<int> tier_widths_;
  // The family's dispatch lock: true while a region runs on any member.
  alignas(64) std::atomic<bool> busy_{false};
  // tiers_[k] serves tier_widths_[k]; null until first use. Written only
  // under both busy_ and tiers_mutex_; read under either.
  std::vector<std::unique_ptr<ThreadPool>> tiers_;
  std::vector<bool> tier_failed_;  // under busy_
  mutable std::mutex tiers_mutex_;
  std::vector<std::string> tier_failures_;  // under tiers_mutex_
};

}  // namespace tessera::native
