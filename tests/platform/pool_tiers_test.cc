// The one tier rule (platform/pool_tiers.hpp) that the native pool and the
// core's resolvers share.
#include <doctest/doctest.h>

#include <vector>

#include "tessera/platform/pool_tiers.hpp"

namespace tessera::platform {
namespace {

TEST_CASE("tiers halve the full width and drop widths below two") {
  CHECK(pool_tier_widths(8, 2) == std::vector<int>{2, 4});
  CHECK(pool_tier_widths(16, 3) == std::vector<int>{2, 4, 8});
  CHECK(pool_tier_widths(64, 2) == std::vector<int>{16, 32});
  CHECK(pool_tier_widths(16, 0).empty());
  CHECK(pool_tier_widths(2, 2).empty());
  CHECK(pool_tier_widths(1, 3).empty());
  CHECK(pool_tier_widths(6, 2) == std::vector<int>{3});
  CHECK(pool_tier_widths(5, 3) == std::vector<int>{2});
}

TEST_CASE("a region forks into the smallest tier holding it, else the full pool") {
  const std::vector<int> tiers = pool_tier_widths(16, 2);  // {4, 8}
  CHECK(routed_width(tiers, 16, 2) == 4);
  CHECK(routed_width(tiers, 16, 4) == 4);
  CHECK(routed_width(tiers, 16, 5) == 8);
  CHECK(routed_width(tiers, 16, 9) == 16);
  CHECK(routed_width(tiers, 16, 16) == 16);
  CHECK(routed_width({}, 3, 2) == 3);
}

TEST_CASE("snapping down picks the largest tier within the count, or one") {
  const std::vector<int> tiers = pool_tier_widths(16, 2);  // {4, 8}
  CHECK(largest_tier_within(tiers, 3) == 1);
  CHECK(largest_tier_within(tiers, 4) == 4);
  CHECK(largest_tier_within(tiers, 7) == 4);
  CHECK(largest_tier_within(tiers, 12) == 8);
  CHECK(largest_tier_within({}, 12) == 1);
}

TEST_CASE("default pool classes per architecture") {
  CHECK(default_pool_classes(CpuArch::kX86_64) == 2);
  CHECK(default_pool_classes(CpuArch::kAarch64) == 1);
  CHECK(default_pool_classes(CpuArch::kWasm32) == 0);
  CHECK(default_pool_classes(CpuArch::kOther) == 0);
}

}  // namespace
}  // namespace tessera::platform
