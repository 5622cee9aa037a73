// Context: where a tessera call runs. It fixes, once, at creation:
//  - the kernel table (family and ISA level: detected ∩ built ∩ requested),
//  - the knobs (environment read once, programmatic values win),
//  - the execution policy, validated and resolved against the topology
//    (design.md §Execution policy), and the executor that realises it: a pool
//    shared with every context of the same resolved policy, the serial executor
//    for one participant, or the application's own executor.
// A Context is a cheap shared handle; copies refer to the same state, which
// is immutable after creation. A default-constructed Context refers to the
// process default context, created on first use from the environment.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "tessera/error.hpp"
#include "tessera/execution.hpp"
#include "tessera/isa.hpp"
#include "tessera/knobs.hpp"
#include "tessera/profile.hpp"
#include "tessera/platform/executor.hpp"
#include "tessera/platform/status.hpp"
#include "tessera/platform/build_config.h"  // TESSERA_CXX_API_BEGIN

TESSERA_CXX_API_BEGIN
namespace tessera {

namespace detail {
struct ContextState;
}

struct ContextOptions {
  // Force an ISA level (lower than the best, for testing). Wins over
  // TESSERA_ISA. A level this build or CPU does not support is an error.
  std::optional<Isa> isa;
  KernelFamily family = KernelFamily::kOptimized;
  // Programmatic knobs: every field set here wins over its variable.
  Knobs knobs;
  // Read TESSERA_* variables at creation (the default).
  bool read_environment = true;
  // Run this context's calls on an executor the application provides (its
  // own pool, or a test executor) instead of tessera's. Shared ownership:
  // the executor lives as long as any context using it. The policy is still
  // validated, but the resolved effective threads are then this executor's
  // width (a recorded fallback says so) and tessera's spin, affinity and
  // idle settings do not apply to it.
  std::shared_ptr<platform::Executor> executor;
  // How this context's calls run (design.md §Execution policy). When
  // policy.num_threads is 0, TESSERA_NUM_THREADS (or knobs.num_threads)
  // supplies it if set and > 0.
  ExecutionPolicy policy;
  // Resolve against this topology instead of the machine's (tests, and
  // runs that need more participants than this machine has). Worker CPUs
  // are then that topology's ids: use affinity_policy = none unless they
  // exist here, or pins fail (and are reported).
  std::optional<Topology> topology;
  // Processes that share this process's visible CPUs (MPI ranks without
  // binding): each context then resolves against its own share of the
  // physical cores (tessera/platform/node_share.hpp). Unset: what the
  // launcher's variables say (Open MPI's, when it did not bind); the MPI
  // component (tessera/mpi.hpp) sets it from the ranks' real CPU sets.
  std::optional<NodeShare> node_share;
  // A tuned profile (tessera/profile.hpp, written by tessera-tune) to apply.
  // Unset: the file TESSERA_PROFILE names, when read_environment. Its
  // knobs fill those neither the environment nor `knobs` set; its GEMM
  // blocking replaces the cache model's. One measured on another CPU, ISA
  // level, cache sizes, CPU count or tessera version is not applied (a
  // fallback says why) unless profile_portable (or
  // TESSERA_PROFILE_PORTABLE=1): then it is, with a fallback warning.
  std::optional<Profile> profile;
  bool profile_portable = false;
  // How the resolved policy names `profile` ("applied from <source>");
  // empty: "ContextOptions::profile". The C API and the JS package name
  // their own option here.
  std::string profile_source;
};

class Context {
 public:
  // A handle to the process default context (made on first use: declaring
  // a Context to pass to create() costs nothing).
  Context() noexcept;

  // Creates a context; on failure *out is untouched and the Status says why
  // (a bad knob names its variable; an unsupported ISA lists the levels).
  static Status create(const ContextOptions& options, Context* out);

#if TESSERA_HAS_EXCEPTIONS
  // Throwing form of create().
  explicit Context(const ContextOptions& options);
#endif

  // ok, or why the process default context could not be created.
  Status status() const;

  Isa isa() const noexcept;
  KernelFamily family() const noexcept;
  // Knobs in force (environment merged with programmatic values).
  const Knobs& knobs() const noexcept;

  // What the policy resolved to at creation, plus one fallback per failed
  // worker pin reported by the executor since (pins happen when workers
  // start, so that list can grow). A copy: the resolution itself never
  // changes.
  ResolvedExecutionPolicy resolved_policy() const;
  // The topology the policy was resolved against (read at creation).
  const Topology& topology() const noexcept;
  // This context's diagnostics so far (all zero unless policy.counters).
  ExecutionCounters counters() const;

  // Internal: the shared state (null only for a failed default context).
  const detail::ContextState* state() const noexcept;

 private:
  // Null: the process default context.
  std::shared_ptr<const detail::ContextState> state_;
};

// ISA levels this build supports on this CPU (optimized family), ascending.
std::vector<Isa> supported_isas();

}  // namespace tessera
TESSERA_CXX_API_END
