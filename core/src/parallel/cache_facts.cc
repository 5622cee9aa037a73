#include "core/src/parallel/cache_facts.hpp"

namespace tessera::core {

CacheFacts CacheFacts::from_topology(const platform::Topology& topology) {
  CacheFacts f;
  f.l1d = topology.cache_bytes(1);
  f.l2 = topology.cache_bytes(2);
  f.l3 = topology.cache_bytes(3);
  if (const platform::CacheInfo* c = topology.cache(1)) f.l1d_ways = c->ways;
  if (const platform::CacheInfo* c = topology.cache(2)) f.l2_ways = c->ways;
  auto kib = [](std::uint64_t bytes) { return std::to_string(bytes / 1024) + " KiB"; };
  // append, not " " + std::to_string(w): GCC 12 warns -Wrestrict on that.
  auto ways = [](int w) {
    return w > 0 ? std::string(" ").append(std::to_string(w)).append("-way") : std::string();
  };
  if (f.l1d == 0 && f.l2 == 0) {
    f.source = "no cache sizes from the platform: defaults 32 KiB L1d, 512 KiB L2, no L3";
  } else {
    f.source = std::string(topology.from_os ? "topology" : "topology fallback") + ": L1d " +
               kib(f.l1d) + ways(f.l1d_ways) + ", L2 " + kib(f.l2) + ways(f.l2_ways) + ", L3 " +
               (f.l3 != 0 ? kib(f.l3) : "none");
  }
  return f;
}

const CacheFacts& host_cache_facts() {
  static const CacheFacts facts = CacheFacts::from_topology(platform::read_topology());
  return facts;
}

}  // namespace tessera::core
