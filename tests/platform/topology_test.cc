// Topology as plain data: cpu-list syntax, core counting from sibling keys
// (never adjacent ids), quota lowering, cache lookups and printing.
#include "tessera/platform/topology.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "support/test_support.hpp"

namespace tessera::platform {
namespace {

using test::contains;

TEST_CASE("cpu list: ranges, singles, whitespace and duplicates") {
  std::vector<int> ids;
  REQUIRE(parse_cpu_list("0-3,8,10-11\n", &ids));
  CHECK(ids == std::vector<int>{0, 1, 2, 3, 8, 10, 11});
  REQUIRE(parse_cpu_list(" 5 , 1-2 ,2", &ids));
  CHECK(ids == std::vector<int>{1, 2, 5});
  REQUIRE(parse_cpu_list("7", &ids));
  CHECK(ids == std::vector<int>{7});
  REQUIRE(parse_cpu_list("\n", &ids));
  CHECK(ids.empty());
}

TEST_CASE("cpu list: malformed text is rejected and leaves the output alone") {
  std::vector<int> ids = {42};
  for (const char* bad : {"3-1", "a", "1,,2", "0-", "-1", "1;2", "2000000", "1-2-3", ","}) {
    INFO(bad);
    CHECK_FALSE(parse_cpu_list(bad, &ids));
    CHECK(ids == std::vector<int>{42});
  }
}

TEST_CASE("cpu list: formatting compresses runs and round-trips") {
  CHECK(format_cpu_list({}).empty());
  CHECK(format_cpu_list({3}) == "3");
  CHECK(format_cpu_list({11, 0, 1, 2, 3, 8, 10, 2}) == "0-3,8,10-11");
  std::vector<int> back;
  REQUIRE(parse_cpu_list(format_cpu_list({0, 2, 4, 5, 6, 9}), &back));
  CHECK(back == std::vector<int>{0, 2, 4, 5, 6, 9});
}

TEST_CASE("synthetic machines: siblings are c and c + cores, not adjacent ids") {
  const Topology t = make_synthetic_topology(8, 2, 1 << 20, 32 << 20);
  CHECK(t.logical_count() == 16);
  CHECK(t.physical_core_count() == 8);
  CHECK(t.find_cpu(3)->core == t.find_cpu(11)->core);
  CHECK(t.find_cpu(3)->core != t.find_cpu(4)->core);
  CHECK(t.cpu_ids() == std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15});
  CHECK(t.find_cpu(16) == nullptr);
}

TEST_CASE("physical cores: counted by (package, core key), for 2, 8, 16 and 64 cores") {
  for (int cores : {2, 8, 16, 64}) {
    for (int smt : {1, 2}) {
      const Topology t = make_synthetic_topology(cores, smt, 1 << 20, 0);
      CHECK(t.logical_count() == cores * smt);
      CHECK(t.physical_core_count() == cores);
      CHECK(t.usable_width() == cores);
    }
  }
  // The same core key in two packages is two cores.
  Topology t;
  t.cpus = {{0, 0, 0, CoreClass::kUnknown}, {1, 0, 1, CoreClass::kUnknown}};
  CHECK(t.physical_core_count() == 2);
}

TEST_CASE("usable width: physical cores lowered by a quota, rounded down, at least 1") {
  Topology t = make_synthetic_topology(8, 2, 1 << 20, 0);
  CHECK(t.quota_width() == 0);
  t.cpu_quota = 2.5;
  CHECK(t.quota_width() == 2);
  CHECK(t.usable_width() == 2);
  t.cpu_quota = 0.25;
  CHECK(t.usable_width() == 1);
  t.cpu_quota = 12.0;  // above the cores: the cores decide
  CHECK(t.usable_width() == 8);
}

TEST_CASE("caches: lookup by level; absent levels are 0") {
  const Topology with_l3 = make_synthetic_topology(4, 1, 2 << 20, 16 << 20);
  CHECK(with_l3.cache_bytes(2) == (2u << 20));
  CHECK(with_l3.cache_bytes(3) == (16u << 20));
  REQUIRE(with_l3.cache(3) != nullptr);
  CHECK(with_l3.cache(3)->shared_by_logical == 4);
  const Topology without = make_synthetic_topology(4, 1, 2 << 20, 0);
  CHECK(without.cache_bytes(3) == 0);
  CHECK(without.cache(3) == nullptr);
}

TEST_CASE("printing: to_string and to_json describe the machine") {
  Topology t = make_synthetic_topology(4, 2, 1 << 20, 8 << 20);
  t.cpu_quota = 1.5;
  t.quota_source = "cgroup v1 cfs quota at /x";
  const std::string text = t.to_string();
  CHECK(contains(text, "8 logical CPUs (0-7)"));
  CHECK(contains(text, "4 physical cores"));
  CHECK(contains(text, "L3 8 MiB shared by 8"));
  CHECK(contains(text, "quota 1.50 CPUs (cgroup v1 cfs quota at /x)"));
  const std::string json = t.to_json();
  CHECK(contains(json, "\"logical_cpus\":8"));
  CHECK(contains(json, "\"physical_cores\":4"));
  CHECK(contains(json, "\"usable_width\":1"));
  CHECK(contains(json, "\"cpu_quota\":1.5"));
  CHECK(contains(json, "{\"id\":5,\"core\":1,\"package\":0,\"class\":\"unknown\"}"));
  Topology none;
  CHECK(contains(none.to_json(), "\"cpu_quota\":null"));
}

TEST_CASE("the process topology has at least one CPU and says how it was read") {
  const Topology t = read_topology();
  CHECK(t.logical_count() >= 1);
  CHECK(t.physical_core_count() >= 1);
  CHECK(t.physical_core_count() <= t.logical_count());
  CHECK(t.usable_width() >= 1);
  if (!t.from_os) CHECK_FALSE(t.notes.empty());
}

}  // namespace
}  // namespace tessera::platform
