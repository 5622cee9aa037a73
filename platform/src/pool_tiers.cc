#include "tessera/platform/pool_tiers.hpp"

#include <algorithm>

namespace tessera::platform {

int default_pool_classes(CpuArch arch) noexcept {
  switch (arch) {
    case CpuArch::kX86_64: return 2;
    case CpuArch::kAarch64: return 1;
    default: return 0;
  }
}

std::vector<int> pool_tier_widths(int full_width, int pool_classes) {
  std::vector<int> tiers;
  int width = full_width;
  for (int i = 0; i < pool_classes; ++i) {
    width /= 2;
    if (width < 2) break;
    tiers.push_back(width);
  }
  std::sort(tiers.begin(), tiers.end());
  tiers.erase(std::unique(tiers.begin(), tiers.end()), tiers.end());
  return tiers;
}

int routed_width(std::span<const int> tiers, int full_width, int w) noexcept {
  for (const int t : tiers) {
    if (t >= w) return t;
  }
  return full_width;
}

int largest_tier_within(std::span<const int> tiers, int n) noexcept {
  int best = 1;
  for (const int t : tiers) {
    if (t <= n) best = t;
  }
  return best;
}

}  // namespace tessera::platform
