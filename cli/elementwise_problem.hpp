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
#include <cstring>
#include <type_traits>

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

// The input of a transcendental unary op (exp log tanh sigmoid gelu): the
// same values times 8 (exact), so the hash covers tanh's saturation and
// gelu's tail up to its documented range; log gets |x|.
template <class T>
void fill_transcendental_operand(T* x, std::size_t n, std::uint64_t seed, bool nonnegative) {
  fill_unary_operand(x, n, seed, nonnegative);
  for (std::size_t i = 0; i < n; ++i) x[i] *= T(8);
}

// Representable values between a and b (0 if equal or both NaN; huge if
// one is NaN or their signs differ beyond the zeros): the ulp distance the
// transcendentals' bounds are stated in.
template <class T>
double ulp_distance(T a, T b) {
  using U = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;
  using S = std::conditional_t<sizeof(T) == 4, std::int32_t, std::int64_t>;
  if (a != a || b != b) return (a != a && b != b) ? 0.0 : 1e300;
  U ua, ub;
  std::memcpy(&ua, &a, sizeof a);
  std::memcpy(&ub, &b, sizeof b);
  const U sign = U(1) << (8 * sizeof(T) - 1);
  // Ordered integers: negatives mirrored below zero (-0 and +0 both 0).
  const S ka = (ua & sign) ? -static_cast<S>(ua & ~sign) : static_cast<S>(ua);
  const S kb = (ub & sign) ? -static_cast<S>(ub & ~sign) : static_cast<S>(ub);
  // Both keys are below 2^63 in magnitude: the difference does not overflow.
  const S d = ka > kb ? ka - kb : kb - ka;
  return static_cast<double>(d);
}

}  // namespace tessera::cli
