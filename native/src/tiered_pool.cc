#include "native/src/tiered_pool.hpp"

#include <algorithm>
#include <new>
#include <system_error>
#include <utility>

#include "tessera/platform/executor.hpp"

namespace tessera::native {

namespace {

PoolConfig config_of_width(const PoolConfig& full, int width) {
  PoolConfig config = full;
  config.width = width;
  // A tier's worker i runs where the full pool's worker i runs: only one
  // member of the family runs at a time, so they never compete for a CPU.
  if (!config.worker_cpus.empty()) {
    config.worker_cpus.resize(static_cast<std::size_t>(width - 1));
  }
  return config;
}

}  // namespace

Status TieredPool::create(const platform::ResolvedExecutionPolicy& policy,
                          std::shared_ptr<TieredPool>* out) {
  const int width = policy.effective_threads;
  if (width < 1) {
    return Status::invalid_argument(
        "ResolvedExecutionPolicy::effective_threads must be >= 1 (got " +
        std::to_string(width) + ")");
  }
  if (!policy.worker_cpus.empty() &&
      policy.worker_cpus.size() != static_cast<std::size_t>(width - 1)) {
    return Status::invalid_argument(
        "ResolvedExecutionPolicy::worker_cpus has " +
        std::to_string(policy.worker_cpus.size()) +
        " entries; it needs one per worker (effective_threads - 1 = " +
        std::to_string(width - 1) + ") or none");
  }
  if (policy.pool_classes < 0 || policy.pool_classes > platform::kMaxPoolClasses) {
    return Status::invalid_argument(
        "ResolvedExecutionPolicy::pool_classes must be in [0, " +
        std::to_string(platform::kMaxPoolClasses) + "] (got " +
        std::to_string(policy.pool_classes) + ")");
  }
  PoolConfig config;
  config.width = width;
  config.spin_policy = policy.spin_policy;
  config.spin_budget = policy.spin_budget;
  config.worker_cpus = policy.worker_cpus;
  config.release_when_idle =
      policy.idle_policy == platform::IdlePolicy::kReleaseWhenIdle;
  config.idle_release_ms = policy.idle_release_ms;
  try {
    *out = std::make_shared<TieredPool>(
        std::move(config), policy.allow_nested_parallelism,
        platform::pool_tier_widths(width, policy.pool_classes));
  } catch (const std::system_error& e) {
    return Status(StatusCode::kUnsupported,
                  std::string("could not start the pool's worker threads: ") +
                      e.what());
  } catch (const std::bad_alloc&) {
    return Status(StatusCode::kOutOfMemory, "out of memory creating the pool");
  }
  return Status();
}

TieredPool::TieredPool(PoolConfig full, bool allow_nested,
                       std::vector<int> tier_widths)
    : allow_nested_(allow_nested),
      full_config_(std::move(full)),
      full_(std::make_unique<ThreadPool>(full_config_)),
      tier_widths_(std::move(tier_widths)),
      tiers_(tier_widths_.size()),
      tier_failed_(tier_widths_.size(), false) {}

int TieredPool::routed_width(int w) const noexcept {
  return platform::routed_width(tier_widths_, width(), w);
}

ThreadPool* TieredPool::route(int w) {
  const int routed = routed_width(w);
  for (std::size_t k = 0; k < tier_widths_.size(); ++k) {
    if (tier_widths_[k] != routed) continue;
    if (tiers_[k] == nullptr && !tier_failed_[k]) {
      // First use: build it (we hold busy_, so no region runs anywhere in
      // the family; tiers_mutex_ keeps pin_failures() readers consistent).
      try {
        auto pool = std::make_unique<ThreadPool>(
            config_of_width(full_config_, tier_widths_[k]));
        const std::lock_guard<std::mutex> lock(tiers_mutex_);
        tiers_[k] = std::move(pool);
      } catch (const std::system_error& e) {
        tier_failed_[k] = true;
        const std::lock_guard<std::mutex> lock(tiers_mutex_);
        tier_failures_.push_back(
            "tier pool of width " + std::to_string(tier_widths_[k]) +
            " could not start its threads (" + e.what() +
            "); its regions use the full pool");
      }
    }
    if (tiers_[k] != nullptr) return tiers_[k].get();
    break;  // a failed tier: the full pool serves it
  }
  return full_.get();
}

void TieredPool::run(int w, FunctionRef<void(int)> body,
                     PoolCounters* counters) {
  if (w <= 1) {
    if (w == 1) platform::run_serially_in_region(1, body);
    return;
  }
  const bool nested = platform::parallel_body_depth() > 0;
  // The family lock. Acquire pairs with the release store that ended the
  // previous region, so that region's writes to dispatcher-private pool
  // state (tickets, spin budgets, tiers_) happen-before this one's.
  if (w > width() || (nested && !allow_nested_) || full_->orphaned() ||
      busy_.exchange(true, std::memory_order_acquire)) {
    if (counters != nullptr) counters->add_serial_fallback();
    platform::run_serially_in_region(w, body);
    return;
  }
  struct Unlock {
    std::atomic<bool>& busy;
    ~Unlock() { busy.store(false, std::memory_order_release); }
  } unlock{busy_};
  // Rule 1: a nested region (allowed) is never rerouted.
  ThreadPool* pool = nested ? full_.get() : route(w);
  pool->run(w, body, counters);
}

void TieredPool::wait_for_recorders(const PoolCounters* counters) const {
  full_->wait_for_recorders(counters);
  const std::lock_guard<std::mutex> lock(tiers_mutex_);
  for (const auto& tier : tiers_) {
    if (tier != nullptr) tier->wait_for_recorders(counters);
  }
}

std::vector<std::string> TieredPool::pin_failures() const {
  std::vector<std::string> out = full_->pin_failures();
  const std::lock_guard<std::mutex> lock(tiers_mutex_);
  for (const auto& tier : tiers_) {
    if (tier == nullptr) continue;
    for (std::string& f : tier->pin_failures()) {
      // Tier workers share the full pool's CPUs: the same failure is
      // reported once.
      if (std::find(out.begin(), out.end(), f) == out.end()) {
        out.push_back(std::move(f));
      }
    }
  }
  out.insert(out.end(), tier_failures_.begin(), tier_failures_.end());
  return out;
}

int TieredPool::built_tiers() const {
  const std::lock_guard<std::mutex> lock(tiers_mutex_);
  int n = 0;
  for (const auto& tier : tiers_) n += tier != nullptr ? 1 : 0;
  return n;
}

int TieredPool::live_workers() const {
  int n = full_->live_workers();
  const std::lock_guard<std::mutex> lock(tiers_mutex_);
  for (const auto& tier : tiers_) {
    if (tier != nullptr) n += tier->live_workers();
  }
  return n;
}

}  // namespace tessera::native
