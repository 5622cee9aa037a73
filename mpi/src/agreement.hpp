// Collective agreement on errors (tessera/mpi.hpp §Errors): every rank
// returns the same status, and no rank waits for a collective another rank
// skipped, because every rank makes the same calls whatever it found.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <string>
#include <vector>

#include "tessera/error.hpp"

namespace tessera::mpi::detail {

// A value every rank must pass identically, named as in messages.
struct SharedField {
  std::string name;
  std::int64_t value = 0;
  // False where this rank has no value to compare (its own checks failed
  // before computing it): only the ranks that know it are compared.
  bool known = true;
};

// Collective over `comm`. First, a field whose value differs across ranks
// ("desc_a.rows differs across ranks (5 to 7)"); else the first rank's local
// error, as "rank R: <its message>", on every rank; else ok.
Status agree(MPI_Comm comm, const Status& local, const std::vector<SharedField>& fields);

}  // namespace tessera::mpi::detail
