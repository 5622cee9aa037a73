// The seeded operands of `tessera-cli qgemm` (--seed, --hash), in one place
// for the CLI and the pinned-hash tests (tests/core/qgemm_portable_bits_test.cc):
// what the tests pin is what the CLI prints, on every target. Header-only;
// tessera-cli includes it as its own file, the tests through
// tessera::internal.
//
// Row-major A (m x k) and B (k x n) of 8-bit values, a zero point for A and
// one per column for B, all from splitmix64 of (seed, stream, index), so
// every target sees the same operands. Integer sums do not depend on their
// order: the hash of the int32 output is the same on every level, target
// and worker count.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "seeded_inputs.hpp"

namespace tessera::cli {

// splitmix64 of (seed, stream, index): its top 8 bits.
constexpr std::uint8_t seeded_byte(std::uint64_t seed, std::uint64_t stream,
                                   std::uint64_t index) noexcept {
  return static_cast<std::uint8_t>(seeded_bits(seed, stream, index) >> 56);
}

struct QGemmSeeded {
  std::vector<std::uint8_t> a, b;  // bytes; read as u8 or s8 per the call's types
  std::int32_t za = 0;             // A's zero point, in the range of `a_signed`
  std::vector<std::int32_t> zb;    // B's, one per column, in the range of `b_signed`
};

inline QGemmSeeded make_qgemm_seeded(std::int64_t m, std::int64_t n, std::int64_t k,
                                     bool a_signed, bool b_signed, std::uint64_t seed) {
  QGemmSeeded q;
  q.a.resize(static_cast<std::size_t>(m * k));
  q.b.resize(static_cast<std::size_t>(k * n));
  for (std::size_t i = 0; i < q.a.size(); ++i) q.a[i] = seeded_byte(seed, 11, i);
  for (std::size_t i = 0; i < q.b.size(); ++i) q.b[i] = seeded_byte(seed, 12, i);
  const auto as_type = [](std::uint8_t byte, bool is_signed) {
    return is_signed ? static_cast<std::int32_t>(static_cast<std::int8_t>(byte))
                     : static_cast<std::int32_t>(byte);
  };
  q.za = as_type(seeded_byte(seed, 13, 0), a_signed);
  q.zb.resize(static_cast<std::size_t>(n));
  for (std::size_t j = 0; j < q.zb.size(); ++j) q.zb[j] = as_type(seeded_byte(seed, 14, j), b_signed);
  return q;
}

}  // namespace tessera::cli
