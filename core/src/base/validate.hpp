// Argument checks shared by the operation drivers (design.md §Bad input):
// pointers, overlaps, dimensions, enums and stored matrices. Each returns an
// invalid_argument Status naming the argument, or ok; the quick_* forms are
// the same checks as integer tests for the hot path of small calls.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>

#include "tessera/gemm.hpp"
#include "tessera/parallelism.hpp"
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

// The operands of an elementwise map y[i] = f(x[i]) (conversions,
// DynamicQuantizeLinear): y as long as x, both addressable, y overlapping
// no byte of x. Elements of x_bytes and y_bytes bytes.
Status check_map_operands(const void* x, std::size_t x_len, std::size_t x_bytes, const void* y,
                          std::size_t y_len, std::size_t y_bytes);

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
// A product's shape and parallelism: m, n and k >= 0 (each named), m*n*k
// fits 64 bits, the parallelism is valid.
Status check_product(std::int64_t m, std::int64_t n, std::int64_t k, Parallelism parallelism);

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

}  // namespace tessera::core
