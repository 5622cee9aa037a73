// Size-tiered pools (design.md §Pool tiers): below full width keep up to
// `pool_classes` halving tiers (half, quarter, ... of the physical width).
// The automatic worker count snaps onto one of these widths so a fork has no
// idle slack.
#pragma once

#include <vector>

#include "tessera/platform/cpu_features.hpp"

namespace tessera::core {

// Default TESSERA_POOL_CLASSES for this architecture: x86-64 2, aarch64 1,
// elsewhere 0 (design.md §Pool tiers).
int default_pool_classes(platform::CpuArch arch) noexcept;

// Tier widths in ascending order, full width last, e.g. (16, 2) -> {4, 8, 16},
// (2, 2) -> {1, 2}. Widths of 1 are kept (a "tier" of one is serial) only
// when it results from halving; duplicates are removed. classes is clamped
// to [0, 3] by the knob's validation, not here.
std::vector<int> pool_tier_widths(int full_width, int pool_classes);

// The smallest tier holding `n` participants (rule 2 of design.md §Pool tiers),
// or full_width when n exceeds every tier.
int smallest_tier_holding(const std::vector<int>& tiers, int n) noexcept;

// The largest tier not above `n` (the automatic path snaps down onto it).
int largest_tier_within(const std::vector<int>& tiers, int n) noexcept;

}  // namespace tessera::core
