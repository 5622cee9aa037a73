// What an MPI launcher tells a process about the other processes on its node
// (platform::NodeShare), read from its environment variables.
#pragma once

#include "tessera/platform/node_share.hpp"

namespace tessera::native {

// Open MPI: OMPI_COMM_WORLD_LOCAL_SIZE processes on this node, this one
// OMPI_COMM_WORLD_LOCAL_RANK. Counted as sharing the CPUs only when nothing
// narrowed this process: the launcher did not bind it
// (OMPI_MCA_orte_bound_at_launch is not 1) and its affinity mask holds every
// online CPU (`visible_cpus` == `online_cpus`; a wrapper such as taskset or
// numactl per rank also narrows it), since a narrowed rank's mask is already
// its share. Ranks bound to a set they share with other ranks (Open MPI's
// --bind-to socket) are not divided here: the MPI component
// (tessera/mpi.hpp, make_rank_context) compares the ranks' CPU sets and
// divides exactly. No share (processes 0) when the variables are absent,
// malformed or out of range.
platform::NodeShare launcher_node_share(int visible_cpus, int online_cpus);

}  // namespace tessera::native
