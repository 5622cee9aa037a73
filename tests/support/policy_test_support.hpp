// Helpers of the execution-policy tests: a synthetic machine, a resolution
// that must succeed, and a look into what a resolution fell back from.
#pragma once

#include <doctest/doctest.h>

#include <cstdint>
#include <string>

#include "support/test_support.hpp"
#include "tessera/platform/execution_policy.hpp"

namespace tessera::test {

// `cores` physical cores of `smt` threads each, 1 MiB of L2 per core and a
// shared 32 MiB L3.
inline platform::Topology synthetic_machine(int cores, int smt = 1) {
  return platform::make_synthetic_topology(cores, smt, 1 * kMiB, 32 * kMiB);
}

// The resolution of `policy`; the test stops, with the error, if it fails.
inline platform::ResolvedExecutionPolicy resolve_ok(
    const platform::ExecutionPolicy& policy, const platform::Topology& topology,
    const platform::PlatformFacts& facts, const platform::ResolutionInputs& inputs = {}) {
  platform::ResolvedExecutionPolicy r;
  const Status status = platform::resolve_execution_policy(policy, topology, facts, &r, inputs);
  REQUIRE_MESSAGE(status.ok(), status.to_string());
  return r;
}

// Whether one of the resolution's fallback reasons mentions `text`.
inline bool has_fallback(const platform::ResolvedExecutionPolicy& r, const std::string& text) {
  for (const std::string& f : r.fallbacks) {
    if (contains(f, text)) return true;
  }
  return false;
}

// A resolved policy for a pool of `threads` participants, as the pool
// tests build their pools from.
inline platform::ResolvedExecutionPolicy pool_policy(
    int threads, platform::SpinPolicy spin = platform::SpinPolicy::kAdaptive,
    std::int64_t budget = 0) {
  platform::ResolvedExecutionPolicy p;
  p.effective_threads = threads;
  p.max_threads_per_kernel = threads;
  p.threads_usable = true;
  p.spin_policy = spin;
  p.spin_budget = budget;
  p.executor = "pool";
  return p;
}

}  // namespace tessera::test
