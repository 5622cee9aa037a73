// The seeded dot and gemv problems of `tessera-cli dot|gemv --hash`, in one
// place for the CLI and the pinned-hash test
// (tests/core/blas1_portable_bits_test.cc): operands from seeded_inputs.hpp
// (exact 12-bit values), fixed alpha and beta, default increments and
// leading dimensions. Header-only, public API only.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "seeded_inputs.hpp"
#include "tessera/tessera.hpp"

namespace tessera::cli {

// gemv: y = 1.5 * op(A) x - 0.5 * y; A is m x n as stored, lda its line length.
inline constexpr double kGemvAlpha = 1.5;
inline constexpr double kGemvBeta = -0.5;

template <class T>
struct SeededGemv {
  Layout layout;
  Transpose trans;
  std::int64_t m, n, lda, incx, incy;
  std::vector<T> a, x, y;  // y: the initial y, then the output

  SeededGemv(Layout l, Transpose t, std::int64_t rows, std::int64_t cols, std::int64_t ix,
             std::int64_t iy, std::uint64_t seed)
      : layout(l), trans(t), m(rows), n(cols), incx(ix), incy(iy) {
    lda = std::max<std::int64_t>(1, layout == Layout::kRowMajor ? n : m);
    const std::int64_t lines = layout == Layout::kRowMajor ? m : n;
    a.resize(static_cast<std::size_t>(lines * lda));
    x.resize(span(x_len(), incx));
    y.resize(span(y_len(), incy));
    fill_seeded(a.data(), a.size(), seed, 1);
    fill_seeded(x.data(), x.size(), seed, 2);
    fill_seeded(y.data(), y.size(), seed, 3);
  }
  std::int64_t x_len() const { return trans == Transpose::kNo ? n : m; }
  std::int64_t y_len() const { return trans == Transpose::kNo ? m : n; }
  static std::size_t span(std::int64_t len, std::int64_t inc) {
    return len == 0 ? 0 : static_cast<std::size_t>((len - 1) * (inc < 0 ? -inc : inc) + 1);
  }
  Status run(const Context& context, T* out, Parallelism parallelism = {}) const {
    return try_gemv(context, layout, trans, m, n, static_cast<T>(kGemvAlpha), a.data(), lda,
                    x.data(), incx, static_cast<T>(kGemvBeta), out, incy, parallelism);
  }
};

// dot: x from stream 1, y from stream 2.
template <class T>
struct SeededDot {
  std::int64_t n, incx, incy;
  std::vector<T> x, y;
  SeededDot(std::int64_t len, std::int64_t ix, std::int64_t iy, std::uint64_t seed)
      : n(len), incx(ix), incy(iy) {
    x.resize(SeededGemv<T>::span(n, incx));
    y.resize(SeededGemv<T>::span(n, incy));
    fill_seeded(x.data(), x.size(), seed, 1);
    fill_seeded(y.data(), y.size(), seed, 2);
  }
  Status run(const Context& context, T* result, Parallelism parallelism = {}) const {
    return try_dot(context, n, x.data(), incx, y.data(), incy, result, parallelism);
  }
};

}  // namespace tessera::cli
