// Execution policy (SPEC 2.2): a typed request, validated and resolved once
// when a Context is made into an immutable ResolvedExecutionPolicy that says
// what will really run and lists every fallback taken, with its reason.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tessera/platform/status.hpp"
#include "tessera/platform/topology.hpp"

namespace tessera::platform {

enum class SpinPolicy : std::uint8_t {
  kAdaptive,         // bounded adaptive spin, then park (default)
  kFixedIterations,  // spin_budget iterations, then park
  kFixedDuration,    // spin_budget microseconds, then park
  kParkImmediately,  // never spin
};

enum class AffinityPolicy : std::uint8_t {
  kNone,              // never pin (default off Linux)
  kPhysicalCores,     // one logical CPU per physical core
  kPerformanceCores,  // physical cores, performance class first
  kPhysicalThenSmt,   // every physical core, then their SMT siblings
  kExplicit,          // exactly cpu_set
};

enum class IdlePolicy : std::uint8_t {
  kKeepWorkers,      // parked workers stay (and keep their affinity)
  kReleaseWhenIdle,  // join workers after idle_release_ms without work
};

const char* spin_policy_name(SpinPolicy p) noexcept;
const char* affinity_policy_name(AffinityPolicy p) noexcept;
const char* idle_policy_name(IdlePolicy p) noexcept;

struct ExecutionPolicy {
  // 0 = topology default; 1 = serial; n > 1 = exactly n participants
  // including the caller.
  int num_threads = 0;
  SpinPolicy spin_policy = SpinPolicy::kAdaptive;
  // kFixedIterations: iterations; kFixedDuration: microseconds; otherwise
  // must be 0. Negative is an error.
  std::int64_t spin_budget = 0;
  // Unset: the platform default (physical_cores on Linux, none elsewhere).
  std::optional<AffinityPolicy> affinity_policy;
  // Logical CPU ids for kExplicit (validated against the visible set).
  std::vector<int> cpu_set;
  IdlePolicy idle_policy = IdlePolicy::kKeepWorkers;
  // kReleaseWhenIdle: release workers after this long without work.
  std::int64_t idle_release_ms = 1000;
  bool allow_nested_parallelism = false;
  // 0 = no limit; a kernel may lower, never exceed, the participant count.
  int max_threads_per_kernel = 0;
  bool counters = false;
};

struct ResolvedExecutionPolicy {
  int effective_threads = 1;          // participants, the caller included
  int max_threads_per_kernel = 1;     // <= effective_threads
  bool threads_usable = false;        // the target can run workers at all
  // Per worker participant 1..n-1 (index 0 is the caller, never pinned unless
  // asked): logical CPU, physical core and class; empty when not pinning.
  std::vector<int> worker_cpus;
  std::vector<int> worker_cores;
  std::vector<CoreClass> worker_classes;
  bool uses_smt_siblings = false;
  SpinPolicy spin_policy = SpinPolicy::kAdaptive;
  std::int64_t spin_budget = 0;
  AffinityPolicy affinity_policy = AffinityPolicy::kNone;
  IdlePolicy idle_policy = IdlePolicy::kKeepWorkers;
  std::int64_t idle_release_ms = 1000;
  bool allow_nested_parallelism = false;
  bool counters = false;
  // Every fallback taken, each with its reason ("cgroup quota limits to 2
  // CPUs", "affinity not supported on this platform", ...).
  std::vector<std::string> fallbacks;

  std::string to_string() const;
  std::string to_json() const;
  // Pools are shared per complete resolved policy (not thread count alone):
  // two policies with equal keys may share a pool.
  std::string registry_key() const;
};

}  // namespace tessera::platform
