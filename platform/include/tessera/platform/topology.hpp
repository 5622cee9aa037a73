// Machine topology as plain data (SPEC 2.2). Read natively on Linux from
// sysfs, sched_getaffinity and the cgroup (v1/v2 cpuset and cpu quota) by
// native/; a conservative fallback elsewhere (wasm/). Resolvers and policy
// resolution take a Topology by value, so tests inject any machine.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tessera::platform {

enum class CoreClass : std::uint8_t { kUnknown, kPerformance, kEfficiency };
const char* core_class_name(CoreClass c) noexcept;

struct LogicalCpu {
  int id = 0;          // the OS's logical CPU number
  int core = 0;        // physical core key: CPUs sharing a core share it
                       // (from thread_siblings_list, never from adjacent ids)
  int package = 0;
  CoreClass core_class = CoreClass::kUnknown;
};

struct CacheInfo {
  int level = 0;                  // 1, 2, 3
  std::uint64_t size_bytes = 0;
  int shared_by_logical = 1;      // logical CPUs sharing one instance
};

struct Topology {
  // Process-visible logical CPUs (affinity mask ∩ cgroup cpuset), ascending.
  std::vector<LogicalCpu> cpus;
  // cgroup cpu.max (or cfs quota/period) in CPUs, if a quota is set.
  std::optional<double> cpu_quota;
  // Data/unified caches seen from one core (L1d, L2, L3 ...).
  std::vector<CacheInfo> caches;
  // True when read from the OS; false for the conservative fallback.
  bool from_os = false;
  // How it was read and what was missing ("no L3 in sysfs", ...).
  std::vector<std::string> notes;

  int logical_count() const { return static_cast<int>(cpus.size()); }
  // Distinct physical cores among the visible CPUs.
  int physical_core_count() const;
  // Size of the given cache level, 0 when absent.
  std::uint64_t cache_bytes(int level) const;
  // How many CPUs work can really use: physical cores, lowered by a quota
  // (rounded down, at least 1).
  int usable_width() const;
};

// The topology of this process, read once per call (the caller caches).
// Implemented by native/ (Linux: sysfs + sched_getaffinity + cgroup) and
// wasm/ (fallback: one CPU, no cache facts).
Topology read_topology();

// Synthetic machines for tests: `cores` physical cores, `smt` threads each
// (sibling ids NOT adjacent: core c's threads are c and c + cores, as Linux
// numbers most x86 machines), per-core L2 and an optional shared L3.
Topology make_synthetic_topology(int cores, int smt, std::uint64_t l2_bytes,
                                 std::uint64_t l3_bytes);

}  // namespace tessera::platform
