// What an MPI launcher tells a process about the other processes on its node
// (platform::NodeShare), read from its environment variables.
#pragma once

#include "tessera/platform/node_share.hpp"

namespace tessera::native {

// Open MPI: OMPI_COMM_WORLD_LOCAL_SIZE processes on this node, this one
// OMPI_COMM_WORLD_LOCAL_RANK. Counted as sharing the CPUs only when the
// launcher did not bind them (OMPI_MCA_orte_bound_at_launch is not 1): a
// bound rank's affinity mask is already its own share. No share (processes
// 0) when the variables are absent, malformed or out of range; another
// launcher's ranks get the exact count from the MPI component
// (tessera/mpi.hpp), which compares the ranks' CPU sets.
platform::NodeShare launcher_node_share();

}  // namespace tessera::native
