// The seeded operands of `tessera-cli elementwise OP N --hash` and of the
// pinned cross-target test (tests/core/elementwise_portable_bits_test.cc),
// in one place so what the test pins is what the CLI prints. Header-only
// and public-API-free, like seeded_inputs.hpp.
//
// The only inputs kept out are those whose result is a NaN made by
// arithmetic (0/0, sqrt of a negative): such a NaN's sign and payload are
// not the same on every CPU and wasm engine, so it would make the hash
// target-dependent without any difference in the specified result.
#pragma once

#include <cstddef>
#include <cstdint>

#include "seeded_inputs.hpp"

namespace tessera::cli {

// a: seeded values in [-1, 1); b: the same from another stream, with its
// zeros replaced by 0.5 (no 0/0).
template <class T>
void fill_elementwise_operands(T* a, T* b, std::size_t n, std::uint64_t seed) {
  fill_seeded(a, n, seed, 1);
  fill_seeded(b, n, seed, 2);
  for (std::size_t i = 0; i < n; ++i) {
    if (b[i] == T(0)) b[i] = T(0.5);
  }
}

// The input of a unary op: a, except that sqrt gets |a| (no sqrt(-x)).
template <class T>
void fill_unary_operand(T* x, std::size_t n, std::uint64_t seed, bool nonnegative) {
  fill_seeded(x, n, seed, 1);
  if (nonnegative) {
    for (std::size_t i = 0; i < n; ++i) x[i] = x[i] < T(0) ? -x[i] : x[i];
  }
}

}  // namespace tessera::cli
