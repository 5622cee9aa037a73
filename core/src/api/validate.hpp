// Argument checks shared by the operation drivers (design.md §Bad input). Each
// returns an invalid_argument Status naming the argument, or ok.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "tessera/platform/status.hpp"

// The drivers' quick checks (integer tests before the named checks) are
// inlined into their caller, whose arguments are already in registers: as
// calls they passed their arguments through the stack, and an Extent
// stored as two words and reloaded as one vector stalled on store
// forwarding (half of a 16-element add's remaining cost).
#if defined(__GNUC__) || defined(__clang__)
#define TESSERA_QUICK_INLINE __attribute__((always_inline))
#else
#define TESSERA_QUICK_INLINE
#endif

namespace tessera::core {

// The quick checks' limits: dimensions below 2^20 and leading dimensions
// below 2^31, so no byte count they compute can overflow. Larger calls go
// through the named checks (their cost is nothing next to the work).
inline constexpr std::uint64_t kQuickDimLimit = std::uint64_t{1} << 20;
inline constexpr std::uint64_t kQuickLdLimit = std::uint64_t{1} << 31;

// A null pointer is only valid with zero elements.
Status check_pointer(const void* p, std::size_t count, const char* name);

// [a, a+a_bytes) and [b, b+b_bytes) share at least one byte.
// Inline: the quick checks of small calls (GEMM, dot, gemv) test it on
// every call.
inline bool ranges_overlap(const void* a, std::size_t a_bytes, const void* b,
                           std::size_t b_bytes) noexcept {
  if (a_bytes == 0 || b_bytes == 0) return false;
  // Compare as integers: relational comparison of unrelated pointers is
  // unspecified in C++.
  const auto a0 = reinterpret_cast<std::uintptr_t>(a);
  const auto b0 = reinterpret_cast<std::uintptr_t>(b);
  return a0 < b0 + b_bytes && b0 < a0 + a_bytes;
}

// `out` may equal `in` exactly (in place) or be disjoint from it.
Status check_in_place_or_disjoint(const void* in, const void* out,
                                  std::size_t bytes, const char* in_name,
                                  const char* out_name);

}  // namespace tessera::core
