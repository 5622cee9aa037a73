#include "tessera/platform/node_share.hpp"

#include <algorithm>
#include <utility>
#include <vector>

namespace tessera::platform {

Status validate_node_share(const NodeShare& share, const std::string& what) {
  if (share.processes < 0) {
    return Status::invalid_argument(what + ".processes must be >= 0 (got " +
                                    std::to_string(share.processes) + ")");
  }
  const int count = std::max(share.processes, 1);
  if (share.index < 0 || share.index >= count) {
    return Status::invalid_argument(what + ".index = " + std::to_string(share.index) +
                                    " is outside [0, " + std::to_string(count) + ")");
  }
  return {};
}

Topology share_of_topology(const Topology& topology, const NodeShare& share, std::string* note) {
  // Physical cores in the order their first logical CPU appears (ascending
  // ids), so neighbouring shares hold neighbouring cores.
  std::vector<std::pair<int, int>> cores;
  for (const LogicalCpu& cpu : topology.cpus) {
    const std::pair<int, int> key{cpu.package, cpu.core};
    if (std::find(cores.begin(), cores.end(), key) == cores.end()) cores.push_back(key);
  }
  const int n_cores = static_cast<int>(cores.size());
  const int processes = std::max(share.processes, 1);
  int first = 0, count = 0;
  if (n_cores == 0) {
    count = 0;
  } else if (processes <= n_cores) {
    const int base = n_cores / processes, extra = n_cores % processes;
    first = share.index * base + std::min(share.index, extra);
    count = base + (share.index < extra ? 1 : 0);
  } else {
    first = share.index % n_cores;
    count = 1;
  }

  Topology mine = topology;
  mine.cpus.clear();
  for (const LogicalCpu& cpu : topology.cpus) {
    const auto at = std::find(cores.begin(), cores.end(), std::make_pair(cpu.package, cpu.core));
    const int position = static_cast<int>(at - cores.begin());
    if (position >= first && position < first + count) mine.cpus.push_back(cpu);
  }
  mine.online_count = mine.logical_count();

  if (note != nullptr) {
    *note = std::to_string(processes) + " processes share the visible CPUs {" +
            format_cpu_list(topology.cpu_ids()) + "} (" + share.source + "): this one (" +
            std::to_string(share.index) + " of " + std::to_string(processes) + ") takes {" +
            format_cpu_list(mine.cpu_ids()) + "}, " + std::to_string(count) + " of " +
            std::to_string(n_cores) + " physical cores";
    *note += processes > n_cores ? " (more processes than cores: some cores are shared)"
                                 : " (tessera never oversubscribes)";
  }
  return mine;
}

}  // namespace tessera::platform
