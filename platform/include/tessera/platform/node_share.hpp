// Several processes on one node that see the same CPUs (MPI ranks started
// without binding, `mpirun --bind-to none`): each takes its own share of the
// node's physical cores instead of every one sizing its pool to the whole
// node (design.md §Node share). A launcher that binds ranks
// (`--bind-to core`, a cpuset per rank) already narrows each process's
// visible CPUs, and then there is nothing to divide.
#pragma once

#include <string>

#include "tessera/platform/build_config.h"  // TESSERA_CXX_API_BEGIN
#include "tessera/platform/status.hpp"
#include "tessera/platform/topology.hpp"

TESSERA_CXX_API_BEGIN
namespace tessera::platform {

struct NodeShare {
  // Processes sharing this process's visible CPUs, this one included
  // (0 or 1: no sharing).
  int processes = 0;
  // This process's place among them, in [0, processes).
  int index = 0;
  // Where the numbers came from, for the resolved policy's reasons
  // ("OMPI_COMM_WORLD_LOCAL_SIZE = 2", "MPI_COMM_TYPE_SHARED: ...").
  std::string source;
};

// processes >= 0 and index in [0, max(processes, 1)); errors name
// `what` ("ContextOptions::node_share").
Status validate_node_share(const NodeShare& share, const std::string& what);

// The visible CPUs of `topology` that share `index` of `processes` takes:
// the physical cores (in topology order) cut into `processes` contiguous
// groups whose sizes differ by at most one, each core with all its logical
// CPUs; with more processes than cores, core index % cores. The result's
// online_count is its own CPU count (the narrowing is this rule's, not an
// affinity mask's); `*note` says what was taken and why.
Topology share_of_topology(const Topology& topology, const NodeShare& share, std::string* note);

}  // namespace tessera::platform
TESSERA_CXX_API_END
