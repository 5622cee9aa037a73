#include "native/src/launcher_node_share.hpp"

#include <cstdlib>
#include <string>

namespace tessera::native {
namespace {

// A decimal integer in [0, 1 << 20], or -1.
int read_count(const char* name) {
  const char* text = std::getenv(name);
  if (text == nullptr || *text == '\0') return -1;
  long value = 0;
  for (const char* p = text; *p != '\0'; ++p) {
    if (*p < '0' || *p > '9') return -1;
    value = value * 10 + (*p - '0');
    if (value > (1L << 20)) return -1;
  }
  return static_cast<int>(value);
}

}  // namespace

platform::NodeShare launcher_node_share(int visible_cpus, int online_cpus) {
  platform::NodeShare share;
  const int size = read_count("OMPI_COMM_WORLD_LOCAL_SIZE");
  const int rank = read_count("OMPI_COMM_WORLD_LOCAL_RANK");
  if (size < 2 || rank < 0 || rank >= size) return share;
  const char* bound = std::getenv("OMPI_MCA_orte_bound_at_launch");
  if (bound != nullptr && std::string(bound) == "1") return share;
  if (visible_cpus != online_cpus) return share;
  share.processes = size;
  share.index = rank;
  share.source = "OMPI_COMM_WORLD_LOCAL_SIZE = " + std::to_string(size) +
                 ", OMPI_COMM_WORLD_LOCAL_RANK = " + std::to_string(rank) +
                 ", not bound at launch, every online CPU visible";
  return share;
}

}  // namespace tessera::native
