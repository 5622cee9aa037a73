// The seeded input of `tessera-cli reduce|softmax --hash`, in one place for
// the CLI and the pinned-hash test (tests/core/reduce_portable_bits_test.cc):
// a rows x cols row-major matrix (ld = cols + kReducePad) of seeded values
// (seeded_inputs.hpp) times 3/7, so that, unlike the exact 12-bit values,
// sums round and the hash sees the summation order. Header-only, public API
// only.
#pragma once

#include <cstdint>
#include <limits>
#include <vector>

#include "seeded_inputs.hpp"
#include "tessera/tessera.hpp"

namespace tessera::cli {

// Padding of each row: the kernels must not read it (it holds NaN).
inline constexpr std::int64_t kReducePad = 3;

template <class T>
struct SeededRows {
  std::int64_t rows, cols, ld;
  std::vector<T> x;
  SeededRows(std::int64_t r, std::int64_t c, std::uint64_t seed)
      : rows(r), cols(c), ld(c + kReducePad) {
    x.assign(static_cast<std::size_t>(rows * ld), std::numeric_limits<T>::quiet_NaN());
    for (std::int64_t i = 0; i < rows; ++i) {
      for (std::int64_t j = 0; j < cols; ++j) {
        const auto k = static_cast<std::uint64_t>(i * cols + j);
        x[static_cast<std::size_t>(i * ld + j)] =
            static_cast<T>(seeded_value(seed, 1, k)) * T(3) / T(7);
      }
    }
  }
};

}  // namespace tessera::cli
