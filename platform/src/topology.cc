#include "tessera/platform/topology.hpp"

#include <algorithm>
#include <cmath>
#include <set>

namespace tessera::platform {

const char* core_class_name(CoreClass c) noexcept {
  switch (c) {
    case CoreClass::kPerformance: return "performance";
    case CoreClass::kEfficiency: return "efficiency";
    case CoreClass::kUnknown: return "unknown";
  }
  return "unknown";
}

int Topology::physical_core_count() const {
  std::set<std::pair<int, int>> cores;
  for (const LogicalCpu& cpu : cpus) cores.insert({cpu.package, cpu.core});
  return static_cast<int>(cores.size());
}

std::uint64_t Topology::cache_bytes(int level) const {
  for (const CacheInfo& c : caches) {
    if (c.level == level) return c.size_bytes;
  }
  return 0;
}

int Topology::usable_width() const {
  int width = std::max(1, physical_core_count());
  if (cpu_quota) {
    width = std::min(width, std::max(1, static_cast<int>(std::floor(*cpu_quota))));
  }
  return width;
}

Topology make_synthetic_topology(int cores, int smt, std::uint64_t l2_bytes,
                                 std::uint64_t l3_bytes) {
  Topology t;
  for (int thread = 0; thread < smt; ++thread) {
    for (int core = 0; core < cores; ++core) {
      t.cpus.push_back({thread * cores + core, core, 0, CoreClass::kUnknown});
    }
  }
  std::sort(t.cpus.begin(), t.cpus.end(),
            [](const LogicalCpu& a, const LogicalCpu& b) { return a.id < b.id; });
  t.caches.push_back({1, 48 * 1024, smt});
  if (l2_bytes != 0) t.caches.push_back({2, l2_bytes, smt});
  if (l3_bytes != 0) t.caches.push_back({3, l3_bytes, cores * smt});
  t.from_os = false;
  t.notes.push_back("synthetic topology");
  return t;
}

}  // namespace tessera::platform
