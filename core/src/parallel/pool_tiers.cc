#include "core/src/parallel/pool_tiers.hpp"

#include <algorithm>

namespace tessera::core {

int default_pool_classes(platform::CpuArch arch) noexcept {
  switch (arch) {
    case platform::CpuArch::kX86_64: return 2;
    case platform::CpuArch::kAarch64: return 1;
    default: return 0;
  }
}

std::vector<int> pool_tier_widths(int full_width, int pool_classes) {
  std::vector<int> tiers;
  full_width = std::max(1, full_width);
  int width = full_width;
  for (int i = 0; i < pool_classes; ++i) {
    width /= 2;
    if (width < 1) break;
    tiers.push_back(width);
  }
  tiers.push_back(full_width);
  std::sort(tiers.begin(), tiers.end());
  tiers.erase(std::unique(tiers.begin(), tiers.end()), tiers.end());
  return tiers;
}

int smallest_tier_holding(const std::vector<int>& tiers, int n) noexcept {
  for (int t : tiers) {
    if (t >= n) return t;
  }
  return tiers.empty() ? n : tiers.back();
}

int largest_tier_within(const std::vector<int>& tiers, int n) noexcept {
  int best = 1;
  for (int t : tiers) {
    if (t <= n) best = t;
  }
  return best;
}

}  // namespace tessera::core
