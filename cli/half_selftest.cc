#include "half_selftest.hpp"

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

namespace tessera::cli {
namespace {

template <class Half>
std::size_t mismatches(const Context& naive, const Context& context) {
  // 0x10000 + 3: a tail after the last whole register on every level.
  constexpr std::size_t kCount = 0x10003;
  std::vector<Half> halves(kCount);
  for (std::size_t i = 0; i < kCount; ++i) halves[i].bits = static_cast<std::uint16_t>(i);
  static constexpr std::uint32_t kLow[] = {0x0000, 0x0FFF, 0x1000, 0x1001, 0x7FFF, 0x8000, 0x8001};
  std::vector<float> x;
  for (std::uint32_t hi = 0; hi < 0x10000; ++hi) {
    for (std::uint32_t lo : kLow) {
      const std::uint32_t bits = hi << 16 | lo;
      float v;
      std::memcpy(&v, &bits, sizeof v);
      x.push_back(v);
    }
  }
  std::vector<float> wide(kCount), wide_ref(kCount);
  std::vector<Half> narrow(x.size()), narrow_ref(x.size());
  if (!try_convert(context, std::span<const Half>(halves), std::span<float>(wide)).ok() ||
      !try_convert(naive, std::span<const Half>(halves), std::span<float>(wide_ref)).ok() ||
      !try_convert(context, std::span<const float>(x), std::span<Half>(narrow)).ok() ||
      !try_convert(naive, std::span<const float>(x), std::span<Half>(narrow_ref)).ok()) {
    return 1;
  }
  std::size_t bad = 0;
  for (std::size_t i = 0; i < kCount; ++i) {
    bad += std::memcmp(&wide[i], &wide_ref[i], sizeof(float)) != 0 ? 1 : 0;
  }
  for (std::size_t i = 0; i < x.size(); ++i) bad += narrow[i] == narrow_ref[i] ? 0 : 1;
  return bad;
}

}  // namespace

void selftest_half(const Context& naive, const Context& context, int* passes, int* failures) {
  for (int bf16_format = 0; bf16_format < 2; ++bf16_format) {
    const std::size_t bad = bf16_format ? mismatches<bf16>(naive, context)
                                        : mismatches<f16>(naive, context);
    std::printf("%s %-6s %s %-8s\n", bad == 0 ? "PASS" : "FAIL", "convert",
                bf16_format ? "f32<->bf16" : "f32<->f16", isa_name(context.isa()));
    (bad == 0 ? *passes : *failures) += 1;
  }
}

}  // namespace tessera::cli
