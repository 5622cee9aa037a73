// make_rank_context: which ranks of this node really share this rank's CPUs
// (tessera/mpi.hpp). The launcher's variables only say how many ranks a
// node has; comparing the ranks' CPU sets says whether they were bound apart.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "mpi/src/agreement.hpp"
#include "tessera/mpi.hpp"

namespace tessera::mpi {
namespace {

// This process's visible CPU ids as a bit set of `words` 64-bit words.
std::vector<std::uint64_t> cpu_bits(const std::vector<int>& ids, int words) {
  std::vector<std::uint64_t> bits(static_cast<std::size_t>(words), 0);
  for (int id : ids) bits[static_cast<std::size_t>(id / 64)] |= std::uint64_t{1} << (id % 64);
  return bits;
}

}  // namespace

Status make_rank_context(MPI_Comm comm, ContextOptions options, Context* out) {
  if (comm == MPI_COMM_NULL) return Status::invalid_argument("comm is MPI_COMM_NULL");
  MPI_Comm node = MPI_COMM_NULL;
  MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  int node_rank = 0, node_size = 1;
  MPI_Comm_rank(node, &node_rank);
  MPI_Comm_size(node, &node_size);

  const std::vector<int> ids =
      options.topology ? options.topology->cpu_ids() : platform::read_topology().cpu_ids();
  int largest = ids.empty() ? 0 : *std::max_element(ids.begin(), ids.end());
  MPI_Allreduce(MPI_IN_PLACE, &largest, 1, MPI_INT, MPI_MAX, node);
  const int words = largest / 64 + 1;
  const std::vector<std::uint64_t> mine = cpu_bits(ids, words);
  std::vector<std::uint64_t> all(static_cast<std::size_t>(words) * node_size);
  MPI_Allgather(mine.data(), words, MPI_UINT64_T, all.data(), words, MPI_UINT64_T, node);
  MPI_Comm_free(&node);

  // The ranks seeing exactly this CPU set share it, in node-rank order.
  int sharing = 0, index = 0;
  for (int r = 0; r < node_size; ++r) {
    if (std::equal(mine.begin(), mine.end(),
                   all.begin() + static_cast<std::ptrdiff_t>(r) * words)) {
      if (r < node_rank) ++index;
      ++sharing;
    }
  }
  NodeShare share;
  share.processes = sharing;
  share.index = index;
  share.source = "MPI_COMM_TYPE_SHARED: " + std::to_string(sharing) + " of the node's " +
                 std::to_string(node_size) + " ranks see these CPUs";
  options.node_share = share;
  // Collective to the end: a rank whose context fails makes every rank fail.
  Context context;
  const Status made = Context::create(options, &context);
  TESSERA_RETURN_IF_ERROR(detail::agree(comm, made, {}));
  *out = std::move(context);
  return {};
}

}  // namespace tessera::mpi
