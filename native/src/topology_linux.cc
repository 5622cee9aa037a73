// The Linux topology reader. The parsing half is plain file reading (so its
// tests run on any native system); only live_linux_sources(),
// read_topology() and platform_facts() touch Linux system calls.
#include "native/src/topology_linux.hpp"
#include "native/src/launcher_node_share.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <mutex>
#include <set>
#include <sstream>

#if defined(__linux__)
#include <sched.h>
#include <unistd.h>
#endif

#include "tessera/platform/build_config.h"
#include "tessera/platform/execution_policy.hpp"

namespace tessera::native {
namespace {

namespace fs = std::filesystem;

// The whole file, or nullopt when it cannot be opened.
std::optional<std::string> read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\n' ||
                        s.front() == '\r')) {
    s.remove_prefix(1);
  }
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\n' ||
                        s.back() == '\r')) {
    s.remove_suffix(1);
  }
  return s;
}

std::optional<std::vector<int>> read_cpu_list(const std::string& path) {
  const auto text = read_file(path);
  if (!text) return std::nullopt;
  std::vector<int> ids;
  if (!platform::parse_cpu_list(*text, &ids)) return std::nullopt;
  return ids;
}

std::optional<long long> read_integer(const std::string& path) {
  const auto text = read_file(path);
  if (!text) return std::nullopt;
  const std::string_view t = trim(*text);
  if (t.empty()) return std::nullopt;
  long long value = 0;
  std::size_t i = 0;
  bool negative = false;
  if (t[0] == '-') {
    negative = true;
    i = 1;
  }
  if (i == t.size()) return std::nullopt;
  for (; i < t.size(); ++i) {
    if (t[i] < '0' || t[i] > '9') return std::nullopt;
    if (value > (1LL << 60)) return std::nullopt;
    value = value * 10 + (t[i] - '0');
  }
  return negative ? -value : value;
}

bool parse_unsigned(std::string_view t, std::uint64_t* out) {
  t = trim(t);
  if (t.empty()) return false;
  std::uint64_t v = 0;
  for (char c : t) {
    if (c < '0' || c > '9') return false;
    if (v > (std::uint64_t{1} << 60)) return false;
    v = v * 10 + static_cast<std::uint64_t>(c - '0');
  }
  *out = v;
  return true;
}

std::vector<std::string_view> split(std::string_view s, char sep) {
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  while (true) {
    const std::size_t pos = s.find(sep, start);
    parts.push_back(s.substr(start, pos == std::string_view::npos ? pos : pos - start));
    if (pos == std::string_view::npos) break;
    start = pos + 1;
  }
  return parts;
}

std::string cpu_dir(const std::string& root, int id) {
  return root + "/sys/devices/system/cpu/cpu" + std::to_string(id);
}

struct CpuFacts {
  std::vector<platform::LogicalCpu> cpus;
  std::vector<platform::CacheInfo> caches;
  std::vector<std::string> notes;
};

const platform::CacheInfo* find_cache(const std::vector<platform::CacheInfo>& caches,
                                      int level) {
  for (const platform::CacheInfo& c : caches) {
    if (c.level == level) return &c;
  }
  return nullptr;
}

// ---- cgroups --------------------------------------------------------------

struct Mount {
  std::string root;         // path inside the cgroup hierarchy
  std::string mount_point;  // where it is mounted
  std::string fstype;
  std::vector<std::string> super_options;
};

std::vector<Mount> parse_mountinfo(std::string_view text) {
  std::vector<Mount> mounts;
  for (std::string_view line : split(text, '\n')) {
    std::vector<std::string_view> fields;
    for (std::string_view f : split(trim(line), ' ')) {
      if (!f.empty()) fields.push_back(f);
    }
    // id parent major:minor root mount-point options [optional...] - fstype
    // source super-options
    auto dash = std::find(fields.begin(), fields.end(), std::string_view("-"));
    if (fields.size() < 6 || dash == fields.end() || fields.end() - dash < 3) continue;
    Mount m;
    m.root = std::string(fields[3]);
    m.mount_point = std::string(fields[4]);
    m.fstype = std::string(*(dash + 1));
    for (std::string_view o : split(*(dash + 3), ',')) m.super_options.emplace_back(o);
    mounts.push_back(std::move(m));
  }
  return mounts;
}

struct CgroupEntry {
  std::string hierarchy;
  std::vector<std::string> controllers;
  std::string path;
};

std::vector<CgroupEntry> parse_proc_cgroup(std::string_view text) {
  std::vector<CgroupEntry> entries;
  for (std::string_view line : split(text, '\n')) {
    line = trim(line);
    if (line.empty()) continue;
    const std::size_t a = line.find(':');
    const std::size_t b = a == std::string_view::npos ? a : line.find(':', a + 1);
    if (b == std::string_view::npos) continue;
    CgroupEntry e;
    e.hierarchy = std::string(line.substr(0, a));
    const std::string_view controllers = line.substr(a + 1, b - a - 1);
    if (!controllers.empty()) {
      for (std::string_view c : split(controllers, ',')) e.controllers.emplace_back(c);
    }
    e.path = std::string(line.substr(b + 1));
    entries.push_back(std::move(e));
  }
  return entries;
}

bool contains(const std::vector<std::string>& list, std::string_view item) {
  return std::find(list.begin(), list.end(), item) != list.end();
}

// The directories from the process's cgroup up to the hierarchy's mount
// point (leaf first), with `root` prefixed. When the cgroup path is not
// below the mount's root — or its directory is missing, as inside a
// container with its own cgroup namespace mounted at "/" — the mount point
// alone stands for the process's cgroup.
std::vector<std::string> cgroup_dirs(const std::string& root, const Mount& mount,
                                     const std::string& path,
                                     std::vector<std::string>* notes) {
  const std::string top = root + mount.mount_point;
  std::string relative;
  if (mount.root == "/") {
    relative = path;
  } else if (path.compare(0, mount.root.size(), mount.root) == 0 &&
             (path.size() == mount.root.size() || path[mount.root.size()] == '/')) {
    relative = path.substr(mount.root.size());
  }
  while (!relative.empty() && relative.back() == '/') relative.pop_back();
  std::vector<std::string> dirs;
  std::error_code ec;
  if (!relative.empty() && relative != "/" && !fs::is_directory(top + relative, ec)) {
    notes->push_back("cgroup directory " + mount.mount_point + relative +
                     " not found: using the mount point " + mount.mount_point);
    relative.clear();
  }
  // Leaf first, then each ancestor up to the mount point.
  while (!relative.empty() && relative != "/") {
    dirs.push_back(top + relative);
    const std::size_t slash = relative.rfind('/');
    relative = slash == std::string::npos ? std::string() : relative.substr(0, slash);
  }
  dirs.push_back(top);
  return dirs;
}

std::string strip_root(const std::string& root, const std::string& path) {
  if (!root.empty() && path.compare(0, root.size(), root) == 0) return path.substr(root.size());
  return path;
}

void take_quota(CgroupLimits* limits, double cpus, const std::string& source) {
  if (!limits->cpu_quota || cpus < *limits->cpu_quota) {
    limits->cpu_quota = cpus;
    limits->quota_source = source;
  }
}

void take_cpuset(CgroupLimits* limits, std::vector<int> cpus, const std::string& source) {
  if (!limits->cpus) {
    limits->cpus = std::move(cpus);
    limits->cpuset_source = source;
    return;
  }
  // Both v1 and v2 report one: the process may use only their intersection.
  std::vector<int> both;
  std::set_intersection(limits->cpus->begin(), limits->cpus->end(), cpus.begin(),
                        cpus.end(), std::back_inserter(both));
  limits->cpus = std::move(both);
  limits->cpuset_source += " and " + source;
}

// ---- CPU classes ----------------------------------------------------------

// Assigns P/E classes where the kernel exposes them; returns how (for notes).
std::string classify(const std::string& root, std::vector<platform::LogicalCpu>* cpus) {
  // Intel hybrid: the PMU has one device per core type.
  const std::string pmu = root + "/sys/bus/event_source/devices/";
  const auto p_cores = read_cpu_list(pmu + "cpu_core/cpus");
  const auto e_cores = read_cpu_list(pmu + "cpu_atom/cpus");
  if (p_cores && e_cores) {
    for (platform::LogicalCpu& cpu : *cpus) {
      if (std::binary_search(p_cores->begin(), p_cores->end(), cpu.id)) {
        cpu.core_class = platform::CoreClass::kPerformance;
      } else if (std::binary_search(e_cores->begin(), e_cores->end(), cpu.id)) {
        cpu.core_class = platform::CoreClass::kEfficiency;
      }
    }
    return "core classes from the hybrid PMU (cpu_core / cpu_atom)";
  }
  // Arm big.LITTLE and DynamIQ: relative capacity per CPU (max 1024). Cores
  // with at least half the largest capacity count as performance cores: on
  // three-cluster parts that keeps the middle cluster (~0.7-0.9 of the
  // largest) with the big one and the little cluster (~0.2-0.4) apart.
  std::vector<long long> capacity;
  for (const platform::LogicalCpu& cpu : *cpus) {
    const auto c = read_integer(cpu_dir(root, cpu.id) + "/cpu_capacity");
    if (!c || *c <= 0) return "no core classes exposed";
    capacity.push_back(*c);
  }
  if (capacity.empty()) return "no core classes exposed";
  const long long largest = *std::max_element(capacity.begin(), capacity.end());
  const long long smallest = *std::min_element(capacity.begin(), capacity.end());
  if (largest == smallest) return "uniform cpu_capacity: no core classes";
  for (std::size_t i = 0; i < cpus->size(); ++i) {
    (*cpus)[i].core_class = capacity[i] * 2 >= largest ? platform::CoreClass::kPerformance
                                                       : platform::CoreClass::kEfficiency;
  }
  return "core classes from cpu_capacity";
}

// Per-CPU facts of the visible CPUs: cores, packages, classes, caches.
CpuFacts read_cpu_facts(const std::string& root, const std::vector<int>& visible) {
  CpuFacts f;
  // --- Physical cores, from the sibling lists (never from adjacent ids).
  bool missing_siblings = false;
  bool missing_package = false;
  for (int id : visible) {
    platform::LogicalCpu cpu;
    cpu.id = id;
    const std::string topo = cpu_dir(root, id) + "/topology/";
    auto siblings = read_cpu_list(topo + "thread_siblings_list");
    if (!siblings || siblings->empty()) siblings = read_cpu_list(topo + "core_cpus_list");
    if (siblings && !siblings->empty()) {
      cpu.core = siblings->front();  // the lowest sibling id: one key per core
    } else {
      cpu.core = id;
      missing_siblings = true;
    }
    if (const auto package = read_integer(topo + "physical_package_id"); package && *package >= 0) {
      cpu.package = static_cast<int>(*package);
    } else {
      missing_package = true;
    }
    f.cpus.push_back(cpu);
  }
  if (missing_siblings) {
    f.notes.push_back("thread_siblings_list missing: each such logical CPU counted as its own core");
  }
  if (missing_package) f.notes.push_back("physical_package_id missing: package 0 assumed");
  f.notes.push_back(classify(root, &f.cpus));

  // --- Caches as one core sees them: a performance core's when classes are
  // known (the one the resolvers plan for), else the first visible CPU's.
  int probe = f.cpus.front().id;
  for (const platform::LogicalCpu& cpu : f.cpus) {
    if (cpu.core_class == platform::CoreClass::kPerformance) {
      probe = cpu.id;
      break;
    }
  }
  for (int index = 0; index < 32; ++index) {
    const std::string dir = cpu_dir(root, probe) + "/cache/index" + std::to_string(index) + "/";
    const auto level = read_integer(dir + "level");
    if (!level) break;
    const auto type = read_file(dir + "type");
    if (type && trim(*type) == "Instruction") continue;
    const auto size = read_file(dir + "size");
    platform::CacheInfo cache;
    cache.level = static_cast<int>(*level);
    cache.size_bytes = size ? parse_cache_size(*size) : 0;
    if (const auto shared = read_cpu_list(dir + "shared_cpu_list"); shared && !shared->empty()) {
      cache.shared_by_logical = static_cast<int>(shared->size());
    }
    if (const auto ways = read_integer(dir + "ways_of_associativity"); ways && *ways > 0) {
      cache.ways = static_cast<int>(*ways);
    }
    if (cache.size_bytes == 0 || find_cache(f.caches, cache.level) != nullptr) continue;
    f.caches.push_back(cache);
  }
  std::sort(f.caches.begin(), f.caches.end(),
            [](const platform::CacheInfo& a, const platform::CacheInfo& b) {
              return a.level < b.level;
            });
  if (f.caches.empty()) {
    f.notes.push_back("no cache facts in sysfs");
  } else if (find_cache(f.caches, 3) == nullptr) {
    f.notes.push_back("no L3 in sysfs");
  }
  return f;
}

}  // namespace

std::uint64_t parse_cache_size(std::string_view text) {
  text = trim(text);
  if (text.empty()) return 0;
  std::uint64_t scale = 1;
  const char last = text.back();
  if (last == 'K' || last == 'k') scale = 1024;
  if (last == 'M' || last == 'm') scale = 1024 * 1024;
  if (last == 'G' || last == 'g') scale = 1024ull * 1024 * 1024;
  if (scale != 1) text.remove_suffix(1);
  std::uint64_t value = 0;
  if (!parse_unsigned(text, &value)) return 0;
  return value * scale;
}

std::optional<double> parse_cpu_max(std::string_view text) {
  const std::vector<std::string_view> parts = split(trim(text), ' ');
  if (parts.empty() || parts.size() > 2) return std::nullopt;
  if (trim(parts[0]) == "max") return std::nullopt;
  std::uint64_t quota = 0;
  std::uint64_t period = 100000;  // the kernel's default when only one is given
  if (!parse_unsigned(parts[0], &quota)) return std::nullopt;
  if (parts.size() == 2 && !parse_unsigned(parts[1], &period)) return std::nullopt;
  if (quota == 0 || period == 0) return std::nullopt;
  return static_cast<double>(quota) / static_cast<double>(period);
}

std::optional<double> parse_cfs_quota(std::string_view quota, std::string_view period) {
  quota = trim(quota);
  if (quota.empty() || quota[0] == '-') return std::nullopt;  // -1: no limit
  std::uint64_t q = 0;
  std::uint64_t p = 0;
  if (!parse_unsigned(quota, &q) || !parse_unsigned(period, &p) || q == 0 || p == 0) {
    return std::nullopt;
  }
  return static_cast<double>(q) / static_cast<double>(p);
}

CgroupLimits read_cgroup_limits(const std::string& root, std::string_view proc_self_cgroup,
                                std::string_view proc_self_mountinfo) {
  CgroupLimits limits;
  const std::vector<CgroupEntry> entries = parse_proc_cgroup(proc_self_cgroup);
  const std::vector<Mount> mounts = parse_mountinfo(proc_self_mountinfo);
  if (entries.empty()) {
    limits.notes.push_back("no cgroup membership readable: no quota or cpuset applied");
    return limits;
  }
  for (const CgroupEntry& entry : entries) {
    const bool v2 = entry.hierarchy == "0" && entry.controllers.empty();
    if (v2) {
      auto mount = std::find_if(mounts.begin(), mounts.end(),
                                [](const Mount& m) { return m.fstype == "cgroup2"; });
      if (mount == mounts.end()) continue;
      const auto dirs = cgroup_dirs(root, *mount, entry.path, &limits.notes);
      // Every ancestor's cpu.max limits the process: take the tightest.
      for (const std::string& dir : dirs) {
        if (const auto text = read_file(dir + "/cpu.max")) {
          if (const auto cpus = parse_cpu_max(*text)) {
            take_quota(&limits, *cpus, "cgroup v2 cpu.max at " + strip_root(root, dir));
          }
        }
      }
      // cpuset.cpus.effective already folds in the ancestors: the nearest
      // readable one is the answer.
      for (const std::string& dir : dirs) {
        const auto cpus = read_cpu_list(dir + "/cpuset.cpus.effective");
        if (cpus && !cpus->empty()) {
          take_cpuset(&limits, *cpus,
                      "cgroup v2 cpuset.cpus.effective at " + strip_root(root, dir));
          break;
        }
      }
      continue;
    }
    for (const std::string& controller : entry.controllers) {
      if (controller != "cpu" && controller != "cpuset") continue;
      auto mount = std::find_if(mounts.begin(), mounts.end(), [&](const Mount& m) {
        return m.fstype == "cgroup" && contains(m.super_options, controller);
      });
      if (mount == mounts.end()) continue;
      const auto dirs = cgroup_dirs(root, *mount, entry.path, &limits.notes);
      if (controller == "cpu") {
        for (const std::string& dir : dirs) {
          const auto quota = read_file(dir + "/cpu.cfs_quota_us");
          const auto period = read_file(dir + "/cpu.cfs_period_us");
          if (!quota || !period) continue;
          if (const auto cpus = parse_cfs_quota(*quota, *period)) {
            take_quota(&limits, *cpus, "cgroup v1 cfs quota at " + strip_root(root, dir));
          }
        }
      } else {
        for (const std::string& dir : dirs) {
          auto cpus = read_cpu_list(dir + "/cpuset.effective_cpus");
          const char* file = "cpuset.effective_cpus";
          if (!cpus || cpus->empty()) {
            cpus = read_cpu_list(dir + "/cpuset.cpus");
            file = "cpuset.cpus";
          }
          if (cpus && !cpus->empty()) {
            take_cpuset(&limits, *cpus,
                        std::string("cgroup v1 ") + file + " at " + strip_root(root, dir));
            break;
          }
        }
      }
    }
  }
  return limits;
}

platform::Topology read_linux_topology(const LinuxSources& sources) {
  platform::Topology t;
  const std::string& root = sources.root;
  const std::string cpu_root = root + "/sys/devices/system/cpu";

  // --- Which CPUs the process may use: affinity ∩ cpuset ∩ online.
  const auto online = read_cpu_list(cpu_root + "/online");
  if (online) t.online_count = static_cast<int>(online->size());
  std::vector<int> visible;
  if (sources.affinity) {
    visible = *sources.affinity;
    std::sort(visible.begin(), visible.end());
  } else if (online) {
    visible = *online;
    t.notes.push_back("affinity mask unknown: every online CPU assumed visible");
  }
  CgroupLimits cgroup =
      read_cgroup_limits(root, sources.proc_self_cgroup, sources.proc_self_mountinfo);
  for (std::string& n : cgroup.notes) t.notes.push_back(std::move(n));
  auto narrow = [&](const std::vector<int>& allowed, const std::string& what) {
    std::vector<int> both;
    std::set_intersection(visible.begin(), visible.end(), allowed.begin(), allowed.end(),
                          std::back_inserter(both));
    if (both.empty()) {
      t.notes.push_back(what + " does not intersect the affinity mask: ignored");
      return;
    }
    if (both.size() < visible.size()) {
      t.notes.push_back(what + " narrows the CPU set to " + platform::format_cpu_list(both));
    }
    visible = std::move(both);
  };
  if (cgroup.cpus) narrow(*cgroup.cpus, cgroup.cpuset_source);
  if (online && sources.affinity) narrow(*online, "the online CPU list");
  if (visible.empty()) {
    visible.push_back(0);
    t.notes.push_back("no CPU list readable: one CPU assumed");
  }
  t.cpu_quota = cgroup.cpu_quota;
  t.quota_source = cgroup.quota_source;

  CpuFacts facts;
  if (sources.cache_cpu_facts) {
    // The live path: sysfs CPU facts only change with the visible set (or
    // CPU hotplug, which changes the online list and so the set): reuse
    // them for the same set. Quota and cpuset above are read every time.
    static std::mutex mutex;
    static std::map<std::vector<int>, CpuFacts>* cache = new std::map<std::vector<int>, CpuFacts>;
    const std::lock_guard<std::mutex> lock(mutex);
    auto it = cache->find(visible);
    if (it == cache->end()) {
      if (cache->size() > 64) cache->clear();  // a process cycling masks
      it = cache->emplace(visible, read_cpu_facts(root, visible)).first;
    }
    facts = it->second;
  } else {
    facts = read_cpu_facts(root, visible);
  }
  t.cpus = std::move(facts.cpus);
  t.caches = std::move(facts.caches);
  for (std::string& n : facts.notes) t.notes.push_back(std::move(n));
  if (t.caches.empty()) {
    // Some VMs expose no cache entries in sysfs while the CPU still
    // describes its caches.
    t.caches = sources.described_caches.caches;
    t.notes.push_back(t.caches.empty() ? "no caches from " + sources.described_caches.source
                                       : "caches from " + sources.described_caches.source);
  }
  t.from_os = true;
  return t;
}

#if defined(__linux__)

LinuxSources live_linux_sources() {
  LinuxSources s;
  s.proc_self_cgroup = read_file("/proc/self/cgroup").value_or("");
  s.proc_self_mountinfo = read_file("/proc/self/mountinfo").value_or("");
  s.cache_cpu_facts = true;
  static const CpuidCaches described = host_cpuid_caches();
  s.described_caches = described;
  // The mask may be wider than cpu_set_t's 1024 bits on big machines: grow.
  for (int bits = 1024; bits <= (1 << 16); bits *= 2) {
    cpu_set_t* set = CPU_ALLOC(bits);
    if (set == nullptr) break;
    const std::size_t size = CPU_ALLOC_SIZE(bits);
    CPU_ZERO_S(size, set);
    if (sched_getaffinity(0, size, set) == 0) {
      std::vector<int> ids;
      for (int id = 0; id < bits; ++id) {
        if (CPU_ISSET_S(id, size, set)) ids.push_back(id);
      }
      CPU_FREE(set);
      s.affinity = std::move(ids);
      break;
    }
    CPU_FREE(set);
    if (errno != EINVAL) break;
  }
  return s;
}

}  // namespace tessera::native

namespace tessera::platform {

Topology read_topology() { return native::read_linux_topology(native::live_linux_sources()); }

PlatformFacts platform_facts() {
  PlatformFacts facts;
  facts.arch = cpu_features().arch;
  facts.threads_usable = TESSERA_THREADS_USABLE != 0;
  if (!facts.threads_usable) facts.threads_unusable_reason = "built without threads";
  facts.affinity_supported = true;
  facts.caller_cpu = sched_getcpu();
  facts.platform_name = "linux";
  cpu_set_t mask;
  const int visible = sched_getaffinity(0, sizeof mask, &mask) == 0 ? CPU_COUNT(&mask) : -1;
  facts.node_share =
      native::launcher_node_share(visible, static_cast<int>(sysconf(_SC_NPROCESSORS_ONLN)));
  return facts;
}

}  // namespace tessera::platform

#else

}  // namespace tessera::native

#endif
