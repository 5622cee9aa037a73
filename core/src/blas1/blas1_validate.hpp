// Argument checks of dot and gemv (design.md §Bad input): each error names the argument,
// and all of them run before anything is written. As for GEMM
// (gemm_validate.hpp), quick_valid_dot / quick_valid_gemv are the whole set
// as integer tests for the hot path of small calls; the named checks run
// only when they say no.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>

#include "core/src/base/validate.hpp"
#include "tessera/gemm.hpp"
#include "tessera/parallelism.hpp"

namespace tessera::blas1_detail {

Status check_dot(std::int64_t n, const void* x, std::int64_t incx, const void* y,
                 std::int64_t incy, const void* result, Parallelism parallelism,
                 std::size_t element);

// element: the bytes of x's and y's elements; a_element: A's (2 for a half
// format, else element).
Status check_gemv(Layout layout, Transpose trans, std::int64_t m, std::int64_t n,
                  const void* a, std::int64_t lda, const void* x, std::int64_t incx,
                  const void* y, std::int64_t incy, Parallelism parallelism,
                  std::size_t element, std::size_t a_element);

// check_strided as integer tests, conservative: len < 2^31 and
// 0 < |inc| < 2^20, so nothing overflows. True with the accessed byte span
// in *bytes (0 when empty) when the full check would pass.
TESSERA_QUICK_INLINE inline bool quick_strided_bytes(std::int64_t len, std::int64_t inc,
                                                     const void* p, std::size_t element,
                                                     std::uint64_t* bytes) {
  constexpr std::uint64_t kLenLimit = std::uint64_t{1} << 31;
  constexpr std::uint64_t kIncLimit = std::uint64_t{1} << 20;
  const auto step = inc < 0 ? std::uint64_t{0} - static_cast<std::uint64_t>(inc)
                            : static_cast<std::uint64_t>(inc);
  // step - 1 wraps for inc == 0; unsigned compares reject negative lengths.
  if (static_cast<std::uint64_t>(len) >= kLenLimit || step - 1 >= kIncLimit - 1) return false;
  *bytes = len == 0 ? 0 : ((static_cast<std::uint64_t>(len) - 1) * step + 1) * element;
  return *bytes <= std::numeric_limits<std::size_t>::max() / 2 && (len == 0 || p != nullptr);
}

// True when check_dot would pass.
TESSERA_QUICK_INLINE inline bool quick_valid_dot(std::int64_t n, const void* x, std::int64_t incx,
                                                 const void* y, std::int64_t incy,
                                                 const void* result, Parallelism parallelism,
                                                 std::size_t element) {
  std::uint64_t bx, by;
  return parallelism.raw() >= -1 && result != nullptr &&
         quick_strided_bytes(n, incx, x, element, &bx) &&
         quick_strided_bytes(n, incy, y, element, &by);
}

// True when check_gemv would pass.
TESSERA_QUICK_INLINE inline bool quick_valid_gemv(Layout layout, Transpose trans, std::int64_t m,
                                                  std::int64_t n, const void* a, std::int64_t lda,
                                                  const void* x, std::int64_t incx, const void* y,
                                                  std::int64_t incy, Parallelism parallelism,
                                                  std::size_t element, std::size_t a_element) {
  if ((static_cast<unsigned>(layout) | static_cast<unsigned>(trans)) > 1 ||
      parallelism.raw() < -1 || static_cast<std::uint64_t>(m) >= core::kQuickDimLimit ||
      static_cast<std::uint64_t>(n) >= core::kQuickDimLimit ||
      static_cast<std::uint64_t>(lda) >= core::kQuickLdLimit) {
    return false;
  }
  const bool no_trans = trans == Transpose::kNo;
  std::uint64_t ba, bx, by;
  if (!core::quick_stored_bytes(layout == Layout::kRowMajor, m, n, lda, a, a_element, &ba) ||
      ba > std::numeric_limits<std::size_t>::max() / 2 ||
      !quick_strided_bytes(no_trans ? n : m, incx, x, element, &bx) ||
      !quick_strided_bytes(no_trans ? m : n, incy, y, element, &by)) {
    return false;
  }
  // y (at its lowest address whatever the sign of incy) shares no byte with
  // a or x.
  const auto sa = static_cast<std::size_t>(ba), sx = static_cast<std::size_t>(bx);
  const auto sy = static_cast<std::size_t>(by);
  return !core::ranges_overlap(y, sy, a, sa) && !core::ranges_overlap(y, sy, x, sx);
}

}  // namespace tessera::blas1_detail
