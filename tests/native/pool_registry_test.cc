// The native pool registry and per-Context leases
// (design.md §Pool ownership): one pool per distinct resolved policy,
// shared, created lazily, alive until the last lease is gone; counters per
// lease.
#include "native/src/pool_registry.hpp"

#include <doctest/doctest.h>

#include <atomic>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "support/policy_test_support.hpp"
#include "tessera/platform/pool_provider.hpp"
#include "tessera/platform/serial_executor.hpp"

namespace tessera::native {
namespace {

using platform::Executor;
using platform::ResolvedExecutionPolicy;
using platform::SpinPolicy;

using test::pool_policy;

std::shared_ptr<Executor> acquire(const ResolvedExecutionPolicy& policy) {
  std::shared_ptr<Executor> executor;
  const Status status = platform::acquire_executor(policy, &executor);
  REQUIRE_MESSAGE(status.ok(), status.to_string());
  REQUIRE(executor != nullptr);
  return executor;
}

std::shared_ptr<TieredPool> pool_of(const std::shared_ptr<Executor>& executor) {
  auto* lease = dynamic_cast<PoolLease*>(executor.get());
  REQUIRE(lease != nullptr);
  return lease->pool();
}

TEST_CASE("equal policies share one pool through distinct leases") {
  const auto policy = pool_policy(2);
  auto a = acquire(policy);
  auto b = acquire(policy);
  CHECK(a != b);
  CHECK(pool_of(a) == pool_of(b));
  CHECK(a->width() == 2);
}

TEST_CASE("every observable policy difference gets its own pool") {
  const auto base = pool_policy(2);
  auto reference = acquire(base);
  std::vector<ResolvedExecutionPolicy> variants;
  variants.push_back(pool_policy(3));
  variants.push_back(base);
  variants.back().spin_policy = SpinPolicy::kParkImmediately;
  variants.push_back(base);
  variants.back().spin_policy = SpinPolicy::kFixedIterations;
  variants.back().spin_budget = 100;
  variants.push_back(base);
  variants.back().idle_policy = platform::IdlePolicy::kReleaseWhenIdle;
  variants.push_back(base);
  variants.back().allow_nested_parallelism = true;
  variants.push_back(base);
  variants.back().counters = true;
  variants.push_back(base);
  variants.back().worker_cpus = {0};
  variants.push_back(base);
  variants.back().pool_classes = 1;
  for (std::size_t i = 0; i < variants.size(); ++i) {
    CAPTURE(i);
    auto other = acquire(variants[i]);
    CHECK(pool_of(other) != pool_of(reference));
  }
}

TEST_CASE("a pool lives until its last lease is gone") {
  auto policy = pool_policy(2);
  policy.spin_policy = SpinPolicy::kFixedDuration;  // a key no other test uses
  policy.spin_budget = 7;
  const int before = live_registry_pools();
  std::weak_ptr<TieredPool> weak;
  {
    auto a = acquire(policy);
    weak = pool_of(a);
    CHECK(live_registry_pools() == before + 1);
    {
      auto b = acquire(policy);
      CHECK(pool_of(b) == weak.lock());
    }
    CHECK_FALSE(weak.expired());  // a still holds it
    std::atomic<int> ran{0};
    a->run(2, [&](int) { ran.fetch_add(1); });
    CHECK(ran.load() == 2);
  }
  CHECK(weak.expired());
  CHECK(live_registry_pools() == before);
  // The next acquire creates a fresh pool.
  auto c = acquire(policy);
  CHECK(live_registry_pools() == before + 1);
}

TEST_CASE("a registry pool acquired and released a thousand times runs and leaks nothing") {
  auto policy = pool_policy(2);
  policy.spin_policy = SpinPolicy::kFixedDuration;
  policy.spin_budget = 11;
  const int before = live_registry_pools();
  for (int i = 0; i < 1000; ++i) {
    auto e = acquire(policy);
    std::atomic<int> ran{0};
    e->run(2, [&](int) { ran.fetch_add(1); });
    REQUIRE(ran.load() == 2);
  }
  CHECK(live_registry_pools() == before);
}

TEST_CASE("one participant, or no threads, gives the serial executor") {
  auto one = acquire(pool_policy(1));
  CHECK(one.get() == &platform::serial_executor());
  auto no_threads = pool_policy(4);
  no_threads.threads_usable = false;
  auto serial = acquire(no_threads);
  CHECK(serial.get() == &platform::serial_executor());
  CHECK(serial->width() == 1);
}

TEST_CASE("counters are per lease even when the pool is shared") {
  auto policy = pool_policy(2);
  policy.counters = true;
  auto a = acquire(policy);
  auto b = acquire(policy);
  REQUIRE(pool_of(a) == pool_of(b));
  for (int i = 0; i < 10; ++i) a->run(2, [](int) {});
  for (int i = 0; i < 3; ++i) b->run(2, [](int) {});
  const auto ca = a->counters();
  const auto cb = b->counters();
  CHECK(ca.dispatches == 10);
  CHECK(cb.dispatches == 3);
  CHECK(ca.serial_fallbacks == 0);
  // One-participant runs are not regions.
  a->run(1, [](int) {});
  CHECK(a->counters().dispatches == 10);
}

TEST_CASE("with counters off, every counter of a lease reads zero") {
  auto e = acquire(pool_policy(2));
  for (int i = 0; i < 10; ++i) e->run(2, [](int) {});
  const auto c = e->counters();
  CHECK(c.dispatches == 0);
  CHECK(c.spins == 0);
  CHECK(c.parks == 0);
  CHECK(c.worker_active_ns == 0);
}

TEST_CASE("worker active time counts the workers' bodies") {
  auto policy = pool_policy(2);
  policy.counters = true;
  auto e = acquire(policy);
  e->run(2, [](int p) {
    if (p == 1) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  });
  // The worker records its time just after signalling completion: it shows
  // up within moments of run() returning.
  const auto limit = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (e->counters().worker_active_ns == 0 && std::chrono::steady_clock::now() < limit) {
    std::this_thread::yield();
  }
  const auto c = e->counters();
  // Ticks converted to ns: at least the 5 ms slept, and not wildly more
  // (a wrong tick scale would be off by the CPU's GHz factor).
  CHECK(c.worker_active_ns >= 5'000'000);
  CHECK(c.worker_active_ns < 2'000'000'000);
  CHECK(c.caller_waits == 1);  // the caller's empty part finished first
}

TEST_CASE("worker active time: sampled short regions, then long ones measured") {
  auto policy = pool_policy(2);
  policy.counters = true;
  auto e = acquire(policy);
  // Back-to-back empty regions: most are not timed (ActiveTimeSampler);
  // their estimate stays far below a millisecond in total.
  for (int i = 0; i < 1000; ++i) e->run(2, [](int) {});
  auto settle = [&](std::uint64_t above) {
    const auto limit = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    while (e->counters().worker_active_ns <= above && std::chrono::steady_clock::now() < limit) {
      std::this_thread::yield();
    }
    return e->counters().worker_active_ns;
  };
  const std::uint64_t after_empty = settle(0);
  CHECK(after_empty < 50'000'000);  // 1000 empty regions: well under 50 ms
  // Then long bodies right after them (found at once by a spinning
  // worker, so the first is counted by its span): each 2 ms sleep counts.
  for (int i = 0; i < 5; ++i) {
    e->run(2, [](int p) {
      if (p == 1) std::this_thread::sleep_for(std::chrono::milliseconds(2));
    });
  }
  const std::uint64_t total = settle(after_empty + 10'000'000 - 1);
  CHECK(total - after_empty >= 10'000'000);
  CHECK(total - after_empty < 1'000'000'000);
}

// A worker records its time into the lease's counters just after the region
// completed, possibly after run() returned: the lease must not free them
// under it. Under ASan/TSan a missing wait shows as a use-after-free or a
// race; the pool outlives the counted leases (held by `keeper`), as when one
// of several Contexts sharing a pool goes away.
TEST_CASE("a counted lease freed right after a region waits for the workers' record") {
  auto policy = pool_policy(2);
  policy.counters = true;
  auto keeper = acquire(policy);
  for (int i = 0; i < 2000; ++i) {
    auto e = acquire(policy);
    REQUIRE(pool_of(e) == pool_of(keeper));
    std::atomic<int> ran{0};
    e->run(2, [&](int) { ran.fetch_add(1, std::memory_order_relaxed); });
    REQUIRE(ran.load() == 2);
  }
  keeper->run(2, [](int) {});
  CHECK(keeper->counters().dispatches == 1);
}

TEST_CASE("eight application threads on one context executor each see every index once") {
  auto policy = pool_policy(2);
  policy.counters = true;
  auto e = acquire(policy);
  constexpr int kThreads = 8;
  constexpr int kRuns = 250;
  std::atomic<int> wrong{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int r = 0; r < kRuns; ++r) {
        int hits[2] = {0, 0};
        e->run(2, [&](int p) { hits[p] += t + r + 1; });
        if (hits[0] != t + r + 1 || hits[1] != t + r + 1) wrong.fetch_add(1);
      }
    });
  }
  for (auto& th : threads) th.join();
  CHECK(wrong.load() == 0);
  const auto c = e->counters();
  CHECK(c.dispatches + c.serial_fallbacks == kThreads * kRuns);
}

TEST_CASE("a lease reports pin failures") {
  auto policy = pool_policy(2);
  policy.worker_cpus = {100000};
  auto e = acquire(policy);
  const auto failures = e->pin_failures();
  REQUIRE(failures.size() == 1);
  CHECK(failures[0].find("CPU 100000") != std::string::npos);
  int hits[2] = {0, 0};
  e->run(2, [&](int p) { ++hits[p]; });
  CHECK(hits[0] == 1);
  CHECK(hits[1] == 1);
}

TEST_CASE("acquire rejects a null output") {
  const Status status = platform::acquire_executor(pool_policy(2), nullptr);
  CHECK_FALSE(status.ok());
  CHECK(status.message().find("out") != std::string::npos);
}

}  // namespace
}  // namespace tessera::native
