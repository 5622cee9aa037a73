// Processes sharing the visible CPUs (MPI ranks without binding) each
// resolve against their own share of the physical cores
// (tessera/platform/node_share.hpp, design.md §Node share).
#include <doctest/doctest.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "support/policy_test_support.hpp"
#include "tessera/platform/execution_policy.hpp"

namespace tessera::platform {
namespace {

PlatformFacts linux_facts(NodeShare share, int caller_cpu = 0) {
  PlatformFacts f;
  f.threads_usable = true;
  f.affinity_supported = true;
  f.caller_cpu = caller_cpu;
  f.platform_name = "linux";
  f.node_share = std::move(share);
  return f;
}

NodeShare share(int processes, int index) {
  return {processes, index, "OMPI_COMM_WORLD_LOCAL_SIZE = " + std::to_string(processes)};
}

using test::synthetic_machine;

using test::has_fallback;
using test::resolve_ok;

// The physical cores of the CPUs a resolution pins its workers to, plus the
// share the fallback names, for disjointness checks.
std::set<int> cores_of(const Topology& t, const std::vector<int>& cpus) {
  std::set<int> cores;
  for (int id : cpus) cores.insert(t.find_cpu(id)->core);
  return cores;
}

TEST_CASE("node share: the shares partition the cores, sizes differ by at most one") {
  for (int cores : {1, 2, 3, 7, 8, 64}) {
    for (int processes : {2, 3, 4, 5}) {
      CAPTURE(cores);
      CAPTURE(processes);
      const Topology t = synthetic_machine(cores, 2);
      std::set<int> seen;
      int smallest = 1 << 30, largest = 0;
      for (int index = 0; index < processes; ++index) {
        std::string note;
        const Topology mine = share_of_topology(t, share(processes, index), &note);
        CHECK(note.find(std::to_string(processes) + " processes share") != std::string::npos);
        CHECK(mine.online_count == mine.logical_count());
        CHECK(mine.logical_count() % 2 == 0);  // whole cores, SMT siblings included
        const int n = mine.physical_core_count();
        smallest = std::min(smallest, n);
        largest = std::max(largest, n);
        for (const LogicalCpu& cpu : mine.cpus) {
          if (processes <= cores)
            CHECK(seen.insert(cpu.id).second);  // disjoint
          else
            seen.insert(cpu.id);
        }
      }
      CHECK(largest - smallest <= 1);
      if (processes <= cores) {
        CHECK(static_cast<int>(seen.size()) == t.logical_count());  // nothing left out
      } else {
        CHECK(largest == 1);
        CHECK(static_cast<int>(seen.size()) == t.logical_count());
      }
    }
  }
}

TEST_CASE(
    "node share: two unbound ranks on 2 cores resolve to 1 thread each, "
    "saying why") {
  for (int index = 0; index < 2; ++index) {
    const ResolvedExecutionPolicy r =
        resolve_ok(ExecutionPolicy{}, synthetic_machine(2), linux_facts(share(2, index)));
    CHECK(r.effective_threads == 1);
    CHECK(r.executor == "serial");
    CHECK(r.threads_reason.find("this process's share of the node") != std::string::npos);
    CHECK(has_fallback(r,
                       "2 processes share the visible CPUs {0-1} "
                       "(OMPI_COMM_WORLD_LOCAL_SIZE"));
    CHECK(has_fallback(r, "takes {" + std::to_string(index) + "}"));
  }
}

TEST_CASE("node share: workers of different shares are pinned to disjoint cores") {
  const Topology t = synthetic_machine(16, 2);
  std::set<int> all;
  for (int index = 0; index < 4; ++index) {
    const ResolvedExecutionPolicy r =
        resolve_ok(ExecutionPolicy{}, t, linux_facts(share(4, index), /*caller_cpu=*/-1));
    CHECK(r.effective_threads == 4);
    REQUIRE(r.worker_cpus.size() == 3u);
    for (int core : cores_of(t, r.worker_cpus)) CHECK(all.insert(core).second);
  }
}

TEST_CASE(
    "node share: an explicit num_threads is capped at the share, never "
    "oversubscribing") {
  ExecutionPolicy p;
  p.num_threads = 8;
  const ResolvedExecutionPolicy r = resolve_ok(p, synthetic_machine(8), linux_facts(share(2, 1)));
  CHECK(r.effective_threads == 4);
  CHECK(has_fallback(r, "capped at 4"));
  CHECK(has_fallback(r, "takes {4-7}"));
}

TEST_CASE(
    "node share: more processes than cores get one (shared) core each, "
    "and say so") {
  const ResolvedExecutionPolicy r =
      resolve_ok(ExecutionPolicy{}, synthetic_machine(2), linux_facts(share(4, 3)));
  CHECK(r.effective_threads == 1);
  CHECK(has_fallback(r, "more processes than cores"));
  CHECK(has_fallback(r, "takes {1}"));
}

TEST_CASE("node share: an explicit cpu_set is kept, with a note") {
  ExecutionPolicy p;
  p.cpu_set = {0, 1, 2};
  const ResolvedExecutionPolicy r = resolve_ok(p, synthetic_machine(4), linux_facts(share(2, 0)));
  CHECK(r.effective_threads == 3);
  CHECK(has_fallback(r, "the explicit cpu_set decides"));
}

TEST_CASE(
    "node share: the programmatic share wins over the launcher's; none "
    "means the whole node") {
  ResolutionInputs inputs;
  inputs.node_share = NodeShare{1, 0, "MPI_COMM_TYPE_SHARED"};
  const ResolvedExecutionPolicy whole =
      resolve_ok(ExecutionPolicy{}, synthetic_machine(4), linux_facts(share(4, 2)), inputs);
  CHECK(whole.effective_threads == 4);
  CHECK_FALSE(has_fallback(whole, "processes share"));

  inputs.node_share = NodeShare{2, 1, "MPI_COMM_TYPE_SHARED: 2 ranks"};
  const ResolvedExecutionPolicy half =
      resolve_ok(ExecutionPolicy{}, synthetic_machine(4), linux_facts({}), inputs);
  CHECK(half.effective_threads == 2);
  CHECK(has_fallback(half, "(MPI_COMM_TYPE_SHARED: 2 ranks): this one (1 of 2) takes {2-3}"));
}

TEST_CASE(
    "node share: a bad share is an error naming the field; threads "
    "unusable ignore it") {
  ResolutionInputs inputs;
  inputs.node_share = NodeShare{2, 2, "test"};
  ResolvedExecutionPolicy r;
  Status s = resolve_execution_policy(ExecutionPolicy{}, synthetic_machine(4), linux_facts({}), &r,
                                      inputs);
  CHECK(s.message().find("ContextOptions::node_share.index = 2 is outside [0, 2)") !=
        std::string::npos);
  inputs.node_share = NodeShare{-1, 0, "test"};
  s = resolve_execution_policy(ExecutionPolicy{}, synthetic_machine(4), linux_facts({}), &r,
                               inputs);
  CHECK(s.message().find("ContextOptions::node_share.processes must be >= 0") != std::string::npos);

  PlatformFacts serial = linux_facts(share(2, 1));
  serial.threads_usable = false;
  const ResolvedExecutionPolicy one = resolve_ok(ExecutionPolicy{}, synthetic_machine(4), serial);
  CHECK(one.effective_threads == 1);
  CHECK_FALSE(has_fallback(one, "processes share"));
}

}  // namespace
}  // namespace tessera::platform
