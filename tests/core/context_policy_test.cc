// Context <-> execution policy (design.md §Execution policy, §Front doors):
// policy in; resolved policy, topology and counters out; TESSERA_NUM_THREADS;
// an application executor; bad policies and knobs rejected with the field or
// variable named.
#include <doctest/doctest.h>

#include <atomic>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "core/src/base/context_state.hpp"
#include "core/src/parallel/execute_ranges.hpp"
#include "support/policy_test_support.hpp"
#include "support/test_support.hpp"
#include "tessera/tessera.hpp"

namespace tessera {
namespace {

using test::contains;

using test::has_fallback;

// Options that ignore the environment and resolve on an injected machine
// of `cores` cores without pinning (its CPU ids need not exist here).
ContextOptions injected(int cores) {
  ContextOptions o;
  o.read_environment = false;
  o.topology = platform::make_synthetic_topology(cores, 1, 1 << 20, 32 << 20);
  o.policy.affinity_policy = AffinityPolicy::kNone;
  return o;
}

using test::ScopedEnv;

int executor_width(const Context& c) { return c.state()->executor->width(); }

TEST_CASE("the process default context has a resolved policy its executor realises") {
  const Context c;
  REQUIRE(c.status().ok());
  const ResolvedExecutionPolicy r = c.resolved_policy();
  CHECK(r.effective_threads >= 1);
  if (platform::platform_facts().pool_width_from_wasm_threads) {
    // The wasm threads pool: sized by TESSERA_WASM_THREADS, not the topology.
    CHECK(contains(r.threads_reason, "TESSERA_WASM_THREADS"));
  } else {
    CHECK(r.effective_threads <= c.topology().logical_count());
  }
  CHECK(executor_width(c) == r.effective_threads);
  CHECK(r.executor == (r.effective_threads > 1 ? "pool" : "serial"));
  CHECK(c.topology().logical_count() == platform::read_topology().logical_count());
  CHECK(contains(r.to_json(), "\"effective_threads\":" + std::to_string(r.effective_threads)));
}

TEST_CASE("a bad policy is an error naming the field; the handle is untouched") {
  Context out;
  const detail::ContextState* before = out.state();
  ContextOptions o;
  o.read_environment = false;
  o.policy.spin_budget = -1;
  o.policy.spin_policy = SpinPolicy::kFixedIterations;
  Status s = Context::create(o, &out);
  CHECK(s.code() == StatusCode::kInvalidArgument);
  CHECK(contains(s.message(), "ExecutionPolicy::spin_budget"));
  CHECK(out.state() == before);

  ContextOptions bad_enum;
  bad_enum.read_environment = false;
  bad_enum.policy.idle_policy = static_cast<IdlePolicy>(7);
  s = Context::create(bad_enum, &out);
  CHECK(contains(s.message(), "ExecutionPolicy::idle_policy"));
}

TEST_CASE("an explicit cpu_set with a CPU id that does not exist is an error") {
  ContextOptions o;
  o.read_environment = false;
  o.policy.affinity_policy = AffinityPolicy::kExplicit;
  o.policy.cpu_set = {0, 99999};
  Context out;
  const Status s = Context::create(o, &out);
  const bool can_pin = platform::platform_facts().affinity_supported;
  if (can_pin) {
    CHECK(s.code() == StatusCode::kInvalidArgument);
    CHECK(contains(s.message(), "CPU 99999"));
    CHECK(contains(s.message(), "process-visible set {" +
                                    platform::format_cpu_list(platform::read_topology().cpu_ids()) +
                                    "}"));
  } else {
    // Where nothing can be pinned, the request resolves to none, saying so.
    REQUIRE(s.ok());
    CHECK(has_fallback(out.resolved_policy(), "not supported on this platform"));
  }
}

// The native pool: injected topologies decide its width. (The wasm threads
// pool is sized by TESSERA_WASM_THREADS instead: tests/wasm/.)
bool native_pool() {
  return TESSERA_THREADS_USABLE && std::string(TESSERA_PLATFORM_BACKEND) == "native";
}

TEST_CASE("an injected topology resolves and the executor has that width") {
  if (!native_pool()) return;
  Context c;
  REQUIRE(Context::create(injected(4), &c).ok());
  const ResolvedExecutionPolicy r = c.resolved_policy();
  CHECK(r.effective_threads == 4);
  CHECK(r.executor == "pool");
  CHECK(executor_width(c) == 4);
  CHECK(c.topology().logical_count() == 4);
  CHECK(c.topology().notes.front() == "synthetic topology");

  // The context's executor runs every block exactly once.
  std::vector<int> hits(100'000, 0);
  core::execute_ranges(c.state()->range_target(), hits.size(), {1000, 8, 0, 0},
                       [&](std::size_t b, std::size_t e) {
    for (std::size_t i = b; i < e; ++i) ++hits[i];
  });
  CHECK(hits == std::vector<int>(hits.size(), 1));
}

TEST_CASE("threads unusable: every policy resolves to one participant with its reason") {
  if (TESSERA_THREADS_USABLE) return;  // the threaded builds test the rest
  ContextOptions o = injected(8);
  o.policy.num_threads = 8;
  Context c;
  REQUIRE(Context::create(o, &c).ok());
  CHECK(c.resolved_policy().effective_threads == 1);
  CHECK(has_fallback(c.resolved_policy(), "threads unusable on this target"));
}

TEST_CASE("TESSERA_NUM_THREADS (or Knobs::num_threads) fills num_threads when it is 0") {
  if (!native_pool()) return;
  ContextOptions o = injected(4);
  o.knobs.num_threads = 3;
  Context c;
  REQUIRE(Context::create(o, &c).ok());
  CHECK(c.resolved_policy().effective_threads == 3);
  CHECK(c.resolved_policy().threads_reason == "Knobs::num_threads = 3");

  // An explicit num_threads wins over the knob.
  o.policy.num_threads = 2;
  REQUIRE(Context::create(o, &c).ok());
  CHECK(c.resolved_policy().effective_threads == 2);
  CHECK(c.resolved_policy().threads_reason == "num_threads = 2");

  // From the environment.
  ScopedEnv env("TESSERA_NUM_THREADS", "2");
  ContextOptions from_env = injected(4);
  from_env.read_environment = true;
  REQUIRE(Context::create(from_env, &c).ok());
  CHECK(c.resolved_policy().effective_threads == 2);
  CHECK(c.resolved_policy().threads_reason == "TESSERA_NUM_THREADS = 2");
  // 0 means the topology default.
  ScopedEnv zero("TESSERA_NUM_THREADS", "0");
  REQUIRE(Context::create(from_env, &c).ok());
  CHECK(c.resolved_policy().effective_threads == 4);
}

TEST_CASE("a bad TESSERA_NUM_THREADS is an error naming the variable") {
  ScopedEnv env("TESSERA_NUM_THREADS", "abc");
  ContextOptions o = injected(4);
  o.read_environment = true;
  Context c;
  const Status s = Context::create(o, &c);
  CHECK(s.code() == StatusCode::kInvalidArgument);
  CHECK(contains(s.message(), "TESSERA_NUM_THREADS"));
}

TEST_CASE("TESSERA_NUM_THREADS above an explicit cpu_set names the variable") {
  ContextOptions o;
  o.read_environment = false;
  o.topology = platform::make_synthetic_topology(4, 1, 1 << 20, 0);
  o.policy.affinity_policy = AffinityPolicy::kExplicit;
  o.policy.cpu_set = {1, 2};
  o.knobs.num_threads = 3;
  Context c;
  const Status s = Context::create(o, &c);
  CHECK(s.code() == StatusCode::kInvalidArgument);
  CHECK(contains(s.message(), "Knobs::num_threads = 3"));
}

TEST_CASE("an application executor: effective threads are its width, and the policy says so") {
  ContextOptions o = injected(8);
  o.executor = std::make_shared<test::ReverseSerialExecutor>(5);
  Context c;
  REQUIRE(Context::create(o, &c).ok());
  ResolvedExecutionPolicy r = c.resolved_policy();
  CHECK(r.effective_threads == 5);
  CHECK(r.max_threads_per_kernel == 5);
  CHECK(r.executor == "application");
  CHECK(r.worker_cpus.empty());
  CHECK(has_fallback(r, "ContextOptions::executor supplied: effective threads = its width (5)"));
  CHECK(c.state()->executor == o.executor.get());

  o.policy.max_threads_per_kernel = 2;
  REQUIRE(Context::create(o, &c).ok());
  CHECK(c.resolved_policy().max_threads_per_kernel == 2);

  // The policy is still validated.
  o.policy.max_threads_per_kernel = -1;
  CHECK_FALSE(Context::create(o, &c).ok());
}

TEST_CASE("counters: zero when off; dispatches counted when on") {
  if (!native_pool()) return;
  const std::size_t n = 1 << 20;
  const std::vector<float> a = test::random_f32(n, 1);
  const std::vector<float> b = test::random_f32(n, 2);
  std::vector<float> out(n);

  ContextOptions off = injected(2);
  Context quiet;
  REQUIRE(Context::create(off, &quiet).ok());
  REQUIRE(try_add(quiet, {a.data(), n}, {b.data(), n}, {out.data(), n}).ok());
  const ExecutionCounters zero = quiet.counters();
  CHECK(zero.dispatches == 0);
  CHECK(zero.spins == 0);
  CHECK(zero.worker_active_ns == 0);

  ContextOptions on = injected(2);
  on.policy.counters = true;
  Context counted;
  REQUIRE(Context::create(on, &counted).ok());
  REQUIRE(counted.resolved_policy().effective_threads == 2);
  for (int i = 0; i < 3; ++i) {
    REQUIRE(try_add(counted, {a.data(), n}, {b.data(), n}, {out.data(), n}).ok());
  }
  const ExecutionCounters c = counted.counters();
  CHECK(c.dispatches + c.serial_fallbacks == 3);
  // Still the right answer.
  for (std::size_t i = 0; i < n; i += 4099) CHECK(out[i] == a[i] + b[i]);
}

TEST_CASE("failed worker pins are reported in the resolved policy") {
  if (!native_pool() || !platform::platform_facts().affinity_supported) return;
  // A machine whose CPU ids do not exist here: pinning must fail, visibly.
  ContextOptions o;
  o.read_environment = false;
  platform::Topology t;
  t.cpus = {{4000, 4000, 0, CoreClass::kUnknown}, {4001, 4001, 0, CoreClass::kUnknown}};
  o.topology = t;
  o.policy.affinity_policy = AffinityPolicy::kExplicit;
  o.policy.cpu_set = {4000, 4001};
  Context c;
  REQUIRE(Context::create(o, &c).ok());
  const ResolvedExecutionPolicy before = c.resolved_policy();
  REQUIRE(before.effective_threads == 2);
  REQUIRE(before.worker_cpus.size() == 1);
  const int cpu = before.worker_cpus[0];
  // Make sure the worker has started (pins happen as workers start).
  std::atomic<int> calls{0};
  c.state()->executor->run(2, [&](int) { calls.fetch_add(1); });
  CHECK(calls.load() == 2);
  CHECK(has_fallback(c.resolved_policy(), "CPU " + std::to_string(cpu)));
}

}  // namespace
}  // namespace tessera
