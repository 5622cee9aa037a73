#include "mpi/src/agreement.hpp"

#include <climits>
#include <cstdint>

namespace tessera::mpi::detail {

Status agree(MPI_Comm comm, const Status& local, const std::vector<SharedField>& fields) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);

  // Smallest and largest value of every field, in one reduction each.
  const std::size_t n = fields.size();
  std::vector<std::int64_t> low(n), high(n), for_low(n), for_high(n);
  for (std::size_t i = 0; i < n; ++i) {
    for_low[i] = fields[i].known ? fields[i].value : INT64_MAX;
    for_high[i] = fields[i].known ? fields[i].value : INT64_MIN;
  }
  MPI_Allreduce(for_low.data(), low.data(), static_cast<int>(n), MPI_INT64_T, MPI_MIN, comm);
  MPI_Allreduce(for_high.data(), high.data(), static_cast<int>(n), MPI_INT64_T, MPI_MAX, comm);

  // The first failing rank broadcasts its code and message.
  const int mine = local.ok() ? INT_MAX : rank;
  int first = INT_MAX;
  MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, comm);

  for (std::size_t i = 0; i < n; ++i) {
    if (low[i] < high[i]) {  // (low > high: no rank knew it)
      return Status::invalid_argument(fields[i].name + " differs across ranks (" +
                                      std::to_string(low[i]) + " to " + std::to_string(high[i]) +
                                      "): every rank must pass the same value");
    }
  }
  if (first == INT_MAX) return {};

  int header[2] = {static_cast<int>(local.code()), static_cast<int>(local.message().size())};
  MPI_Bcast(header, 2, MPI_INT, first, comm);
  std::string message = rank == first ? local.message() : std::string(header[1], '\0');
  MPI_Bcast(message.data(), header[1], MPI_CHAR, first, comm);
  return Status(static_cast<StatusCode>(header[0]),
                "rank " + std::to_string(first) + ": " + message);
}

}  // namespace tessera::mpi::detail
