#include "native/src/pool_registry.hpp"

#include <mutex>

#if defined(__unix__) || defined(__APPLE__)
#include <pthread.h>
#endif
#include <new>
#include <unordered_map>
#include <utility>

#include "native/src/fork_guard.hpp"
#include "tessera/platform/pool_provider.hpp"
#include "tessera/platform/serial_executor.hpp"

namespace tessera::native {

PoolLease::PoolLease(std::shared_ptr<TieredPool> pool, bool counters)
    : pool_(std::move(pool)),
      counters_(counters ? std::make_unique<PoolCounters>(pool_->width())
                         : nullptr) {}

PoolLease::~PoolLease() {
  if (counters_ != nullptr) pool_->wait_for_recorders(counters_.get());
}

void PoolLease::run(int participants, FunctionRef<void(int)> body) {
  pool_->run(participants, body, counters_.get());
}

platform::ExecutionCounters PoolLease::counters() const {
  return counters_ != nullptr ? counters_->snapshot()
                              : platform::ExecutionCounters{};
}

std::vector<std::string> PoolLease::pin_failures() const {
  return pool_->pin_failures();
}

namespace {

struct Registry {
  std::mutex mutex;
  std::unordered_map<std::string, std::weak_ptr<TieredPool>> pools;
};

// Never destroyed: a Context destroyed during static destruction may still
// acquire or release, and leases never touch the registry when they die.
Registry& registry() {
  static Registry* r = [] {
    auto* created = new Registry;
#if defined(__unix__) || defined(__APPLE__)
    // A fork while another thread holds the registry lock would leave the
    // child's copy locked forever: hold it across fork() instead.
    pthread_atfork([] { registry().mutex.lock(); },
                   [] { registry().mutex.unlock(); },
                   [] { registry().mutex.unlock(); });
#endif
    return created;
  }();
  return *r;
}

}  // namespace

int live_registry_pools() {
  Registry& r = registry();
  const std::lock_guard<std::mutex> lock(r.mutex);
  int n = 0;
  for (const auto& entry : r.pools) n += entry.second.expired() ? 0 : 1;
  return n;
}

}  // namespace tessera::native

namespace tessera::platform {

Status acquire_executor(const ResolvedExecutionPolicy& policy,
                        std::shared_ptr<Executor>* out) {
  if (out == nullptr) {
    return Status::invalid_argument("acquire_executor: out must not be null");
  }
  if (!policy.threads_usable || policy.effective_threads <= 1) {
    // One participant: no pool, no thread. The serial executor is
    // stateless and process-wide; the shared_ptr does not own it.
    *out = std::shared_ptr<Executor>(std::shared_ptr<Executor>(),
                                     &serial_executor());
    return Status();
  }
  std::shared_ptr<native::TieredPool> pool;
  {
    native::Registry& r = native::registry();
    // Size tiers are native-only (the wasm pool ignores pool_classes), so
    // the native registry adds them to the shared key itself: two policies
    // that differ only in tiers get different pools.
    // The fork generation too: a forked child gets fresh pools, never its
    // parent's (whose workers it does not have).
    const std::string key = policy.registry_key() +
                            ";pool_classes=" + std::to_string(policy.pool_classes) +
                            ";process=" + std::to_string(native::fork_generation());
    const std::lock_guard<std::mutex> lock(r.mutex);
    // Forget pools whose last lease is gone (keeps the map small).
    for (auto it = r.pools.begin(); it != r.pools.end();) {
      it = it->second.expired() ? r.pools.erase(it) : std::next(it);
    }
    auto found = r.pools.find(key);
    if (found != r.pools.end()) pool = found->second.lock();
    if (pool == nullptr) {
      // Created under the registry lock so two Contexts with one policy
      // racing here still get one pool.
      TESSERA_RETURN_IF_ERROR(native::TieredPool::create(policy, &pool));
      r.pools[key] = pool;
    }
  }
  try {
    *out = std::make_shared<native::PoolLease>(std::move(pool), policy.counters);
  } catch (const std::bad_alloc&) {
    return Status(StatusCode::kOutOfMemory, "out of memory creating a pool lease");
  }
  return Status();
}

// A native pool ends with its last lease (the registry holds only weak
// references), so an idle one has no threads left to release.
int release_idle_pools() { return 0; }

}  // namespace tessera::platform
