// Execution policy (design.md §Execution policy): a typed request, validated
// and resolved once when a Context is made into an immutable
// ResolvedExecutionPolicy that says what will really run and lists every
// fallback taken, with its reason.
//
// Resolution is a pure function of (policy, topology, platform facts): the
// same inputs give the same result on every machine, so tests inject
// topologies and facts and check every rule.
//
// Decisions (the "why" lives next to the code in execution_policy_resolve.cc;
// validation is a table of rules in execution_policy_validate.cc):
//  - num_threads = 0 uses the topology's usable width: one participant per
//    physical core, lowered by a cgroup CPU quota ("cgroup quota limits to
//    N CPUs").
//  - num_threads = n is honoured exactly, with one exception: tessera never
//    oversubscribes, so n is capped at the process-visible logical CPU count
//    and at the quota's CPU count; the cap is a recorded fallback naming the
//    limit. (A test that needs more participants than this machine has
//    injects a larger topology, or builds an executor from a hand-made
//    ResolvedExecutionPolicy.)
//  - Threads unusable (wasm32-wasip1, wasm without -pthread, no
//    SharedArrayBuffer): every request resolves to 1 participant, with a
//    fallback saying so. Never an error, never a trap.
//  - Affinity requested on a platform that cannot pin (wasm, non-Linux)
//    resolves to none with a fallback "... not supported on this platform";
//    that is different from an empty request (explicit affinity with an
//    empty cpu_set), which is an error.
//  - Several processes sharing the visible CPUs (NodeShare: MPI ranks
//    without binding) each resolve against their own share of the physical
//    cores (node_share.hpp), with a fallback saying which; an explicit
//    cpu_set is the application's choice and is kept (with a note).
//  - The calling thread is never pinned. Workers are placed one logical CPU
//    per physical core, performance cores first, and avoid the caller's
//    physical core when enough other cores exist.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tessera/platform/build_config.h"
#include "tessera/platform/cpu_features.hpp"
#include "tessera/platform/node_share.hpp"
#include "tessera/platform/status.hpp"
#include "tessera/platform/topology.hpp"

TESSERA_CXX_API_BEGIN
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
  kPerformanceCores,  // physical cores, performance class only while enough
  kPhysicalThenSmt,   // every physical core, then their SMT siblings
  kExplicit,          // exactly cpu_set
};

enum class IdlePolicy : std::uint8_t {
  kKeepWorkers,      // parked workers stay (and keep their affinity)
  kReleaseWhenIdle,  // join workers after idle_release_ms without work
};

// Names as used in text, JSON, the C API and the JS options: "adaptive",
// "fixed_iterations", "fixed_duration", "park_immediately"; "none",
// "physical_cores", "performance_cores", "physical_then_smt", "explicit";
// "keep_workers", "release_when_idle". An out-of-range value gives
// "unknown".
const char* spin_policy_name(SpinPolicy p) noexcept;
const char* affinity_policy_name(AffinityPolicy p) noexcept;
const char* idle_policy_name(IdlePolicy p) noexcept;
// The inverse; false (and *out untouched) for an unknown name.
bool parse_spin_policy(std::string_view name, SpinPolicy* out) noexcept;
bool parse_affinity_policy(std::string_view name, AffinityPolicy* out) noexcept;
bool parse_idle_policy(std::string_view name, IdlePolicy* out) noexcept;

// Limits beyond which a value is absurd rather than merely large.
inline constexpr int kMaxNumThreads = 4096;
inline constexpr std::int64_t kMaxSpinIterations = 1'000'000'000;
inline constexpr std::int64_t kMaxSpinDurationUs = 1'000'000;      // 1 s
inline constexpr std::int64_t kMaxIdleReleaseMs = 24 * 3600 * 1000;  // 1 day

struct ExecutionPolicy {
  // 0 = topology default; 1 = serial; n > 1 = exactly n participants
  // including the caller (capped, never oversubscribing: see above).
  int num_threads = 0;
  SpinPolicy spin_policy = SpinPolicy::kAdaptive;
  // kFixedIterations: iterations (<= 1e9); kFixedDuration: microseconds
  // (<= 1 s); otherwise must be 0. Negative is an error.
  std::int64_t spin_budget = 0;
  // Unset: the platform default (physical_cores where the platform can pin,
  // i.e. Linux; none elsewhere) — or explicit when cpu_set is given.
  std::optional<AffinityPolicy> affinity_policy;
  // Logical CPU ids for kExplicit (validated against the visible set). Only
  // valid with explicit affinity (or with affinity_policy unset, which then
  // means explicit).
  std::vector<int> cpu_set;
  IdlePolicy idle_policy = IdlePolicy::kKeepWorkers;
  // kReleaseWhenIdle: release workers after this long without work (> 0,
  // <= one day). Ignored by kKeepWorkers, but still never negative.
  std::int64_t idle_release_ms = 1000;
  bool allow_nested_parallelism = false;
  // 0 = no limit; a kernel may lower, never exceed, the participant count.
  int max_threads_per_kernel = 0;
  bool counters = false;
};

// What the platform can do, measured where resolution runs. Passed in as
// data so resolution stays a pure function (tests build their own).
struct PlatformFacts {
  // The target can run workers at all (TESSERA_THREADS_USABLE, and at run
  // time e.g. SharedArrayBuffer present).
  bool threads_usable = false;
  // Why not, when !threads_usable ("wasm32-wasip1 has no threads").
  std::string threads_unusable_reason;
  // Threads can be pinned to logical CPUs (Linux native).
  bool affinity_supported = false;
  // The logical CPU the resolving (calling) thread runs on, -1 if unknown
  // (natively sched_getcpu()).
  int caller_cpu = -1;
  // What this platform is called in messages ("linux", "wasm").
  std::string platform_name;
  // The platform sizes its pool from TESSERA_WASM_THREADS instead of the
  // topology (the Emscripten -pthread build: the host's core count is
  // unreliable there, design.md §Wasm threads pool). The default
  // participant count, and the cap of an explicit num_threads, are then
  // ResolutionInputs::wasm_threads rather than the topology's width.
  bool pool_width_from_wasm_threads = false;
  // The architecture (for the default pool classes).
  CpuArch arch = CpuArch::kOther;
  // Processes sharing this process's visible CPUs, as the launcher told it
  // (natively: OMPI_COMM_WORLD_LOCAL_SIZE/_RANK or MPI_LOCALNRANKS/
  // MPI_LOCALRANKID, read only when no affinity mask narrows the process,
  // since a binding launcher already gave each process its own CPUs).
  NodeShare node_share;
  // Contexts check their ISA level's kernels when first made on it unless
  // TESSERA_SELFTEST says otherwise (core: design.md §Load-time self-test):
  // on wasm, where the engine's SIMD lowering is outside tessera's tests.
  bool load_selftest_default = false;
};

// TESSERA_WASM_THREADS: its default and range, from the one definition
// platform/wasm_threads.json (through build_config.h), which the JS side
// reads too.
inline constexpr int kDefaultWasmThreads = TESSERA_WASM_THREADS_DEFAULT;
inline constexpr int kMinWasmThreads = TESSERA_WASM_THREADS_MIN;
inline constexpr int kMaxWasmThreads = TESSERA_WASM_THREADS_MAX;

// Everything resolution reads besides the policy, the topology and the
// platform's facts: what a Context gathered from its knobs and options. With
// these, resolve_execution_policy returns the final policy; nobody patches
// fields afterwards (except collapse_to_width, below).
struct ResolutionInputs {
  // Fills num_threads when the policy leaves it 0 (TESSERA_NUM_THREADS or
  // Knobs::num_threads; 0 = unset). `num_threads_source` names it in
  // reasons and errors.
  int default_num_threads = 0;
  std::string num_threads_source = "TESSERA_NUM_THREADS";
  // TESSERA_WASM_THREADS (unset: kDefaultWasmThreads); used only where
  // facts.pool_width_from_wasm_threads.
  std::optional<int> wasm_threads;
  // TESSERA_POOL_CLASSES (unset: default_pool_classes(facts.arch)).
  std::optional<int> pool_classes;
  // Wins over facts.node_share (ContextOptions::node_share: the MPI
  // component counts the ranks that really see the same CPUs).
  std::optional<NodeShare> node_share;
  // > 0: the application lends an executor of this width
  // (ContextOptions::executor); it decides how many participants exist.
  int application_width = 0;
};

// The facts of this process and thread, from native/ or wasm/.
PlatformFacts platform_facts();

// Immutable once made: a Context holds it const and hands out const refs.
struct ResolvedExecutionPolicy {
  int effective_threads = 1;          // participants, the caller included
  int max_threads_per_kernel = 1;     // <= effective_threads
  bool threads_usable = false;        // the target can run workers at all
  // How effective_threads was decided ("topology default: 8 physical cores",
  // "num_threads = 4", "TESSERA_NUM_THREADS = 4", ...).
  std::string threads_reason;
  // Per worker participant 1..n-1 (index 0 is the caller, never pinned unless
  // asked): logical CPU, physical core and class; empty when not pinning.
  std::vector<int> worker_cpus;
  std::vector<int> worker_cores;
  std::vector<CoreClass> worker_classes;
  bool uses_smt_siblings = false;
  // The CPU the creating thread ran on at resolution, -1 unknown (only used
  // to keep workers off the caller's core; not part of the registry key).
  int caller_cpu = -1;
  SpinPolicy spin_policy = SpinPolicy::kAdaptive;
  std::int64_t spin_budget = 0;
  AffinityPolicy affinity_policy = AffinityPolicy::kNone;
  IdlePolicy idle_policy = IdlePolicy::kKeepWorkers;
  std::int64_t idle_release_ms = 1000;
  bool allow_nested_parallelism = false;
  bool counters = false;
  // Size tiers below full width (design.md §Pool tiers, TESSERA_POOL_CLASSES,
  // 0..3): the native pool keeps up to this many lazily built halving sub-pools
  // (half, quarter, ... of effective_threads) and forks a run of w participants
  // into the smallest one holding w (platform/pool_tiers.hpp). From
  // ResolutionInputs::pool_classes or default_pool_classes(arch); part of
  // registry_key(). Ignored by the wasm pool.
  int pool_classes = 0;
  // Who runs the participants: "serial" (one participant), "pool"
  // (tessera's pool for this policy) or "application" (the executor passed
  // in ContextOptions::executor; then effective_threads is its width).
  std::string executor = "serial";
  // Every fallback taken, each with its reason ("cgroup quota limits to 2
  // CPUs", "affinity not supported on this platform", ...).
  std::vector<std::string> fallbacks;
  // How the context's ISA level was checked at creation ("passed: ...",
  // "off: ..."). Filled by the context (core), not by the resolver; a level
  // that failed is also a fallback.
  std::string load_selftest;
  // Which tuned profile the context applied and what it set ("none",
  // "applied from p.json: ..."); filled by the context (core) as well.
  std::string profile;

  // Several lines for people, fallbacks included.
  std::string to_string() const;
  // One JSON object with every field (for the JS side and the CLI).
  std::string to_json() const;
  // Pools are shared per complete resolved policy (not thread count alone):
  // two policies with equal keys may share a pool. The key holds everything
  // that changes what a pool observably does: participant count, the worker
  // CPUs (or "unpinned"), spin policy and budget, idle policy and release
  // time, nesting, the counters flag and pool_classes. It leaves out what
  // the pool never sees: max_threads_per_kernel (applied per call by the
  // core), the caller's CPU and the fallback texts.
  std::string registry_key() const;
};

// Checks `policy` against the topology and platform: errors name the field
// ("ExecutionPolicy::spin_budget ...") and, for a CPU id that is not
// visible, list the visible set. Unsupported affinity is not an error here
// (it is a fallback of resolution).
Status validate_execution_policy(const ExecutionPolicy& policy,
                                 const Topology& topology,
                                 const PlatformFacts& facts);

// Validates, then resolves in three parts: how many participants (threads,
// the kernel limit, pool classes), where they run (affinity), and how they
// wait (spin, idle, nesting, counters). On error *out is untouched.
Status resolve_execution_policy(const ExecutionPolicy& policy,
                                const Topology& topology,
                                const PlatformFacts& facts,
                                ResolvedExecutionPolicy* out,
                                const ResolutionInputs& inputs = {});

// The one way a resolved policy shrinks after the fact: `width`
// participants run by `executor` ("serial", "application"), unpinned,
// max_threads_per_kernel lowered to fit, and `fallback` recorded. Used when
// an application's executor decides the width, and when a pool could not
// start its threads.
void collapse_to_width(ResolvedExecutionPolicy* r, int width, std::string executor,
                       std::string fallback);

}  // namespace tessera::platform
TESSERA_CXX_API_END
