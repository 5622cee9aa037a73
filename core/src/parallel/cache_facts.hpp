// The cache sizes the resolvers and the GEMM blocking read, as plain data
// taken from a topology (so tests inject any machine).
#pragma once

#include <cstdint>
#include <string>

#include "tessera/platform/topology.hpp"

namespace tessera::core {

struct CacheFacts {
  std::uint64_t l1d = 0;  // one core's L1 data cache, bytes (0 unknown)
  std::uint64_t l2 = 0;   // one core's L2 (0 unknown)
  std::uint64_t l3 = 0;   // 0 = no L3 (or unknown)
  // Where the numbers came from, for plans.
  std::string source;
  int l1d_ways = 0;  // associativity, 0 unknown
  int l2_ways = 0;

  static CacheFacts from_topology(const platform::Topology& topology);
};

// The cache facts the GEMM driver uses on this host: the process's
// topology (platform::read_topology(), read once), not a context's: the
// caches are physical, and a context resolved against an injected topology
// (tests, tessera-cli --threads) must not change the blocking, hence the
// bits. Where the platform gives no cache sizes (wasm, unknown OS) the
// fields are 0 and gemm_blocking() falls back to its defaults; `source`
// says which.
const CacheFacts& host_cache_facts();

}  // namespace tessera::core
