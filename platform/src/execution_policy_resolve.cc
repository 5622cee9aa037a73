// Resolution: an ExecutionPolicy (the request) and the machine's facts in,
// the ResolvedExecutionPolicy (what will run) out, with every fallback and
// its reason. A pure function of its inputs, so tests inject topologies and
// facts; the public header lists the decisions, the why of each is here.
#include "tessera/platform/execution_policy.hpp"

#include <algorithm>
#include <cstdio>
#include <iterator>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "tessera/platform/execution_policy_internal.hpp"
#include "tessera/platform/pool_tiers.hpp"

namespace tessera::platform {
namespace {

using policy_detail::plural;
using policy_detail::requested_affinity;

// Classes in placement order: performance first, efficiency last.
int class_rank(CoreClass c) {
  switch (c) {
    case CoreClass::kPerformance: return 0;
    case CoreClass::kUnknown: return 1;
    case CoreClass::kEfficiency: return 2;
  }
  return 1;
}

// std::stable_partition's order (the elements `first` holds for ahead, each
// group in its order) without its temporary buffer: libstdc++ takes that with
// std::get_temporary_buffer, which clang flags as deprecated in C++20.
template <class T, class Pred>
void stable_partition_vector(std::vector<T>& v, Pred first) {
  std::vector<T> ahead, behind;
  for (T& x : v) (first(x) ? ahead : behind).push_back(std::move(x));
  ahead.insert(ahead.end(), std::make_move_iterator(behind.begin()),
               std::make_move_iterator(behind.end()));
  v = std::move(ahead);
}

struct Core {
  std::pair<int, int> key;   // (package, core)
  CoreClass core_class = CoreClass::kUnknown;
  std::vector<int> threads;  // logical ids; the caller's CPU last
  bool has_caller = false;
};

// Physical cores of the visible CPUs, performance class first, then by
// (package, core). The caller's core goes last of all when the other cores
// can hold every worker (so no worker shares it), otherwise last of its
// class (so its free thread still comes before any core's second thread);
// inside it the caller's own logical CPU is the last choice.
std::vector<Core> ordered_cores(const Topology& topology, int caller_cpu, int workers) {
  std::map<std::pair<int, int>, Core> by_key;
  for (const LogicalCpu& cpu : topology.cpus) {
    Core& core = by_key[{cpu.package, cpu.core}];
    core.key = {cpu.package, cpu.core};
    if (core.threads.empty() ||
        class_rank(cpu.core_class) < class_rank(core.core_class)) {
      core.core_class = cpu.core_class;
    }
    core.threads.push_back(cpu.id);
    if (cpu.id == caller_cpu) core.has_caller = true;
  }
  std::vector<Core> cores;
  for (auto& [key, core] : by_key) {
    std::sort(core.threads.begin(), core.threads.end());
    if (core.has_caller) {
      stable_partition_vector(core.threads, [&](int id) { return id != caller_cpu; });
    }
    cores.push_back(std::move(core));
  }
  // Ties broken by key: the map's order, as a stable sort would keep it.
  std::sort(cores.begin(), cores.end(), [](const Core& a, const Core& b) {
    if (class_rank(a.core_class) != class_rank(b.core_class)) {
      return class_rank(a.core_class) < class_rank(b.core_class);
    }
    if (a.has_caller != b.has_caller) return b.has_caller;
    return a.key < b.key;
  });
  if (static_cast<int>(cores.size()) - 1 >= workers) {
    stable_partition_vector(cores, [](const Core& c) { return !c.has_caller; });
  }
  return cores;
}

// Slots in the order workers take them: the first thread of every core in
// `cores`, then every core's second thread, and so on.
std::vector<int> core_major_slots(const std::vector<Core>& cores) {
  std::vector<int> slots;
  std::size_t depth = 0;
  bool any = true;
  while (any) {
    any = false;
    for (const Core& core : cores) {
      if (depth < core.threads.size()) {
        slots.push_back(core.threads[depth]);
        any = true;
      }
    }
    ++depth;
  }
  return slots;
}

// Part 1 of resolution: how many participants, and how many one kernel may
// use. `source` names where num_threads came from.
void resolve_threads(const ExecutionPolicy& policy, const Topology& topology,
                     const PlatformFacts& facts, const ResolutionInputs& inputs,
                     const std::string& source, bool node_shared, ResolvedExecutionPolicy& r) {
  const AffinityPolicy affinity = requested_affinity(policy, facts);
  const int visible = std::max(1, topology.logical_count());
  const int quota = topology.quota_width();  // 0: none

  int threads = 1;
  if (!facts.threads_usable) {
    const std::string why = facts.threads_unusable_reason.empty()
                                ? std::string("threads unusable on this target")
                                : "threads unusable on this target (" +
                                      facts.threads_unusable_reason + ")";
    r.threads_reason = why;
    r.fallbacks.push_back(
        why + (policy.num_threads > 1
                   ? ": " + source + " = " + std::to_string(policy.num_threads) +
                         " resolved to 1 participant"
                   : ": running serially"));
  } else if (facts.pool_width_from_wasm_threads) {
    // The wasm threads pool: its width is the knob's, whatever the (unknown)
    // host has; an explicit count may only lower it.
    const int width = inputs.wasm_threads.value_or(kDefaultWasmThreads);
    if (policy.num_threads == 0) {
      threads = width;
      r.threads_reason = "TESSERA_WASM_THREADS = " + std::to_string(width) +
                         " (the wasm threads pool; the host's core count is not used)";
    } else {
      threads = std::min(policy.num_threads, width);
      r.threads_reason = source + " = " + std::to_string(policy.num_threads);
      if (policy.num_threads > width) {
        r.fallbacks.push_back(source + " = " + std::to_string(policy.num_threads) +
                              " exceeds the wasm threads pool (TESSERA_WASM_THREADS = " +
                              std::to_string(width) + "): capped at " +
                              std::to_string(width));
      }
    }
  } else if (policy.num_threads == 0) {
    if (affinity == AffinityPolicy::kExplicit && facts.affinity_supported) {
      threads = static_cast<int>(policy.cpu_set.size());
      r.threads_reason = "one participant per cpu_set CPU (" +
                         plural(threads, "CPU", "CPUs") + ")";
    } else {
      threads = std::max(1, topology.physical_core_count());
      r.threads_reason = node_shared
                             ? "this process's share of the node: " +
                                   plural(threads, "physical core", "physical cores") + " {" +
                                   format_cpu_list(topology.cpu_ids()) + "}"
                             : "topology default: " +
                                   plural(threads, "physical core", "physical cores") +
                                   " among " +
                                   plural(visible, "visible logical CPU", "visible logical CPUs");
    }
    if (topology.online_count > topology.logical_count() && topology.logical_count() > 0) {
      r.fallbacks.push_back("the process-visible CPU set {" +
                            format_cpu_list(topology.cpu_ids()) + "} limits to " +
                            std::to_string(topology.logical_count()) + " of " +
                            plural(topology.online_count, "online CPU", "online CPUs") +
                            " (affinity mask or cpuset)");
    }
    if (quota > 0 && quota < threads) {
      char quota_text[32];
      std::snprintf(quota_text, sizeof quota_text, "%.2f", *topology.cpu_quota);
      r.fallbacks.push_back("cgroup quota limits to " + plural(quota, "CPU", "CPUs") +
                            " (" + quota_text + " CPUs" +
                            (topology.quota_source.empty()
                                 ? std::string()
                                 : " from " + topology.quota_source) +
                            "; " + std::to_string(threads) + " would run otherwise)");
      threads = quota;
    }
  } else {
    threads = policy.num_threads;
    r.threads_reason = source + " = " + std::to_string(threads);
    if (threads > visible) {
      r.fallbacks.push_back(source + " = " + std::to_string(threads) + " exceeds the " +
                            plural(visible, "process-visible logical CPU",
                                   "process-visible logical CPUs") +
                            " {" + format_cpu_list(topology.cpu_ids()) + "}: capped at " +
                            std::to_string(visible) + " (tessera never oversubscribes)");
      threads = visible;
    }
    if (quota > 0 && quota < threads) {
      r.fallbacks.push_back("cgroup quota limits to " + plural(quota, "CPU", "CPUs") +
                            ": " + source + " = " + std::to_string(policy.num_threads) +
                            " capped at " + std::to_string(quota) +
                            " (tessera never oversubscribes)");
      threads = quota;
    }
  }
  if (facts.threads_usable && policy.num_threads > 0 && threads < policy.num_threads) {
    r.threads_reason += ", capped at " + std::to_string(threads);
  }
  r.effective_threads = threads;
  r.executor = threads > 1 ? "pool" : "serial";

  r.max_threads_per_kernel = threads;
  if (policy.max_threads_per_kernel > 0) {
    if (policy.max_threads_per_kernel > threads) {
      r.fallbacks.push_back("max_threads_per_kernel = " +
                            std::to_string(policy.max_threads_per_kernel) +
                            " exceeds the " + plural(threads, "participant", "participants") +
                            " of this policy: lowered to " + std::to_string(threads) +
                            " (a kernel may lower, never exceed, the count)");
    } else {
      r.max_threads_per_kernel = policy.max_threads_per_kernel;
    }
  }

  r.pool_classes = inputs.pool_classes.value_or(default_pool_classes(facts.arch));
}

// Part 2: where the workers run (r.effective_threads is decided).
void resolve_affinity(const ExecutionPolicy& policy, const Topology& topology,
                      const PlatformFacts& facts, ResolvedExecutionPolicy& r) {
  const AffinityPolicy affinity = requested_affinity(policy, facts);
  const bool affinity_asked = policy.affinity_policy.has_value() || !policy.cpu_set.empty();
  const int threads = r.effective_threads;
  r.affinity_policy = affinity;
  if (affinity != AffinityPolicy::kNone && !facts.affinity_supported) {
    r.affinity_policy = AffinityPolicy::kNone;
    if (affinity_asked) {
      r.fallbacks.push_back(
          std::string("affinity_policy = ") + affinity_policy_name(affinity) +
          " is not supported on this platform" +
          (facts.platform_name.empty() ? std::string() : " (" + facts.platform_name + ")") +
          ": workers are not pinned" + (policy.cpu_set.empty() ? "" : ", cpu_set ignored"));
    }
  }
  const int workers = threads - 1;
  if (r.affinity_policy != AffinityPolicy::kNone && workers > 0) {
    std::vector<int> slots;
    if (r.affinity_policy == AffinityPolicy::kExplicit) {
      // The listed order, entries on the caller's core after the others (and
      // the caller's own CPU last of all, below).
      slots = policy.cpu_set;
      if (const LogicalCpu* caller = topology.find_cpu(r.caller_cpu)) {
        stable_partition_vector(slots, [&](int id) {
          const LogicalCpu* cpu = topology.find_cpu(id);
          return cpu == nullptr || cpu->package != caller->package || cpu->core != caller->core;
        });
      }
    } else {
      std::vector<Core> cores = ordered_cores(topology, r.caller_cpu, workers);
      const bool classes_known =
          std::any_of(cores.begin(), cores.end(), [](const Core& c) {
            return c.core_class != CoreClass::kUnknown;
          });
      if (r.affinity_policy == AffinityPolicy::kPerformanceCores) {
        if (!classes_known) {
          r.fallbacks.push_back(
              "affinity_policy = performance_cores: this machine does not expose "
              "performance/efficiency classes; every core treated alike");
          slots = core_major_slots(cores);
        } else {
          // Performance cores with their siblings before any efficiency core.
          std::vector<Core> performance;
          std::vector<Core> rest;
          for (Core& c : cores) {
            (c.core_class == CoreClass::kEfficiency ? rest : performance)
                .push_back(std::move(c));
          }
          slots = core_major_slots(performance);
          const std::vector<int> tail = core_major_slots(rest);
          // The caller's own CPU is never a worker's first choice.
          const int usable = static_cast<int>(slots.size()) -
                             static_cast<int>(std::count(slots.begin(), slots.end(),
                                                         r.caller_cpu));
          if (usable < workers) {
            r.fallbacks.push_back(
                "affinity_policy = performance_cores: " +
                plural(usable, "free performance-core CPU", "free performance-core CPUs") +
                " for " + plural(workers, "worker", "workers") + ": " +
                std::to_string(workers - usable) + " placed on efficiency cores");
          }
          slots.insert(slots.end(), tail.begin(), tail.end());
        }
      } else {
        slots = core_major_slots(cores);
        if (r.affinity_policy == AffinityPolicy::kPhysicalCores &&
            workers > static_cast<int>(cores.size())) {
          r.fallbacks.push_back(
              "affinity_policy = physical_cores: " + plural(workers, "worker", "workers") +
              " exceed the " +
              plural(static_cast<long long>(cores.size()), "physical core", "physical cores") +
              ": " + std::to_string(workers - static_cast<int>(cores.size())) +
              " placed on SMT siblings");
        }
      }
    }
    // The caller's own logical CPU is the very last choice: a worker there
    // would share one hardware thread with the (unpinned) caller.
    stable_partition_vector(slots, [&](int id) { return id != r.caller_cpu; });
    // Validation and the thread cap guarantee enough slots; wrap only as a
    // defence so a worker is never left without a CPU.
    for (int w = 0; w < workers && !slots.empty(); ++w) {
      const int id = slots[static_cast<std::size_t>(w) % slots.size()];
      const LogicalCpu* cpu = topology.find_cpu(id);
      r.worker_cpus.push_back(id);
      r.worker_cores.push_back(cpu != nullptr ? cpu->core : id);
      r.worker_classes.push_back(cpu != nullptr ? cpu->core_class : CoreClass::kUnknown);
    }
    // SMT siblings are in use when two pinned participants share a core (the
    // caller counts where it was seen running).
    std::set<std::pair<int, int>> used;
    if (const LogicalCpu* caller = topology.find_cpu(r.caller_cpu)) {
      used.insert({caller->package, caller->core});
    }
    for (int id : r.worker_cpus) {
      const LogicalCpu* cpu = topology.find_cpu(id);
      if (cpu == nullptr) continue;
      if (!used.insert({cpu->package, cpu->core}).second) r.uses_smt_siblings = true;
    }
  }

}

// Part 3: how participants wait and what they record.
void resolve_waiting(const ExecutionPolicy& policy, ResolvedExecutionPolicy& r) {
  r.spin_policy = policy.spin_policy;
  r.spin_budget = policy.spin_budget;
  r.idle_policy = policy.idle_policy;
  r.idle_release_ms = policy.idle_release_ms;
  r.allow_nested_parallelism = policy.allow_nested_parallelism;
  r.counters = policy.counters;
}

}  // namespace

void collapse_to_width(ResolvedExecutionPolicy* r, int width, std::string executor,
                       std::string fallback) {
  width = std::max(1, width);
  r->effective_threads = width;
  r->max_threads_per_kernel = std::min(std::max(1, r->max_threads_per_kernel), width);
  r->executor = std::move(executor);
  r->affinity_policy = AffinityPolicy::kNone;
  r->worker_cpus.clear();
  r->worker_cores.clear();
  r->worker_classes.clear();
  r->uses_smt_siblings = false;
  r->fallbacks.push_back(std::move(fallback));
}

Status resolve_execution_policy(const ExecutionPolicy& requested,
                                const Topology& topology,
                                const PlatformFacts& facts,
                                ResolvedExecutionPolicy* out,
                                const ResolutionInputs& inputs) {
  // The policy as given is checked first, so its errors name its fields.
  TESSERA_RETURN_IF_ERROR(validate_execution_policy(requested, topology, facts));
  ExecutionPolicy policy = requested;
  std::string source = "num_threads";
  if (policy.num_threads == 0 && inputs.default_num_threads > 0) {
    policy.num_threads = inputs.default_num_threads;
    source = inputs.num_threads_source;
    if (!policy.cpu_set.empty() && policy.num_threads > static_cast<int>(policy.cpu_set.size())) {
      return Status::invalid_argument(
          source + " = " + std::to_string(policy.num_threads) + " exceeds the " +
          std::to_string(policy.cpu_set.size()) +
          " CPUs of ExecutionPolicy::cpu_set with affinity_policy = explicit");
    }
  }
  if (facts.pool_width_from_wasm_threads && inputs.wasm_threads &&
      (*inputs.wasm_threads < kMinWasmThreads || *inputs.wasm_threads > kMaxWasmThreads)) {
    return Status::invalid_argument("TESSERA_WASM_THREADS must be in [" +
                                    std::to_string(kMinWasmThreads) + ", " +
                                    std::to_string(kMaxWasmThreads) + "] (got " +
                                    std::to_string(*inputs.wasm_threads) + ")");
  }

  const NodeShare share = inputs.node_share.value_or(facts.node_share);
  TESSERA_RETURN_IF_ERROR(validate_node_share(
      share, inputs.node_share ? "ContextOptions::node_share" : "PlatformFacts::node_share"));

  ResolvedExecutionPolicy r;
  r.threads_usable = facts.threads_usable;
  // Processes sharing these CPUs each resolve against their own share of
  // them; everything below (width, pins, the caller's CPU) then sees only it.
  Topology shared_topology;
  const Topology* placed = &topology;
  if (share.processes > 1 && facts.threads_usable && !facts.pool_width_from_wasm_threads &&
      inputs.application_width == 0) {
    if (requested_affinity(policy, facts) == AffinityPolicy::kExplicit) {
      r.fallbacks.push_back(std::to_string(share.processes) + " processes share this node (" +
                            share.source +
                            "): not divided, the explicit cpu_set decides where this one runs");
    } else {
      std::string note;
      shared_topology = share_of_topology(topology, share, &note);
      placed = &shared_topology;
      r.fallbacks.push_back(std::move(note));
    }
  }
  r.caller_cpu = placed->find_cpu(facts.caller_cpu) != nullptr ? facts.caller_cpu : -1;
  resolve_threads(policy, *placed, facts, inputs, source, placed != &topology, r);
  resolve_affinity(policy, *placed, facts, r);
  resolve_waiting(policy, r);

  if (inputs.application_width > 0) {
    // The application's executor decides how many participants exist.
    const int width = inputs.application_width;
    const int resolved = r.effective_threads;
    collapse_to_width(&r, width, "application",
                      "ContextOptions::executor supplied: effective threads = its width (" +
                          std::to_string(width) + "); the policy resolved to " +
                          std::to_string(resolved) +
                          ", and tessera's spin, affinity and idle settings do not apply to it");
    r.threads_reason = "width of the application's executor";
    r.max_threads_per_kernel = policy.max_threads_per_kernel > 0
                                   ? std::min(policy.max_threads_per_kernel, width)
                                   : width;
  }
  *out = std::move(r);
  return {};
}

}  // namespace tessera::platform
