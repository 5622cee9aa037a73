// The GEMM entry points' quick check (design.md §Bad input): quick_valid()
// is the whole set of a GEMM's named checks (core/src/base/validate.hpp) as
// integer tests for the hot path of small products; the named checks run
// only when it says no, so every error still names its argument.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>

#include "core/src/base/validate.hpp"
#include "tessera/gemm.hpp"

namespace tessera::gemm_detail {

// The whole of the checks below as plain integer tests, no strings: true
// means every full check would pass. Conservative: dimensions of 2^20 or
// more (and leading dimensions of 2^31 or more) are left to the full
// checks, so nothing here can overflow. Keeps validation off the profile
// of small products. Inlined into the caller, whose arguments are already
// in registers: as a call its fourteen arguments went through the stack
// (~4 ns of the ~50 ns fixed cost of a small product).
TESSERA_QUICK_INLINE inline bool quick_valid(Layout layout, Transpose ta, Transpose tb,
                                             std::int64_t m, std::int64_t n, std::int64_t k,
                                             const void* a, std::int64_t lda, const void* b,
                                             std::int64_t ldb, const void* c, std::int64_t ldc,
                                             Parallelism parallelism, std::size_t element) {
  // Unsigned compares also reject negative values.
  if ((static_cast<unsigned>(layout) | static_cast<unsigned>(ta) | static_cast<unsigned>(tb)) > 1 ||
      parallelism.raw() < -1 || static_cast<std::uint64_t>(m) >= core::kQuickDimLimit ||
      static_cast<std::uint64_t>(n) >= core::kQuickDimLimit ||
      static_cast<std::uint64_t>(k) >= core::kQuickDimLimit ||
      static_cast<std::uint64_t>(lda) >= core::kQuickLdLimit ||
      static_cast<std::uint64_t>(ldb) >= core::kQuickLdLimit ||
      static_cast<std::uint64_t>(ldc) >= core::kQuickLdLimit) {
    return false;
  }
  const bool row = layout == Layout::kRowMajor;
  const bool na = ta == Transpose::kNo, nb = tb == Transpose::kNo;
  std::uint64_t ba, bb, bc;
  if (!core::quick_stored_bytes(row, na ? m : k, na ? k : m, lda, a, element, &ba) ||
      !core::quick_stored_bytes(row, nb ? k : n, nb ? n : k, ldb, b, element, &bb) ||
      !core::quick_stored_bytes(row, m, n, ldc, c, element, &bc) ||
      (ba | bb | bc) > std::numeric_limits<std::size_t>::max() / 2) {
    return false;
  }
  // C shares no byte with A or B (empty ranges never overlap).
  const auto sa = static_cast<std::size_t>(ba), sb = static_cast<std::size_t>(bb);
  const auto sc = static_cast<std::size_t>(bc);
  return !core::ranges_overlap(c, sc, a, sa) && !core::ranges_overlap(c, sc, b, sb);
}

// The named checks in full (what quick_valid stands in for): each failure
// names its argument. ta and tb come back as the checked values. Out of
// line and cold: a small product's path reaches it only on bad input.
[[gnu::noinline, gnu::cold]] inline Status full_checks(Layout layout, Transpose* ta, Transpose* tb, std::int64_t m,
                          std::int64_t n, std::int64_t k, const void* a, std::int64_t lda,
                          const void* b, std::int64_t ldb, const void* c, std::int64_t ldc,
                          Parallelism parallelism, std::size_t element) {
  TESSERA_RETURN_IF_ERROR(core::check_enums(layout, ta, tb));
  TESSERA_RETURN_IF_ERROR(core::check_product(m, n, k, parallelism));
  const bool na = *ta == Transpose::kNo, nb = *tb == Transpose::kNo;
  core::Stored sa{"a", "lda", a, na ? m : k, na ? k : m, lda};
  core::Stored sb{"b", "ldb", b, nb ? k : n, nb ? n : k, ldb};
  core::Stored sc{"c", "ldc", c, m, n, ldc};
  TESSERA_RETURN_IF_ERROR(core::check_stored(layout, element, &sa));
  TESSERA_RETURN_IF_ERROR(core::check_stored(layout, element, &sb));
  TESSERA_RETURN_IF_ERROR(core::check_stored(layout, element, &sc));
  TESSERA_RETURN_IF_ERROR(core::check_no_alias(sc, sa));
  return core::check_no_alias(sc, sb);
}

}  // namespace tessera::gemm_detail
