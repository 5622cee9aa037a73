// The Linux topology reader against synthetic sysfs and cgroup trees built
// in a temporary directory: 2, 8, 16 and 64 cores, with and without L3, SMT
// on and off with adjacent and non-adjacent siblings, hybrid P/E parts,
// affinity masks, cpusets and quotas (v1 and v2) smaller than the CPU set.
#include "native/src/topology_linux.hpp"

#include <doctest/doctest.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "support/test_support.hpp"
#include "tessera/platform/execution_policy.hpp"

namespace tessera::native {
namespace {

namespace fs = std::filesystem;
using platform::CoreClass;
using platform::Topology;

using test::contains;

bool has_note(const Topology& t, const std::string& text) {
  return std::any_of(t.notes.begin(), t.notes.end(),
                     [&](const std::string& n) { return contains(n, text); });
}

// A throw-away root holding sys/ and the cgroup mounts.
class FakeRoot {
 public:
  FakeRoot() {
    static std::atomic<int> counter{0};
    // A RAM file system when there is one: thousands of tiny files cost
    // seconds on a disk-backed /tmp and milliseconds in /dev/shm.
    std::error_code ec;
    const fs::path base =
        fs::is_directory("/dev/shm", ec) ? fs::path("/dev/shm") : fs::temp_directory_path();
    root_ = base /
            ("tessera-topology-" + std::to_string(::getpid()) + "-" +
             std::to_string(counter.fetch_add(1)));
    fs::remove_all(root_);
    fs::create_directories(root_);
  }
  ~FakeRoot() {
    std::error_code ec;
    fs::remove_all(root_, ec);
  }
  FakeRoot(const FakeRoot&) = delete;
  FakeRoot& operator=(const FakeRoot&) = delete;

  std::string path() const { return root_.string(); }

  void write(const std::string& relative, const std::string& text) {
    const fs::path file = root_ / relative;
    fs::create_directories(file.parent_path());
    std::ofstream(file) << text << "\n";
  }

  void cpu(int id, const std::string& siblings, int package = 0) {
    const std::string dir = "sys/devices/system/cpu/cpu" + std::to_string(id) + "/topology/";
    write(dir + "thread_siblings_list", siblings);
    write(dir + "physical_package_id", std::to_string(package));
  }

  void cache(int cpu, int index, int level, const std::string& type, const std::string& size,
             const std::string& shared) {
    const std::string dir = "sys/devices/system/cpu/cpu" + std::to_string(cpu) + "/cache/index" +
                            std::to_string(index) + "/";
    write(dir + "level", std::to_string(level));
    write(dir + "type", type);
    write(dir + "size", size);
    write(dir + "shared_cpu_list", shared);
  }

  void online(const std::string& list) { write("sys/devices/system/cpu/online", list); }

 private:
  fs::path root_;
};

// `cores` cores x `smt` threads. Non-adjacent siblings: core c = CPUs c,
// c + cores. Adjacent: core c = CPUs smt*c .. smt*c + smt - 1. Per-core L1d
// 48K, L1i, L2 `l2`; an L3 of `l3` ("" = none) shared by all. Cache
// directories only for CPUs 0-7 (the reader looks at one CPU's caches, and
// file creation is slow on some CI file systems).
void build_machine(FakeRoot& fake, int cores, int smt, bool adjacent, const std::string& l2,
                   const std::string& l3, int packages = 1) {
  const int logical = cores * smt;
  fake.online("0-" + std::to_string(logical - 1));
  for (int c = 0; c < cores; ++c) {
    std::vector<int> ids;
    for (int t = 0; t < smt; ++t) ids.push_back(adjacent ? smt * c + t : c + t * cores);
    const std::string siblings = platform::format_cpu_list(ids);
    const int package = c * packages / cores;
    for (int id : ids) {
      fake.cpu(id, siblings, package);
      if (id >= 8) continue;
      fake.cache(id, 0, 1, "Data", "48K", siblings);
      fake.cache(id, 1, 1, "Instruction", "32K", siblings);
      fake.cache(id, 2, 2, "Unified", l2, siblings);
      if (!l3.empty()) fake.cache(id, 3, 3, "Unified", l3, "0-" + std::to_string(logical - 1));
    }
  }
}

LinuxSources sources_for(const FakeRoot& fake) {
  LinuxSources s;
  s.root = fake.path();
  return s;
}

TEST_CASE("parse: cache sizes in sysfs units") {
  CHECK(parse_cache_size("32K\n") == 32 * 1024);
  CHECK(parse_cache_size("1024K") == 1024 * 1024);
  CHECK(parse_cache_size("32M") == 32u << 20);
  CHECK(parse_cache_size("1G") == 1ull << 30);
  CHECK(parse_cache_size("512") == 512);
  CHECK(parse_cache_size("") == 0);
  CHECK(parse_cache_size("12Q") == 0);
  CHECK(parse_cache_size("K") == 0);
}

TEST_CASE("parse: cgroup v2 cpu.max and v1 cfs quota") {
  CHECK_FALSE(parse_cpu_max("max 100000\n").has_value());
  REQUIRE(parse_cpu_max("150000 100000\n").has_value());
  CHECK(*parse_cpu_max("150000 100000") == doctest::Approx(1.5));
  CHECK(*parse_cpu_max("50000") == doctest::Approx(0.5));  // default period
  CHECK_FALSE(parse_cpu_max("garbage").has_value());
  CHECK_FALSE(parse_cpu_max("100 0").has_value());
  CHECK_FALSE(parse_cfs_quota("-1\n", "100000\n").has_value());
  CHECK(*parse_cfs_quota("200000\n", "100000\n") == doctest::Approx(2.0));
  CHECK_FALSE(parse_cfs_quota("x", "100000").has_value());
}

TEST_CASE("sysfs: 2 cores, no SMT, with an L3") {
  FakeRoot fake;
  build_machine(fake, 2, 1, false, "1024K", "32768K");
  const Topology t = read_linux_topology(sources_for(fake));
  CHECK(t.from_os);
  CHECK(t.logical_count() == 2);
  CHECK(t.online_count == 2);
  CHECK(t.physical_core_count() == 2);
  CHECK(t.cache_bytes(1) == 48 * 1024);  // the data cache, not the instruction one
  CHECK(t.cache_bytes(2) == 1u << 20);
  CHECK(t.cache_bytes(3) == 32u << 20);
  CHECK(t.cache(3)->shared_by_logical == 2);
  CHECK_FALSE(t.cpu_quota.has_value());
}

TEST_CASE("sysfs: 8 cores, SMT with non-adjacent siblings, no L3") {
  FakeRoot fake;
  build_machine(fake, 8, 2, false, "2048K", "");
  const Topology t = read_linux_topology(sources_for(fake));
  CHECK(t.logical_count() == 16);
  CHECK(t.physical_core_count() == 8);
  CHECK(t.find_cpu(3)->core == t.find_cpu(11)->core);
  CHECK(t.find_cpu(3)->core != t.find_cpu(4)->core);
  CHECK(t.cache_bytes(3) == 0);
  CHECK(t.cache(2)->shared_by_logical == 2);
  CHECK(has_note(t, "no L3 in sysfs"));
}

TEST_CASE("sysfs: 16 cores, SMT with adjacent siblings: cores from the sibling list") {
  FakeRoot fake;
  build_machine(fake, 16, 2, true, "1024K", "65536K");
  const Topology t = read_linux_topology(sources_for(fake));
  CHECK(t.logical_count() == 32);
  CHECK(t.physical_core_count() == 16);
  CHECK(t.find_cpu(0)->core == t.find_cpu(1)->core);
  CHECK(t.find_cpu(1)->core != t.find_cpu(2)->core);
  CHECK(t.usable_width() == 16);
}

TEST_CASE("sysfs: 64 cores in two packages, SMT off") {
  FakeRoot fake;
  build_machine(fake, 64, 1, false, "1024K", "262144K", 2);
  const Topology t = read_linux_topology(sources_for(fake));
  CHECK(t.logical_count() == 64);
  CHECK(t.physical_core_count() == 64);
  CHECK(t.find_cpu(0)->package == 0);
  CHECK(t.find_cpu(63)->package == 1);
  CHECK(t.cache_bytes(3) == 256u << 20);
}

TEST_CASE("sysfs: the affinity mask narrows the visible set; online count stays") {
  FakeRoot fake;
  build_machine(fake, 8, 1, false, "1024K", "32768K");
  LinuxSources s = sources_for(fake);
  s.affinity = std::vector<int>{6, 0, 2};
  const Topology t = read_linux_topology(s);
  CHECK(t.cpu_ids() == std::vector<int>{0, 2, 6});
  CHECK(t.online_count == 8);
  // An affinity id that is not online is dropped.
  s.affinity = std::vector<int>{1, 40};
  CHECK(read_linux_topology(s).cpu_ids() == std::vector<int>{1});
}

TEST_CASE("sysfs: a missing sibling list counts each CPU as its own core, with a note") {
  FakeRoot fake;
  fake.online("0-3");
  for (int id = 0; id < 4; ++id) {
    fake.write("sys/devices/system/cpu/cpu" + std::to_string(id) + "/topology/physical_package_id",
               "0");
  }
  const Topology t = read_linux_topology(sources_for(fake));
  CHECK(t.physical_core_count() == 4);
  CHECK(has_note(t, "thread_siblings_list missing"));
  CHECK(has_note(t, "no cache facts"));
}

TEST_CASE("sysfs without caches: the caches cpuid describes, with a note; sysfs wins when present") {
  FakeRoot fake;
  fake.online("0-1");
  for (int id = 0; id < 2; ++id) fake.cpu(id, std::to_string(id), 0);
  LinuxSources s = sources_for(fake);
  s.described_caches.caches = {{1, 48 * 1024, 1, 12}, {2, 1 << 20, 1, 8}};
  s.described_caches.source = "cpuid leaves 0x80000005/0x80000006";
  const Topology t = read_linux_topology(s);
  CHECK(t.cache_bytes(1) == 48 * 1024);
  CHECK(t.cache(1)->ways == 12);
  CHECK(t.cache_bytes(2) == 1u << 20);
  CHECK(t.cache_bytes(3) == 0);
  CHECK(has_note(t, "no cache facts in sysfs"));
  CHECK(has_note(t, "caches from cpuid leaves 0x80000005/0x80000006"));
  CHECK(contains(t.to_string(), "L1 48 KiB 12-way"));

  FakeRoot listed;
  build_machine(listed, 2, 1, false, "2048K", "");
  listed.write("sys/devices/system/cpu/cpu0/cache/index0/ways_of_associativity", "12");
  LinuxSources both = sources_for(listed);
  both.described_caches = s.described_caches;
  const Topology from_sysfs = read_linux_topology(both);
  CHECK(from_sysfs.cache_bytes(2) == 2u << 20);  // sysfs, not the described 1 MiB
  CHECK(from_sysfs.cache(1)->ways == 12);
  CHECK(from_sysfs.cache(2)->ways == 0);  // no ways file: unknown
  CHECK_FALSE(has_note(from_sysfs, "caches from cpuid"));
}

TEST_CASE("classes: Intel hybrid PMU directories give P and E cores") {
  FakeRoot fake;
  build_machine(fake, 12, 1, false, "2048K", "24576K");
  fake.write("sys/bus/event_source/devices/cpu_core/cpus", "0-3");
  fake.write("sys/bus/event_source/devices/cpu_atom/cpus", "4-11");
  const Topology t = read_linux_topology(sources_for(fake));
  CHECK(t.find_cpu(2)->core_class == CoreClass::kPerformance);
  CHECK(t.find_cpu(4)->core_class == CoreClass::kEfficiency);
  CHECK(t.find_cpu(11)->core_class == CoreClass::kEfficiency);
  CHECK(has_note(t, "hybrid PMU"));
}

TEST_CASE("classes: cpu_capacity splits big and little cores; uniform capacity is no class") {
  FakeRoot fake;
  build_machine(fake, 8, 1, false, "512K", "");
  for (int id = 0; id < 8; ++id) {
    fake.write("sys/devices/system/cpu/cpu" + std::to_string(id) + "/cpu_capacity",
               id < 4 ? "446" : "1024");
  }
  Topology t = read_linux_topology(sources_for(fake));
  CHECK(t.find_cpu(0)->core_class == CoreClass::kEfficiency);
  CHECK(t.find_cpu(7)->core_class == CoreClass::kPerformance);
  for (int id = 0; id < 8; ++id) {
    fake.write("sys/devices/system/cpu/cpu" + std::to_string(id) + "/cpu_capacity", "1024");
  }
  t = read_linux_topology(sources_for(fake));
  CHECK(t.find_cpu(0)->core_class == CoreClass::kUnknown);
}

// cgroup v2: the unified hierarchy at /sys/fs/cgroup.
const char* kMountinfoV2 =
    "24 1 0:22 / /sys/fs/cgroup rw,nosuid - cgroup2 cgroup2 rw,nsdelegate\n";

TEST_CASE("cgroup v2: a quota smaller than the CPU set; the tightest ancestor wins") {
  FakeRoot fake;
  build_machine(fake, 8, 2, false, "1024K", "32768K");
  fake.write("sys/fs/cgroup/app.slice/cpu.max", "max 100000");
  fake.write("sys/fs/cgroup/app.slice/job/cpu.max", "150000 100000");
  LinuxSources s = sources_for(fake);
  s.proc_self_cgroup = "0::/app.slice/job\n";
  s.proc_self_mountinfo = kMountinfoV2;
  Topology t = read_linux_topology(s);
  REQUIRE(t.cpu_quota.has_value());
  CHECK(*t.cpu_quota == doctest::Approx(1.5));
  CHECK(contains(t.quota_source, "cgroup v2 cpu.max at /sys/fs/cgroup/app.slice/job"));
  CHECK(t.usable_width() == 1);
  // A parent with a tighter limit.
  fake.write("sys/fs/cgroup/app.slice/cpu.max", "100000 100000");
  t = read_linux_topology(s);
  CHECK(*t.cpu_quota == doctest::Approx(1.0));
  CHECK(contains(t.quota_source, "/sys/fs/cgroup/app.slice"));
}

TEST_CASE("cgroup v2: cpuset.cpus.effective narrows the CPUs") {
  FakeRoot fake;
  build_machine(fake, 8, 1, false, "1024K", "32768K");
  fake.write("sys/fs/cgroup/box/cpuset.cpus.effective", "2-4");
  LinuxSources s = sources_for(fake);
  s.proc_self_cgroup = "0::/box\n";
  s.proc_self_mountinfo = kMountinfoV2;
  const Topology t = read_linux_topology(s);
  CHECK(t.cpu_ids() == std::vector<int>{2, 3, 4});
  CHECK(has_note(t, "cpuset.cpus.effective"));
}

// cgroup v1: one mount per controller set, as Docker and older systemd do.
const char* kMountinfoV1 =
    "31 23 0:28 / /sys/fs/cgroup rw - tmpfs tmpfs rw,mode=755\n"
    "32 31 0:29 / /sys/fs/cgroup/cpu,cpuacct rw,relatime - cgroup cgroup rw,cpu,cpuacct\n"
    "34 31 0:31 / /sys/fs/cgroup/cpuset rw,relatime - cgroup cgroup rw,cpuset\n"
    "35 31 0:32 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory\n";

TEST_CASE("cgroup v1: cfs quota and cpuset of the process's cgroup") {
  FakeRoot fake;
  build_machine(fake, 16, 1, false, "1024K", "32768K");
  fake.write("sys/fs/cgroup/cpu,cpuacct/docker/abc/cpu.cfs_quota_us", "200000");
  fake.write("sys/fs/cgroup/cpu,cpuacct/docker/abc/cpu.cfs_period_us", "100000");
  fake.write("sys/fs/cgroup/cpu,cpuacct/docker/cpu.cfs_quota_us", "-1");
  fake.write("sys/fs/cgroup/cpu,cpuacct/docker/cpu.cfs_period_us", "100000");
  fake.write("sys/fs/cgroup/cpuset/docker/abc/cpuset.cpus", "0-5");
  LinuxSources s = sources_for(fake);
  s.proc_self_cgroup = "5:memory:/docker/abc\n4:cpu,cpuacct:/docker/abc\n3:cpuset:/docker/abc\n";
  s.proc_self_mountinfo = kMountinfoV1;
  const Topology t = read_linux_topology(s);
  REQUIRE(t.cpu_quota.has_value());
  CHECK(*t.cpu_quota == doctest::Approx(2.0));
  CHECK(contains(t.quota_source, "cgroup v1 cfs quota"));
  CHECK(t.logical_count() == 6);
  CHECK(t.usable_width() == 2);
}

TEST_CASE("cgroup v1: no quota (-1) and a namespaced path falls back to the mount point") {
  FakeRoot fake;
  build_machine(fake, 4, 1, false, "1024K", "8192K");
  fake.write("sys/fs/cgroup/cpu,cpuacct/cpu.cfs_quota_us", "-1");
  fake.write("sys/fs/cgroup/cpu,cpuacct/cpu.cfs_period_us", "100000");
  LinuxSources s = sources_for(fake);
  s.proc_self_cgroup = "4:cpu,cpuacct:/host/path/not/here\n";
  s.proc_self_mountinfo = kMountinfoV1;
  Topology t = read_linux_topology(s);
  CHECK_FALSE(t.cpu_quota.has_value());
  CHECK(has_note(t, "not found: using the mount point"));
  // The mount point itself carries the container's quota.
  fake.write("sys/fs/cgroup/cpu,cpuacct/cpu.cfs_quota_us", "50000");
  t = read_linux_topology(s);
  REQUIRE(t.cpu_quota.has_value());
  CHECK(*t.cpu_quota == doctest::Approx(0.5));
}

TEST_CASE("cgroup quota lowering reaches the resolved policy with its reason") {
  FakeRoot fake;
  build_machine(fake, 8, 1, false, "1024K", "32768K");
  fake.write("sys/fs/cgroup/job/cpu.max", "200000 100000");
  LinuxSources s = sources_for(fake);
  s.proc_self_cgroup = "0::/job\n";
  s.proc_self_mountinfo = kMountinfoV2;
  const Topology t = read_linux_topology(s);
  platform::PlatformFacts facts;
  facts.threads_usable = true;
  facts.affinity_supported = true;
  facts.caller_cpu = 0;
  platform::ResolvedExecutionPolicy r;
  REQUIRE(platform::resolve_execution_policy({}, t, facts, &r).ok());
  CHECK(r.effective_threads == 2);
  REQUIRE_FALSE(r.fallbacks.empty());
  CHECK(contains(r.fallbacks[0], "cgroup quota limits to 2 CPUs"));
}

#if defined(__linux__)
TEST_CASE("live: this process's topology matches its affinity mask") {
  const LinuxSources live = live_linux_sources();
  REQUIRE(live.affinity.has_value());
  const Topology t = platform::read_topology();
  CHECK(t.from_os);
  CHECK(t.logical_count() >= 1);
  CHECK(static_cast<std::size_t>(t.logical_count()) <= live.affinity->size());
  CHECK(t.logical_count() <= static_cast<int>(std::max(1u, std::thread::hardware_concurrency())));
  CHECK(t.physical_core_count() <= t.logical_count());
  const platform::PlatformFacts facts = platform::platform_facts();
  CHECK(facts.affinity_supported);
  CHECK(facts.caller_cpu >= 0);
}
#endif

}  // namespace
}  // namespace tessera::native
