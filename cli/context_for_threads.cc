#include "context_for_threads.hpp"

#include <algorithm>
#include <cstdio>

namespace tessera::cli {

Status make_context(std::optional<Isa> isa, int threads, Context* out, std::string* note) {
  ContextOptions options;
  options.isa = isa;
  if (threads > 1) {
    Topology topology = platform::read_topology();
    const int have = topology.logical_count();
    if (have < threads) {
      int next_id = 0;
      for (const LogicalCpu& cpu : topology.cpus) next_id = std::max(next_id, cpu.id + 1);
      int next_core = 0;
      for (const LogicalCpu& cpu : topology.cpus) next_core = std::max(next_core, cpu.core + 1);
      for (int i = have; i < threads; ++i) {
        topology.cpus.push_back({next_id++, next_core++, 0, CoreClass::kUnknown});
      }
      topology.cpu_quota.reset();
      topology.notes.push_back("tessera-cli: extended for --threads");
      *note = "note: " + std::to_string(threads) + " participants requested on " +
              std::to_string(have) + " visible CPUs (oversubscribed, unpinned)\n";
      options.policy.affinity_policy = AffinityPolicy::kNone;
    }
    options.topology = topology;
    options.policy.num_threads = threads;
  }
  return Context::create(options, out);
}

void print_context_line(const Context& context) {
  const ResolvedExecutionPolicy resolved = context.resolved_policy();
  std::printf("  context: %d participant%s (%s)\n", resolved.effective_threads,
              resolved.effective_threads == 1 ? "" : "s", resolved.threads_reason.c_str());
}

}  // namespace tessera::cli
