// The Linux topology reader, split from the system calls so tests can feed
// it synthetic sysfs / cgroup trees (a temporary directory as `root`).
//
// Sources, all below `root` ("" for the live system):
//   /sys/devices/system/cpu/online                       online CPUs
//   /sys/devices/system/cpu/cpuN/topology/
//       thread_siblings_list (or core_cpus_list)         physical core key =
//                                                        lowest sibling id
//       physical_package_id                              package
//   /sys/devices/system/cpu/cpuN/cpu_capacity            P/E class (arm)
//   /sys/bus/event_source/devices/cpu_core|cpu_atom/cpus P/E class (Intel
//                                                        hybrid)
//   /sys/devices/system/cpu/cpuN/cache/indexM/{level,type,size,
//       shared_cpu_list,ways_of_associativity}           caches (else
//                                                        what cpuid says)
//   cgroup v2: <mount>/<path>/cpu.max, cpuset.cpus.effective
//   cgroup v1: <cpu mount>/<path>/cpu.cfs_quota_us + cpu.cfs_period_us,
//              <cpuset mount>/<path>/cpuset.effective_cpus (or cpuset.cpus)
// with <mount> and <path> from /proc/self/mountinfo and /proc/self/cgroup
// (passed as contents).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "native/src/cpuid_caches.hpp"
#include "tessera/platform/topology.hpp"

namespace tessera::native {

struct LinuxSources {
  // Prefix of every absolute path read ("" = the real file system).
  std::string root;
  // Contents of /proc/self/cgroup and /proc/self/mountinfo.
  std::string proc_self_cgroup;
  std::string proc_self_mountinfo;
  // sched_getaffinity's mask; nullopt = unknown (then every online CPU).
  std::optional<std::vector<int>> affinity;
  // Reuse the per-CPU sysfs facts (cores, classes, caches) read earlier for
  // the same visible CPU set (the live path; tests read fresh trees).
  bool cache_cpu_facts = false;
  // The caches the CPU describes (cpuid): used when sysfs lists none.
  CpuidCaches described_caches;
};

// The topology these sources describe. Never fails: whatever is missing is
// replaced by a conservative assumption and recorded in Topology::notes.
platform::Topology read_linux_topology(const LinuxSources& sources);

// The live sources of this process (Linux only).
LinuxSources live_linux_sources();

// sysfs cache size text ("32K", "1024K", "32M", "1G" or plain bytes) in
// bytes; 0 when malformed.
std::uint64_t parse_cache_size(std::string_view text);

// cgroup v2 cpu.max ("max 100000" or "150000 100000"): CPUs allowed, or
// nullopt for no limit or malformed text.
std::optional<double> parse_cpu_max(std::string_view text);

// cgroup v1 cpu.cfs_quota_us / cpu.cfs_period_us: CPUs allowed, or nullopt
// for no limit (-1) or malformed text.
std::optional<double> parse_cfs_quota(std::string_view quota, std::string_view period);

// What the cgroup hierarchy limits this process to.
struct CgroupLimits {
  std::optional<double> cpu_quota;      // tightest quota along the path
  std::string quota_source;             // "cgroup v2 cpu.max at /a/b"
  std::optional<std::vector<int>> cpus; // cpuset, if one is readable
  std::string cpuset_source;
  std::vector<std::string> notes;
};
CgroupLimits read_cgroup_limits(const std::string& root,
                                std::string_view proc_self_cgroup,
                                std::string_view proc_self_mountinfo);

}  // namespace tessera::native
