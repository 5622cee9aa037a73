// The size-tier rule of tessera's native pool (design.md §Pool tiers), in one place: the
// pool builds and routes to these tiers (native/src/tiered_pool.cc), and the
// core's resolvers snap worker counts onto the same ones, computed by the
// same function from the same inputs (the pool's full width and
// ResolvedExecutionPolicy::pool_classes), so a plan's tier is the pool its
// region really forks into.
//
// A fork/join costs in proportion to a pool's idle slack (its width minus
// the participants used), so below full width the pool keeps up to
// `pool_classes` private sub-pools of halving widths: half, quarter, ... of
// the full width. A region of w participants forks into the smallest one
// holding w, or into the full pool.
#pragma once

#include <span>
#include <vector>

#include "tessera/platform/cpu_features.hpp"

namespace tessera::platform {

// Default TESSERA_POOL_CLASSES: x86-64 2, aarch64 1 (its fork/join is cheap
// enough that one class pays), elsewhere 0 (the wasm pool has no tiers).
int default_pool_classes(CpuArch arch) noexcept;

// Most classes TESSERA_POOL_CLASSES accepts.
inline constexpr int kMaxPoolClasses = 3;

// The sub-pool widths below `full_width` for `pool_classes` halvings,
// ascending, without duplicates and without widths below 2 (a "pool" of one
// participant is the caller alone). (8, 2) -> {2, 4}; (16, 3) -> {2, 4, 8};
// (2, 2) -> {}; (6, 2) -> {3}; (8, 0) -> {}.
std::vector<int> pool_tier_widths(int full_width, int pool_classes);

// The width of the pool a region of w participants forks into: the smallest
// tier holding w, else full_width.
int routed_width(std::span<const int> tiers, int full_width, int w) noexcept;

// The largest tier not above n, or 1 when none is (the automatic paths snap
// a worker count down onto it).
int largest_tier_within(std::span<const int> tiers, int n) noexcept;

}  // namespace tessera::platform
