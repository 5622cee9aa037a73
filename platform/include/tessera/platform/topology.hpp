// Machine topology as plain data (design.md §Topology). Read natively on Linux
// from sysfs, sched_getaffinity and the cgroup (v1/v2 cpuset and cpu quota) by
// native/; a conservative fallback elsewhere (wasm/, non-Linux native).
// Resolvers and policy resolution take a Topology by value, so tests inject
// any machine.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tessera/platform/build_config.h"  // TESSERA_CXX_API_BEGIN

TESSERA_CXX_API_BEGIN
namespace tessera::platform {

enum class CoreClass : std::uint8_t { kUnknown, kPerformance, kEfficiency };
const char* core_class_name(CoreClass c) noexcept;

struct LogicalCpu {
  int id = 0;          // the OS's logical CPU number
  int core = 0;        // physical core key: CPUs sharing a core share it
                       // (from thread_siblings_list, never from adjacent ids;
                       // Linux: the lowest logical id among the siblings)
  int package = 0;
  CoreClass core_class = CoreClass::kUnknown;
};

struct CacheInfo {
  int level = 0;                  // 1, 2, 3
  std::uint64_t size_bytes = 0;
  int shared_by_logical = 1;      // logical CPUs sharing one instance
  int ways = 0;                   // associativity (0 unknown or fully associative)
};

struct Topology {
  // Process-visible logical CPUs (affinity mask ∩ cgroup cpuset), ascending
  // by id.
  std::vector<LogicalCpu> cpus;
  // Logical CPUs online in the whole machine (0 = unknown). More online than
  // visible means an affinity mask or a cpuset narrowed the process.
  int online_count = 0;
  // cgroup cpu.max (or cfs quota/period) in CPUs, if a quota is set; the
  // tightest one along the cgroup path.
  std::optional<double> cpu_quota;
  // Where the quota came from ("cgroup v2 cpu.max", "cgroup v1 cfs quota").
  std::string quota_source;
  // Data/unified caches seen from one core (L1d, L2, L3 ...), by level.
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
  // The cache record of the given level, nullptr when absent.
  const CacheInfo* cache(int level) const;
  // The visible CPU with this id, nullptr when it is not visible.
  const LogicalCpu* find_cpu(int id) const;
  // The CPU count a cgroup quota allows (floor of the quota, at least 1), or
  // 0 when there is no quota.
  int quota_width() const;
  // How many CPUs work can really use: physical cores, lowered by a quota
  // (rounded down, at least 1).
  int usable_width() const;
  // Ids of the visible CPUs, ascending.
  std::vector<int> cpu_ids() const;

  // One line for people: "2 logical CPUs (0-1), 2 physical cores, ...".
  std::string to_string() const;
  // The same facts as JSON (for the CLI and the JS layer).
  std::string to_json() const;
};

// The topology of this process as of this call: the affinity mask and the
// cgroup quota/cpuset are read every time (a Context reads them when it is
// created, so a later mask change affects contexts created after it); the
// per-CPU sysfs facts are reused for an unchanged visible set. Implemented
// by native/ (Linux: sysfs + sched_getaffinity + cgroup; other native
// systems: std::thread::hardware_concurrency with a note) and wasm/
// (fallback: one CPU, no cache facts).
Topology read_topology();

// Synthetic machines for tests: `cores` physical cores, `smt` threads each
// (sibling ids NOT adjacent: core c's threads are c and c + cores, as Linux
// numbers most x86 machines), per-core L2 and an optional shared L3.
Topology make_synthetic_topology(int cores, int smt, std::uint64_t l2_bytes,
                                 std::uint64_t l3_bytes);

// Linux cpu-list syntax ("0-3,8,10-11", whitespace and a trailing newline
// allowed; "" is the empty list). Returns false on anything else, including
// descending ranges and ids above 1 << 20. The result is sorted and unique.
bool parse_cpu_list(std::string_view text, std::vector<int>* out);
// The inverse: sorted ids as "0-3,8,10-11" ("" for none).
std::string format_cpu_list(std::vector<int> ids);

}  // namespace tessera::platform
TESSERA_CXX_API_END
