// ExecutionPolicy (design.md §Execution policy): validation names the field,
// resolution is a pure function of (policy, topology, platform facts) and
// follows every rule of the affinity and threads contract. Topologies and facts
// are injected, so each machine shape is checked on any host.
#include "tessera/platform/execution_policy.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "support/policy_test_support.hpp"
#include "support/test_support.hpp"

namespace tessera::platform {
namespace {

PlatformFacts linux_facts(int caller_cpu = 0) {
  PlatformFacts f;
  f.threads_usable = true;
  f.affinity_supported = true;
  f.caller_cpu = caller_cpu;
  f.platform_name = "linux";
  return f;
}

PlatformFacts unpinnable_facts() {
  PlatformFacts f;
  f.threads_usable = true;
  f.affinity_supported = false;
  f.caller_cpu = -1;
  f.platform_name = "macOS";
  return f;
}

PlatformFacts wasi_facts() {
  PlatformFacts f;
  f.threads_usable = false;
  f.threads_unusable_reason = "wasi is built without threads";
  f.affinity_supported = false;
  f.platform_name = "wasm";
  return f;
}

using test::kMiB;

using test::synthetic_machine;

// A machine whose SMT siblings ARE adjacent ids (core c = CPUs 2c, 2c+1),
// as on many AMD and Arm systems.
Topology adjacent_sibling_machine(int cores) {
  Topology t;
  for (int c = 0; c < cores; ++c) {
    t.cpus.push_back({2 * c, 2 * c, 0, CoreClass::kUnknown});
    t.cpus.push_back({2 * c + 1, 2 * c, 0, CoreClass::kUnknown});
  }
  t.online_count = 2 * cores;
  t.caches = {{2, kMiB, 2}, {3, 32 * kMiB, 2 * cores}};
  return t;
}

// 4 performance cores with SMT (CPUs 0-7, siblings adjacent) and 8
// efficiency cores without (CPUs 8-15), like a hybrid laptop part.
Topology hybrid_machine() {
  Topology t;
  for (int c = 0; c < 4; ++c) {
    t.cpus.push_back({2 * c, 2 * c, 0, CoreClass::kPerformance});
    t.cpus.push_back({2 * c + 1, 2 * c, 0, CoreClass::kPerformance});
  }
  for (int id = 8; id < 16; ++id) t.cpus.push_back({id, id, 0, CoreClass::kEfficiency});
  t.online_count = 16;
  return t;
}

using test::resolve_ok;

std::string resolve_error(const ExecutionPolicy& policy, const Topology& topology,
                          const PlatformFacts& facts = linux_facts()) {
  ResolvedExecutionPolicy r;
  r.effective_threads = 77;  // must stay untouched on error
  const Status status = resolve_execution_policy(policy, topology, facts, &r);
  CHECK_FALSE(status.ok());
  CHECK(status.code() == StatusCode::kInvalidArgument);
  CHECK(r.effective_threads == 77);
  return status.message();
}

using test::has_fallback;

using test::contains;

const LogicalCpu& cpu_of(const Topology& t, int id) {
  const LogicalCpu* cpu = t.find_cpu(id);
  REQUIRE(cpu != nullptr);
  return *cpu;
}

// ---------------------------------------------------------------------------
// Names

TEST_CASE("names: every enum value round-trips; unknown names are rejected") {
  for (SpinPolicy p : {SpinPolicy::kAdaptive, SpinPolicy::kFixedIterations,
                       SpinPolicy::kFixedDuration, SpinPolicy::kParkImmediately}) {
    SpinPolicy back = SpinPolicy::kAdaptive;
    REQUIRE(parse_spin_policy(spin_policy_name(p), &back));
    CHECK(back == p);
  }
  for (AffinityPolicy p : {AffinityPolicy::kNone, AffinityPolicy::kPhysicalCores,
                           AffinityPolicy::kPerformanceCores, AffinityPolicy::kPhysicalThenSmt,
                           AffinityPolicy::kExplicit}) {
    AffinityPolicy back = AffinityPolicy::kNone;
    REQUIRE(parse_affinity_policy(affinity_policy_name(p), &back));
    CHECK(back == p);
  }
  for (IdlePolicy p : {IdlePolicy::kKeepWorkers, IdlePolicy::kReleaseWhenIdle}) {
    IdlePolicy back = IdlePolicy::kKeepWorkers;
    REQUIRE(parse_idle_policy(idle_policy_name(p), &back));
    CHECK(back == p);
  }
  SpinPolicy s = SpinPolicy::kFixedDuration;
  CHECK_FALSE(parse_spin_policy("spin_forever", &s));
  CHECK(s == SpinPolicy::kFixedDuration);
  AffinityPolicy a = AffinityPolicy::kNone;
  CHECK_FALSE(parse_affinity_policy("Physical_Cores", &a));
  IdlePolicy i = IdlePolicy::kKeepWorkers;
  CHECK_FALSE(parse_idle_policy("", &i));
  CHECK(std::string(spin_policy_name(static_cast<SpinPolicy>(42))) == "unknown");
}

// ---------------------------------------------------------------------------
// Validation: every error names its field

TEST_CASE("validation: negative or absurd num_threads names the field") {
  ExecutionPolicy p;
  p.num_threads = -1;
  const std::string m = resolve_error(p, synthetic_machine(4));
  CHECK(contains(m, "ExecutionPolicy::num_threads"));
  CHECK(contains(m, "-1"));
  p.num_threads = kMaxNumThreads + 1;
  CHECK(contains(resolve_error(p, synthetic_machine(4)), "ExecutionPolicy::num_threads"));
}

TEST_CASE("validation: an unknown enum value (cast int) names the field and the choices") {
  ExecutionPolicy p;
  p.spin_policy = static_cast<SpinPolicy>(9);
  std::string m = resolve_error(p, synthetic_machine(4));
  CHECK(contains(m, "ExecutionPolicy::spin_policy"));
  CHECK(contains(m, "9"));
  CHECK(contains(m, "park_immediately"));

  ExecutionPolicy q;
  q.affinity_policy = static_cast<AffinityPolicy>(200);
  m = resolve_error(q, synthetic_machine(4));
  CHECK(contains(m, "ExecutionPolicy::affinity_policy"));
  CHECK(contains(m, "200"));

  ExecutionPolicy r;
  r.idle_policy = static_cast<IdlePolicy>(3);
  CHECK(contains(resolve_error(r, synthetic_machine(4)), "ExecutionPolicy::idle_policy"));
}

TEST_CASE("validation: a negative spin budget is an error") {
  for (SpinPolicy sp : {SpinPolicy::kFixedIterations, SpinPolicy::kFixedDuration,
                        SpinPolicy::kAdaptive}) {
    ExecutionPolicy p;
    p.spin_policy = sp;
    p.spin_budget = -5;
    const std::string m = resolve_error(p, synthetic_machine(4));
    CHECK(contains(m, "ExecutionPolicy::spin_budget"));
    CHECK(contains(m, "negative"));
  }
}

TEST_CASE("validation: absurd spin budgets (> 1 s, > 1e9 iterations) are errors; the limits pass") {
  ExecutionPolicy p;
  p.spin_policy = SpinPolicy::kFixedDuration;
  p.spin_budget = kMaxSpinDurationUs;
  CHECK(resolve_ok(p, synthetic_machine(4), linux_facts()).spin_budget == kMaxSpinDurationUs);
  p.spin_budget = kMaxSpinDurationUs + 1;
  CHECK(contains(resolve_error(p, synthetic_machine(4)), "absurd"));

  p.spin_policy = SpinPolicy::kFixedIterations;
  p.spin_budget = kMaxSpinIterations;
  CHECK(resolve_ok(p, synthetic_machine(4), linux_facts()).spin_budget == kMaxSpinIterations);
  p.spin_budget = kMaxSpinIterations + 1;
  CHECK(contains(resolve_error(p, synthetic_machine(4)), "ExecutionPolicy::spin_budget"));
}

TEST_CASE("validation: a budget with adaptive or park_immediately is an impossible combination") {
  for (SpinPolicy sp : {SpinPolicy::kAdaptive, SpinPolicy::kParkImmediately}) {
    ExecutionPolicy p;
    p.spin_policy = sp;
    p.spin_budget = 100;
    const std::string m = resolve_error(p, synthetic_machine(4));
    CHECK(contains(m, "ExecutionPolicy::spin_budget"));
    CHECK(contains(m, "impossible"));
    CHECK(contains(m, spin_policy_name(sp)));
  }
}

TEST_CASE("validation: idle_release_ms must be > 0 with release, never negative, never absurd") {
  ExecutionPolicy p;
  p.idle_policy = IdlePolicy::kReleaseWhenIdle;
  p.idle_release_ms = 0;
  CHECK(contains(resolve_error(p, synthetic_machine(4)), "ExecutionPolicy::idle_release_ms"));
  p.idle_policy = IdlePolicy::kKeepWorkers;
  p.idle_release_ms = -1;
  CHECK(contains(resolve_error(p, synthetic_machine(4)), "ExecutionPolicy::idle_release_ms"));
  p.idle_release_ms = kMaxIdleReleaseMs + 1;
  CHECK(contains(resolve_error(p, synthetic_machine(4)), "absurd"));
  p.idle_policy = IdlePolicy::kReleaseWhenIdle;
  p.idle_release_ms = 5;
  CHECK(resolve_ok(p, synthetic_machine(4), linux_facts()).idle_release_ms == 5);
}

TEST_CASE("validation: negative max_threads_per_kernel names the field") {
  ExecutionPolicy p;
  p.max_threads_per_kernel = -2;
  CHECK(
      contains(resolve_error(p, synthetic_machine(4)), "ExecutionPolicy::max_threads_per_kernel"));
}

TEST_CASE("validation: cpu_set with a non-explicit affinity is an impossible combination") {
  for (AffinityPolicy a : {AffinityPolicy::kNone, AffinityPolicy::kPhysicalCores,
                           AffinityPolicy::kPerformanceCores, AffinityPolicy::kPhysicalThenSmt}) {
    ExecutionPolicy p;
    p.affinity_policy = a;
    p.cpu_set = {1, 2};
    const std::string m = resolve_error(p, synthetic_machine(4));
    CHECK(contains(m, "ExecutionPolicy::cpu_set"));
    CHECK(contains(m, affinity_policy_name(a)));
  }
}

TEST_CASE("validation: explicit affinity with an empty cpu_set is an error (an empty request)") {
  ExecutionPolicy p;
  p.affinity_policy = AffinityPolicy::kExplicit;
  const std::string m = resolve_error(p, synthetic_machine(4));
  CHECK(contains(m, "ExecutionPolicy::cpu_set"));
  CHECK(contains(m, "empty"));
  // Also where the platform cannot pin: the request itself is empty.
  CHECK(contains(resolve_error(p, synthetic_machine(4), unpinnable_facts()), "empty"));
}

TEST_CASE("validation: duplicate and negative CPU ids are errors") {
  ExecutionPolicy p;
  p.affinity_policy = AffinityPolicy::kExplicit;
  p.cpu_set = {1, 3, 1};
  std::string m = resolve_error(p, synthetic_machine(4));
  CHECK(contains(m, "ExecutionPolicy::cpu_set"));
  CHECK(contains(m, "CPU 1 twice"));
  p.cpu_set = {0, -3};
  m = resolve_error(p, synthetic_machine(4));
  CHECK(contains(m, "-3"));
}

TEST_CASE("validation: a CPU id outside the visible set is an error listing the visible set") {
  Topology t = synthetic_machine(8);  // CPUs 0-7
  t.cpus.erase(t.cpus.begin() + 5);  // CPU 5 not visible (e.g. taskset)
  ExecutionPolicy p;
  p.affinity_policy = AffinityPolicy::kExplicit;
  p.cpu_set = {0, 99};
  std::string m = resolve_error(p, t);
  CHECK(contains(m, "ExecutionPolicy::cpu_set"));
  CHECK(contains(m, "CPU 99"));
  CHECK(contains(m, "{0-4,6-7}"));
  p.cpu_set = {5};
  m = resolve_error(p, t);
  CHECK(contains(m, "CPU 5"));
}

TEST_CASE("validation: num_threads above the size of an explicit cpu_set is impossible") {
  ExecutionPolicy p;
  p.affinity_policy = AffinityPolicy::kExplicit;
  p.cpu_set = {1, 2};
  p.num_threads = 3;
  const std::string m = resolve_error(p, synthetic_machine(4));
  CHECK(contains(m, "ExecutionPolicy::num_threads"));
  CHECK(contains(m, "2 CPUs of cpu_set"));
  p.num_threads = 2;
  CHECK(resolve_ok(p, synthetic_machine(4), linux_facts()).effective_threads == 2);
}

TEST_CASE("validation: of several bad fields, the first in checking order is the error") {
  // Every field bad at once; mending them one at a time walks the order in
  // which validate_execution_policy checks them (C and JS callers see the
  // same message for the same policy).
  ExecutionPolicy p;
  p.num_threads = -1;
  p.spin_policy = static_cast<SpinPolicy>(9);
  p.spin_budget = -1;
  p.affinity_policy = static_cast<AffinityPolicy>(200);
  p.idle_policy = static_cast<IdlePolicy>(3);
  p.idle_release_ms = -1;
  p.max_threads_per_kernel = -1;
  p.cpu_set = {-1};
  const auto first_error_names = [&](const char* field) {
    return resolve_error(p, synthetic_machine(4)).starts_with(
        std::string("ExecutionPolicy::") + field + " ");
  };
  CHECK(first_error_names("num_threads"));
  p.num_threads = 8;
  CHECK(first_error_names("spin_policy"));
  p.spin_policy = SpinPolicy::kAdaptive;
  CHECK(first_error_names("spin_budget"));
  p.spin_budget = 0;
  CHECK(first_error_names("affinity_policy"));
  p.affinity_policy = AffinityPolicy::kExplicit;
  CHECK(first_error_names("idle_policy"));
  p.idle_policy = IdlePolicy::kReleaseWhenIdle;
  CHECK(first_error_names("idle_release_ms"));
  p.idle_release_ms = 10;
  CHECK(first_error_names("max_threads_per_kernel"));
  p.max_threads_per_kernel = 0;
  // The CPU set: its ids in list order, then the thread count it allows,
  // then whether the ids are visible.
  p.cpu_set = {1, 1, -1};
  CHECK(contains(resolve_error(p, synthetic_machine(4)), "cpu_set lists CPU 1 twice"));
  p.cpu_set = {-1, 99};
  CHECK(contains(resolve_error(p, synthetic_machine(4)), "cpu_set contains -1"));
  p.cpu_set = {98, 99};
  CHECK(first_error_names("num_threads"));
  p.num_threads = 2;
  CHECK(contains(resolve_error(p, synthetic_machine(4)), "cpu_set contains CPU 98"));
}

TEST_CASE("validation: cpu_set without affinity_policy means explicit") {
  ExecutionPolicy p;
  p.cpu_set = {2, 3};
  const ResolvedExecutionPolicy r = resolve_ok(p, synthetic_machine(4), linux_facts(0));
  CHECK(r.affinity_policy == AffinityPolicy::kExplicit);
  CHECK(r.effective_threads == 2);
  CHECK(r.worker_cpus.size() == 1);
}

// ---------------------------------------------------------------------------
// Threads

TEST_CASE("threads: 0 is the topology default, one participant per physical core") {
  for (int cores : {2, 8, 16, 64}) {
    for (int smt : {1, 2}) {
      ExecutionPolicy p;
      const ResolvedExecutionPolicy r = resolve_ok(p, synthetic_machine(cores, smt), linux_facts());
      CHECK(r.effective_threads == cores);
      CHECK(r.max_threads_per_kernel == cores);
      CHECK(r.executor == "pool");
      CHECK(r.fallbacks.empty());
      CHECK(contains(r.threads_reason, "topology default"));
    }
  }
}

TEST_CASE("threads: a cgroup quota smaller than the CPU set lowers the default, with its reason") {
  Topology t = synthetic_machine(8, 2);
  t.cpu_quota = 2.5;
  t.quota_source = "cgroup v2 cpu.max at /test";
  const ResolvedExecutionPolicy r = resolve_ok(ExecutionPolicy{}, t, linux_facts());
  CHECK(r.effective_threads == 2);
  CHECK(has_fallback(r, "cgroup quota limits to 2 CPUs"));
  CHECK(has_fallback(r, "cgroup v2 cpu.max at /test"));

  t.cpu_quota = 0.5;
  const ResolvedExecutionPolicy one = resolve_ok(ExecutionPolicy{}, t, linux_facts());
  CHECK(one.effective_threads == 1);
  CHECK(one.executor == "serial");
  CHECK(has_fallback(one, "cgroup quota limits to 1 CPU"));

  // A quota at or above the core count changes nothing.
  t.cpu_quota = 8.0;
  const ResolvedExecutionPolicy same = resolve_ok(ExecutionPolicy{}, t, linux_facts());
  CHECK(same.effective_threads == 8);
  CHECK_FALSE(has_fallback(same, "quota"));
}

TEST_CASE("threads: a visible set narrower than the online CPUs is reported (taskset)") {
  Topology t = synthetic_machine(2);
  t.cpus.resize(1);  // only CPU 0 visible
  t.online_count = 2;
  const ResolvedExecutionPolicy r = resolve_ok(ExecutionPolicy{}, t, linux_facts(0));
  CHECK(r.effective_threads == 1);
  CHECK(has_fallback(r, "limits to 1 of 2 online CPUs"));
}

TEST_CASE("threads: an explicit n is honoured exactly within the visible CPUs") {
  for (int n : {1, 2, 3, 5, 8}) {
    ExecutionPolicy p;
    p.num_threads = n;
    const ResolvedExecutionPolicy r = resolve_ok(p, synthetic_machine(8), linux_facts());
    CHECK(r.effective_threads == n);
    CHECK(r.fallbacks.empty());
    CHECK(r.executor == (n > 1 ? "pool" : "serial"));
  }
}

TEST_CASE("threads: an explicit n above the visible CPUs is capped, never oversubscribed") {
  ExecutionPolicy p;
  p.num_threads = 16;
  const ResolvedExecutionPolicy r = resolve_ok(p, synthetic_machine(8), linux_facts());
  CHECK(r.effective_threads == 8);
  CHECK(has_fallback(r, "never oversubscribes"));
  CHECK(contains(r.threads_reason, "capped at 8"));
}

TEST_CASE("threads: an explicit n is also capped by the cgroup quota") {
  Topology t = synthetic_machine(8);
  t.cpu_quota = 4.0;
  ExecutionPolicy p;
  p.num_threads = 6;
  const ResolvedExecutionPolicy r = resolve_ok(p, t, linux_facts());
  CHECK(r.effective_threads == 4);
  CHECK(has_fallback(r, "cgroup quota limits to 4 CPUs"));
}

TEST_CASE("threads: when threads are unusable every request resolves to 1 with a diagnostic") {
  for (int n : {0, 1, 2, 64}) {
    ExecutionPolicy p;
    p.num_threads = n;
    const ResolvedExecutionPolicy r = resolve_ok(p, synthetic_machine(8), wasi_facts());
    CHECK(r.effective_threads == 1);
    CHECK(r.max_threads_per_kernel == 1);
    CHECK_FALSE(r.threads_usable);
    CHECK(r.executor == "serial");
    CHECK(has_fallback(r, "threads unusable on this target (wasi is built without threads)"));
    if (n > 1) CHECK(has_fallback(r, "num_threads = " + std::to_string(n)));
  }
}

TEST_CASE("threads: max_threads_per_kernel lowers, never exceeds") {
  ExecutionPolicy p;
  p.max_threads_per_kernel = 3;
  ResolvedExecutionPolicy r = resolve_ok(p, synthetic_machine(8), linux_facts());
  CHECK(r.effective_threads == 8);
  CHECK(r.max_threads_per_kernel == 3);
  CHECK(r.fallbacks.empty());
  p.max_threads_per_kernel = 20;
  r = resolve_ok(p, synthetic_machine(8), linux_facts());
  CHECK(r.max_threads_per_kernel == 8);
  CHECK(has_fallback(r, "max_threads_per_kernel = 20"));
}

TEST_CASE("threads: the source name appears in the reason (TESSERA_NUM_THREADS)") {
  ExecutionPolicy p;
  p.num_threads = 3;
  ResolvedExecutionPolicy r;
  ResolutionInputs inputs;
  inputs.default_num_threads = p.num_threads;
  p.num_threads = 0;
  REQUIRE(resolve_execution_policy(p, synthetic_machine(8), linux_facts(), &r, inputs).ok());
  CHECK(r.threads_reason == "TESSERA_NUM_THREADS = 3");
}

// ---------------------------------------------------------------------------
// Affinity

TEST_CASE("affinity: the default pins one CPU per physical core where pinning works") {
  ExecutionPolicy p;
  const ResolvedExecutionPolicy r = resolve_ok(p, synthetic_machine(4), linux_facts(0));
  CHECK(r.affinity_policy == AffinityPolicy::kPhysicalCores);
  CHECK(r.worker_cpus == std::vector<int>{1, 2, 3});
  CHECK(r.worker_cores == std::vector<int>{1, 2, 3});
}

TEST_CASE("affinity: physical_cores never assumes adjacent ids are siblings") {
  ExecutionPolicy p;
  p.affinity_policy = AffinityPolicy::kPhysicalCores;
  p.num_threads = 4;
  // Siblings non-adjacent (c, c+8): CPUs 1, 2, 3 are distinct cores.
  const Topology spread = synthetic_machine(8, 2);
  ResolvedExecutionPolicy r = resolve_ok(p, spread, linux_facts(0));
  CHECK(r.worker_cpus == std::vector<int>{1, 2, 3});
  // Siblings adjacent (2c, 2c+1): CPU 1 shares CPU 0's core; use 2, 4, 6.
  const Topology adjacent = adjacent_sibling_machine(8);
  r = resolve_ok(p, adjacent, linux_facts(0));
  CHECK(r.worker_cpus == std::vector<int>{2, 4, 6});
  CHECK_FALSE(r.uses_smt_siblings);
  std::set<int> cores;
  for (int id : r.worker_cpus) cores.insert(cpu_of(adjacent, id).core);
  CHECK(cores.size() == 3);
}

TEST_CASE("affinity: workers avoid the caller's physical core when enough others exist") {
  ExecutionPolicy p;
  p.affinity_policy = AffinityPolicy::kPhysicalCores;
  const Topology t = synthetic_machine(8, 2);  // core c = CPUs c, c+8
  // The caller runs on CPU 9 (core 1's second thread).
  p.num_threads = 4;
  ResolvedExecutionPolicy r = resolve_ok(p, t, linux_facts(9));
  CHECK(r.caller_cpu == 9);
  CHECK(r.worker_cpus == std::vector<int>{0, 2, 3});
  // Full physical width: 7 workers fit on the 7 other cores exactly.
  p.num_threads = 8;
  r = resolve_ok(p, t, linux_facts(9));
  REQUIRE(r.worker_cpus.size() == 7);
  for (int id : r.worker_cpus) CHECK(cpu_of(t, id).core != 1);
  CHECK_FALSE(r.uses_smt_siblings);
}

TEST_CASE("affinity: with more workers than other cores, the caller's own CPU is taken last") {
  ExecutionPolicy p;
  p.affinity_policy = AffinityPolicy::kPhysicalCores;
  p.num_threads = 16;  // every logical CPU of 8 cores x 2
  const ResolvedExecutionPolicy r = resolve_ok(p, synthetic_machine(8, 2), linux_facts(0));
  REQUIRE(r.worker_cpus.size() == 15);
  CHECK(std::find(r.worker_cpus.begin(), r.worker_cpus.end(), 0) == r.worker_cpus.end());
  CHECK(r.uses_smt_siblings);
  CHECK(has_fallback(r, "placed on SMT siblings"));
  // Physical cores first: the first 7 workers are on 7 distinct cores.
  std::set<int> first;
  for (int i = 0; i < 7; ++i) first.insert(r.worker_cores[i]);
  CHECK(first.size() == 7);
}

TEST_CASE("affinity: physical_then_smt uses every core before any sibling, without a fallback") {
  ExecutionPolicy p;
  p.affinity_policy = AffinityPolicy::kPhysicalThenSmt;
  const Topology t = adjacent_sibling_machine(4);  // CPUs 0-7, core = 2c
  p.num_threads = 4;
  ResolvedExecutionPolicy r = resolve_ok(p, t, linux_facts(0));
  CHECK(r.worker_cpus == std::vector<int>{2, 4, 6});
  CHECK_FALSE(r.uses_smt_siblings);
  p.num_threads = 8;
  r = resolve_ok(p, t, linux_facts(0));
  // Cores 1-3, then core 0's free sibling (1), then the other siblings.
  CHECK(r.worker_cpus == std::vector<int>{2, 4, 6, 1, 3, 5, 7});
  CHECK(r.uses_smt_siblings);
  CHECK(r.fallbacks.empty());
}

TEST_CASE("affinity: performance cores come first; efficiency cores only when they run out") {
  const Topology t = hybrid_machine();
  ExecutionPolicy p;
  p.affinity_policy = AffinityPolicy::kPhysicalCores;
  p.num_threads = 8;
  ResolvedExecutionPolicy r = resolve_ok(p, t, linux_facts(0));
  // P cores 1-3 (CPUs 2, 4, 6), then E cores; never the caller's core.
  CHECK(r.worker_cpus == std::vector<int>{2, 4, 6, 8, 9, 10, 11});
  CHECK(r.worker_classes[0] == CoreClass::kPerformance);
  CHECK(r.worker_classes[3] == CoreClass::kEfficiency);

  p.affinity_policy = AffinityPolicy::kPerformanceCores;
  p.num_threads = 4;
  r = resolve_ok(p, t, linux_facts(0));
  CHECK(r.worker_cpus == std::vector<int>{2, 4, 6});
  CHECK(r.fallbacks.empty());
  // 7 workers: the P cores' threads (the caller's CPU last), no E core.
  p.num_threads = 8;
  r = resolve_ok(p, t, linux_facts(0));
  CHECK(r.worker_cpus == std::vector<int>{2, 4, 6, 1, 3, 5, 7});
  for (CoreClass c : r.worker_classes) CHECK(c == CoreClass::kPerformance);
  // 11 workers: more than the P cores hold, spill onto E cores and say so.
  p.num_threads = 12;
  r = resolve_ok(p, t, linux_facts(0));
  CHECK(r.worker_cpus.size() == 11);
  CHECK(has_fallback(r, "placed on efficiency cores"));
}

TEST_CASE("affinity: performance_cores without class facts falls back, saying so") {
  ExecutionPolicy p;
  p.affinity_policy = AffinityPolicy::kPerformanceCores;
  p.num_threads = 3;
  const ResolvedExecutionPolicy r = resolve_ok(p, synthetic_machine(4), linux_facts(0));
  CHECK(r.worker_cpus == std::vector<int>{1, 2});
  CHECK(has_fallback(r, "does not expose performance/efficiency classes"));
}

TEST_CASE("affinity: explicit uses exactly cpu_set, entries on the caller's core last") {
  const Topology t = adjacent_sibling_machine(4);  // core = 2c
  ExecutionPolicy p;
  p.affinity_policy = AffinityPolicy::kExplicit;
  p.cpu_set = {1, 4, 6};  // CPU 1 shares the caller's core (CPU 0)
  ResolvedExecutionPolicy r = resolve_ok(p, t, linux_facts(0));
  CHECK(r.effective_threads == 3);
  CHECK(r.worker_cpus == std::vector<int>{4, 6});
  p.num_threads = 2;
  r = resolve_ok(p, t, linux_facts(0));
  CHECK(r.worker_cpus == std::vector<int>{4});
  // The caller on CPU 4: its core's entries go last, CPU 1 is free.
  ExecutionPolicy q;
  q.affinity_policy = AffinityPolicy::kExplicit;
  q.cpu_set = {4, 1};
  q.num_threads = 2;
  r = resolve_ok(q, t, linux_facts(4));
  CHECK(r.worker_cpus == std::vector<int>{1});
  // Every listed CPU needed: the caller's core is used, its own CPU last.
  q.cpu_set = {4, 5, 1};
  q.num_threads = 3;
  r = resolve_ok(q, t, linux_facts(4));
  CHECK(r.worker_cpus == std::vector<int>{1, 5});
}

TEST_CASE("affinity: none pins nothing") {
  ExecutionPolicy p;
  p.affinity_policy = AffinityPolicy::kNone;
  const ResolvedExecutionPolicy r = resolve_ok(p, synthetic_machine(8), linux_facts(0));
  CHECK(r.effective_threads == 8);
  CHECK(r.worker_cpus.empty());
  CHECK(r.affinity_policy == AffinityPolicy::kNone);
}

TEST_CASE("affinity: unsupported platform resolves to none with a fallback, not an error") {
  ExecutionPolicy p;
  p.affinity_policy = AffinityPolicy::kExplicit;
  p.cpu_set = {0, 99};  // cannot be checked where nothing can be pinned
  ResolvedExecutionPolicy r = resolve_ok(p, synthetic_machine(4), unpinnable_facts());
  CHECK(r.affinity_policy == AffinityPolicy::kNone);
  CHECK(r.worker_cpus.empty());
  CHECK(has_fallback(r, "affinity_policy = explicit is not supported on this platform (macOS)"));
  CHECK(has_fallback(r, "cpu_set ignored"));

  p = ExecutionPolicy{};
  p.affinity_policy = AffinityPolicy::kPhysicalCores;
  r = resolve_ok(p, synthetic_machine(4), unpinnable_facts());
  CHECK(r.affinity_policy == AffinityPolicy::kNone);
  CHECK(has_fallback(r, "not supported on this platform"));

  // Nothing requested: the platform default (none) is not a fallback.
  r = resolve_ok(ExecutionPolicy{}, synthetic_machine(4), unpinnable_facts());
  CHECK(r.affinity_policy == AffinityPolicy::kNone);
  CHECK(r.fallbacks.empty());
  CHECK(r.effective_threads == 4);
}

// ---------------------------------------------------------------------------
// Printing and the registry key

TEST_CASE("printing: to_string and to_json carry every field and every fallback") {
  Topology t = synthetic_machine(8, 2);
  t.cpu_quota = 3.0;
  ExecutionPolicy p;
  p.spin_policy = SpinPolicy::kFixedDuration;
  p.spin_budget = 40;
  p.idle_policy = IdlePolicy::kReleaseWhenIdle;
  p.idle_release_ms = 250;
  p.counters = true;
  const ResolvedExecutionPolicy r = resolve_ok(p, t, linux_facts(0));
  const std::string text = r.to_string();
  CHECK(contains(text, "effective threads: 3"));
  CHECK(contains(text, "fixed_duration (40 us)"));
  CHECK(contains(text, "release_when_idle (after 250 ms)"));
  CHECK(contains(text, "cgroup quota limits to 3 CPUs"));
  CHECK(contains(text, "workers on CPUs 1,2"));
  const std::string json = r.to_json();
  CHECK(json.front() == '{');
  CHECK(json.back() == '}');
  CHECK(contains(json, "\"effective_threads\":3"));
  CHECK(contains(json, "\"worker_cpus\":[1,2]"));
  CHECK(contains(json, "\"spin_policy\":\"fixed_duration\""));
  CHECK(contains(json, "\"spin_budget\":40"));
  CHECK(contains(json, "\"idle_policy\":\"release_when_idle\""));
  CHECK(contains(json, "\"counters\":true"));
  CHECK(contains(json, "\"fallbacks\":[\"cgroup quota limits to 3 CPUs"));
}

TEST_CASE("registry key: complete for pool behaviour, blind to what pools never see") {
  const Topology t = synthetic_machine(8);
  ExecutionPolicy base;
  base.affinity_policy = AffinityPolicy::kNone;
  base.num_threads = 4;
  const std::string key = resolve_ok(base, t, linux_facts(0)).registry_key();
  CHECK(resolve_ok(base, t, linux_facts(0)).registry_key() == key);

  auto differs = [&](const ExecutionPolicy& p) {
    return resolve_ok(p, t, linux_facts(0)).registry_key() != key;
  };
  ExecutionPolicy p = base;
  p.num_threads = 3;
  CHECK(differs(p));
  p = base;
  p.spin_policy = SpinPolicy::kParkImmediately;
  CHECK(differs(p));
  p = base;
  p.spin_policy = SpinPolicy::kFixedIterations;
  p.spin_budget = 100;
  ExecutionPolicy p2 = p;
  p2.spin_budget = 200;
  CHECK(resolve_ok(p, t, linux_facts(0)).registry_key() !=
        resolve_ok(p2, t, linux_facts(0)).registry_key());
  p = base;
  p.affinity_policy = AffinityPolicy::kPhysicalCores;
  CHECK(differs(p));
  p = base;
  p.idle_policy = IdlePolicy::kReleaseWhenIdle;
  CHECK(differs(p));
  p2 = p;
  p2.idle_release_ms = 5000;
  CHECK(resolve_ok(p, t, linux_facts(0)).registry_key() !=
        resolve_ok(p2, t, linux_facts(0)).registry_key());
  p = base;
  p.counters = true;
  CHECK(differs(p));
  p = base;
  p.allow_nested_parallelism = true;
  CHECK(differs(p));
  ResolvedExecutionPolicy tiered = resolve_ok(base, t, linux_facts(0));
  tiered.pool_classes = 2;
  CHECK(tiered.registry_key() != key);
  // Not observable by a pool: the per-kernel limit and, unpinned, the
  // caller's CPU.
  p = base;
  p.max_threads_per_kernel = 2;
  CHECK_FALSE(differs(p));
  CHECK(resolve_ok(base, t, linux_facts(5)).registry_key() == key);
  // keep_workers ignores idle_release_ms.
  p = base;
  p.idle_release_ms = 77;
  CHECK_FALSE(differs(p));
}

}  // namespace
}  // namespace tessera::platform
