// The seeded operands and the output hash of `tessera-cli gemm` (--seed,
// --hash), in one place for the CLI and the pinned-hash tests
// (tests/core/gemm_portable_bits_test.cc). The tests' pinned values are
// hashes of GEMMs on these inputs, so a change to the generator or the hash
// fails them, and what they pin is what the CLI prints. Header-only and
// public-API-free: tessera-cli includes it as its own file, the tests
// through tessera::internal.
//
// The values are integers / 2048 in [-1, 1) (12 bits), exact in f32 and f64,
// and depend only on (seed, stream, index): every target and every build
// sees the same operands, so `--hash` can be compared across builds (native
// SSE2 and WASI SIMD128 give the same bits).
#pragma once

#include <cstddef>
#include <cstdint>

namespace tessera::cli {

// splitmix64 of (seed, stream, index).
constexpr std::uint64_t seeded_bits(std::uint64_t seed, std::uint64_t stream,
                                    std::uint64_t index) noexcept {
  std::uint64_t z = seed * 0x9E3779B97F4A7C15ull + stream * 0xD1B54A32D192ED03ull +
                    (index + 1) * 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// Its top 12 bits as (k - 2048) / 2048.
constexpr double seeded_value(std::uint64_t seed, std::uint64_t stream,
                              std::uint64_t index) noexcept {
  return (static_cast<double>(seeded_bits(seed, stream, index) >> 52) - 2048.0) / 2048.0;
}

// data[i] = seeded_value(seed, stream, i), i < count.
template <class T>
void fill_seeded(T* data, std::size_t count, std::uint64_t seed, std::uint64_t stream) {
  for (std::size_t i = 0; i < count; ++i) data[i] = static_cast<T>(seeded_value(seed, stream, i));
}

// FNV-1a 64 of `bytes` bytes at `data` (the output's bits, in memory order).
inline std::uint64_t fnv1a64(const void* data, std::size_t bytes) noexcept {
  const auto* p = static_cast<const unsigned char*>(data);
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (std::size_t i = 0; i < bytes; ++i) {
    h ^= p[i];
    h *= 0x100000001b3ull;
  }
  return h;
}

}  // namespace tessera::cli
