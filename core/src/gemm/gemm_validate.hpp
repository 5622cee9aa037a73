// The GEMM entry points' argument checks (design.md §Bad input): every
// argument is checked before anything is written, and an error names the
// argument. quick_valid() is the whole set as integer tests for the hot path
// of small products; the named checks run only when it says no.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>

#include "core/src/api/validate.hpp"
#include "tessera/gemm.hpp"

namespace tessera::gemm_detail {

inline std::string str(std::int64_t v) { return std::to_string(v); }

// a*b into *out; false on overflow (both >= 0). The builtin multiplies and
// tests the overflow flag: no 64-bit division on the call path.
inline bool mul_ok(std::int64_t a, std::int64_t b, std::int64_t* out) {
  return !__builtin_mul_overflow(a, b, out);
}

// The most elements of `element` bytes one operand may span: half the
// address space (byte offsets fit ptrdiff_t), at most INT64_MAX bytes. The
// common sizes divide by a constant (a shift), not by a runtime value.
inline std::int64_t max_span_elements(std::size_t element) {
  constexpr std::uint64_t kMaxBytes =
      std::numeric_limits<std::size_t>::max() / 2 <
              static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())
          ? std::numeric_limits<std::size_t>::max() / 2
          : static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
  switch (element) {
    case 4: return static_cast<std::int64_t>(kMaxBytes / 4);
    case 8: return static_cast<std::int64_t>(kMaxBytes / 8);
    default: return static_cast<std::int64_t>(kMaxBytes / element);
  }
}

// layout, trans_a, trans_b (either may be null: not an argument of the call).
Status check_enums(Layout layout, const Transpose* ta, const Transpose* tb);
// A dimension named `name` is >= 0.
Status check_dim(std::int64_t v, const char* name);
Status check_parallelism(Parallelism p);
// m*n*k fits 64 bits.
Status check_mnk(std::int64_t m, std::int64_t n, std::int64_t k);

// One matrix as stored: rows x cols, leading dimension ld, per layout.
struct Stored {
  const char* name;     // "a"
  const char* ld_name;  // "lda"
  const void* data;
  std::int64_t rows, cols, ld;
  std::size_t bytes = 0;  // accessed byte range, filled by check_stored
};
// The leading dimension covers a line, the span is addressable, and the
// pointer is not null unless the matrix is empty.
Status check_stored(Layout layout, std::size_t element, Stored* s);
// The output shares no byte with an input.
Status check_no_alias(const Stored& c, const Stored& in);

// The quick checks' limits (core/src/api/validate.hpp).
using core::kQuickDimLimit;
using core::kQuickLdLimit;

// check_stored as integer tests, for operands the quick checks' limits keep
// small (rows, cols < 2^20, ld < 2^31: nothing overflows): false if ld is
// short of a line or the pointer is null with elements, else the accessed
// byte span in *bytes (0 when empty).
TESSERA_QUICK_INLINE inline bool quick_stored_bytes(bool row_major, std::uint64_t rows,
                                                    std::uint64_t cols, std::uint64_t ld,
                                                    const void* p, std::size_t element,
                                                    std::uint64_t* bytes) {
  const std::uint64_t line = row_major ? cols : rows;
  const std::uint64_t lines = row_major ? rows : cols;
  if (ld < (line > 1 ? line : 1)) return false;
  *bytes = rows == 0 || cols == 0 ? 0 : ((lines - 1) * ld + line) * element;
  return *bytes == 0 || p != nullptr;
}

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
      parallelism.raw() < -1 || static_cast<std::uint64_t>(m) >= kQuickDimLimit ||
      static_cast<std::uint64_t>(n) >= kQuickDimLimit ||
      static_cast<std::uint64_t>(k) >= kQuickDimLimit ||
      static_cast<std::uint64_t>(lda) >= kQuickLdLimit ||
      static_cast<std::uint64_t>(ldb) >= kQuickLdLimit ||
      static_cast<std::uint64_t>(ldc) >= kQuickLdLimit) {
    return false;
  }
  const bool row = layout == Layout::kRowMajor;
  const bool na = ta == Transpose::kNo, nb = tb == Transpose::kNo;
  std::uint64_t ba, bb, bc;
  if (!quick_stored_bytes(row, na ? m : k, na ? k : m, lda, a, element, &ba) ||
      !quick_stored_bytes(row, nb ? k : n, nb ? n : k, ldb, b, element, &bb) ||
      !quick_stored_bytes(row, m, n, ldc, c, element, &bc) ||
      (ba | bb | bc) > std::numeric_limits<std::size_t>::max() / 2) {
    return false;
  }
  // C shares no byte with A or B (empty ranges never overlap).
  const auto sa = static_cast<std::size_t>(ba), sb = static_cast<std::size_t>(bb);
  const auto sc = static_cast<std::size_t>(bc);
  return !core::ranges_overlap(c, sc, a, sa) && !core::ranges_overlap(c, sc, b, sb);
}

// Strides of op(X)(r, c) for X as stored: element at x[r*rs + c*cs].
inline void op_strides(Layout layout, Transpose t, std::int64_t ld, std::int64_t* rs,
                std::int64_t* cs) {
  const bool row = layout == Layout::kRowMajor;
  const bool trans = t == Transpose::kYes;
  if (row != trans) {
    *rs = ld;
    *cs = 1;
  } else {
    *rs = 1;
    *cs = ld;
  }
}

}  // namespace tessera::gemm_detail
