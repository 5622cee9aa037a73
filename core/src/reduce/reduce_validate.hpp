// Argument checks of the last-axis reductions and softmax (design.md §Bad input): each
// error names the argument, and all of them run before anything is written.
// quick_valid_reduce / quick_valid_softmax are the same checks as integer
// tests for the hot path of small calls; the named checks run only when
// they say no.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>

#include "core/src/base/validate.hpp"
#include "tessera/parallelism.hpp"
#include "tessera/reduce.hpp"

namespace tessera::reduce_detail {

// x rows x cols (ldx), out `rows` elements of out_element bytes, disjoint
// from x. needs_value: max / argmax, which have no value for an empty row.
Status check_reduce(const char* op, std::int64_t rows, std::int64_t cols, const void* x,
                    std::int64_t ldx, const void* out, std::size_t out_element,
                    bool needs_value, Parallelism parallelism, std::size_t element);

// x and y rows x cols (ldx, ldy); y is exactly x (same ld) or disjoint.
Status check_softmax(std::int64_t rows, std::int64_t cols, const void* x, std::int64_t ldx,
                     const void* y, std::int64_t ldy, Parallelism parallelism,
                     std::size_t element);

// Whether rows x cols (row-major, ld) passes core::check_stored within the quick
// checks' limits, with its accessed byte span in *bytes (which then fits a
// size_t with room, on wasm32 too).
TESSERA_QUICK_INLINE inline bool quick_rows_bytes(std::int64_t rows, std::int64_t cols,
                                                  const void* p, std::int64_t ld,
                                                  std::size_t element, std::uint64_t* bytes) {
  // Unsigned compares also reject negative values.
  return static_cast<std::uint64_t>(rows) < core::kQuickDimLimit &&
         static_cast<std::uint64_t>(cols) < core::kQuickDimLimit &&
         static_cast<std::uint64_t>(ld) < core::kQuickLdLimit &&
         core::quick_stored_bytes(true, static_cast<std::uint64_t>(rows),
                                         static_cast<std::uint64_t>(cols),
                                         static_cast<std::uint64_t>(ld), p, element, bytes) &&
         *bytes <= std::numeric_limits<std::size_t>::max() / 2;
}

// True when check_reduce would pass.
TESSERA_QUICK_INLINE inline bool quick_valid_reduce(std::int64_t rows, std::int64_t cols,
                                                    const void* x, std::int64_t ldx,
                                                    const void* out, std::size_t out_element,
                                                    bool needs_value, Parallelism parallelism,
                                                    std::size_t element) {
  std::uint64_t bx;
  if (parallelism.raw() < -1 || !quick_rows_bytes(rows, cols, x, ldx, element, &bx)) return false;
  if (rows > 0 && (out == nullptr || (needs_value && cols == 0))) return false;
  return !core::ranges_overlap(out, static_cast<std::size_t>(rows) * out_element, x,
                               static_cast<std::size_t>(bx));
}

// True when check_softmax would pass.
TESSERA_QUICK_INLINE inline bool quick_valid_softmax(std::int64_t rows, std::int64_t cols,
                                                     const void* x, std::int64_t ldx, const void* y,
                                                     std::int64_t ldy, Parallelism parallelism,
                                                     std::size_t element) {
  std::uint64_t bx, by;
  if (parallelism.raw() < -1 || !quick_rows_bytes(rows, cols, x, ldx, element, &bx) ||
      !quick_rows_bytes(rows, cols, y, ldy, element, &by)) {
    return false;
  }
  return (x == y && ldx == ldy) ||
         !core::ranges_overlap(y, static_cast<std::size_t>(by), x, static_cast<std::size_t>(bx));
}

}  // namespace tessera::reduce_detail
