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

// The elements of two equally long results whose bits differ.
std::size_t differing(const std::vector<float>& got, const std::vector<float>& want) {
  std::size_t bad = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    bad += std::memcmp(&got[i], &want[i], sizeof(float)) != 0 ? 1 : 0;
  }
  return bad;
}

// The exact mode's contract on one problem with every path of the packing
// (an f16 A transposed, a bf16 B, edges past the register tile): the bits
// of sgemm on the widened operands, this level. Returns the differing
// elements (or 1 when a call fails).
std::size_t gemm_mismatches(const Context& context) {
  constexpr std::int64_t m = 37, n = 70, k = 131;
  std::vector<float> a(m * k), b(k * n);
  for (std::size_t i = 0; i < a.size(); ++i) a[i] = static_cast<float>(static_cast<int>(i * 37 % 61) - 30) / 16.0f;
  for (std::size_t i = 0; i < b.size(); ++i) b[i] = static_cast<float>(static_cast<int>(i * 29 % 53) - 26) / 7.0f;
  std::vector<f16> a16(a.size());
  std::vector<bf16> b16(b.size());
  if (!try_convert(context, std::span<const float>(a), std::span<f16>(a16)).ok() ||
      !try_convert(context, std::span<const f16>(a16), std::span<float>(a)).ok() ||
      !try_convert(context, std::span<const float>(b), std::span<bf16>(b16)).ok() ||
      !try_convert(context, std::span<const bf16>(b16), std::span<float>(b)).ok()) {
    return 1;
  }
  std::vector<float> got(m * n, 1.0f), want(m * n, 1.0f);
  // A stored k x m (transposed), B k x n.
  if (!try_gemm(context, Layout::kRowMajor, Transpose::kYes, Transpose::kNo, m, n, k, 0.75f,
                {a16.data(), m}, {b16.data(), n}, 0.5f, {got.data(), n})
           .ok() ||
      !try_gemm(context, Layout::kRowMajor, Transpose::kYes, Transpose::kNo, m, n, k, 0.75f,
                a.data(), m, b.data(), n, 0.5f, want.data(), n)
           .ok()) {
    return 1;
  }
  return differing(got, want);
}

// The fast mode (the CPU's bf16 pair dot) on a problem whose every sum is
// exact in f32 (small integers times eighths, 131 deep: any order of
// summation gives the same value), against the exact mode: a wrong pairing,
// tail or packing of the words shows as a different value. Returns the
// differing elements, or 1 when a call fails; *status is the fast call's
// (unsupported where the level or the CPU has no such kernel).
std::size_t fast_mismatches(const Context& context, Status* status) {
  constexpr std::int64_t m = 37, n = 70, k = 131;
  std::vector<float> a(m * k), b(k * n);
  for (std::size_t i = 0; i < a.size(); ++i) a[i] = static_cast<float>(static_cast<int>(i * 37 % 17) - 8);
  for (std::size_t i = 0; i < b.size(); ++i) b[i] = static_cast<float>(static_cast<int>(i * 29 % 17) - 8) / 8.0f;
  std::vector<bf16> a16(a.size()), b16(b.size());
  if (!try_convert(context, std::span<const float>(a), std::span<bf16>(a16)).ok() ||
      !try_convert(context, std::span<const float>(b), std::span<bf16>(b16)).ok()) {
    return 1;
  }
  HalfGemmOptions fast;
  fast.mode = HalfGemmMode::kFast;
  std::vector<float> got(m * n, 1.0f), want(m * n, 1.0f);
  // A stored k x m (transposed: paired into a copy), B k x n.
  *status = try_gemm(context, Layout::kRowMajor, Transpose::kYes, Transpose::kNo, m, n, k, 0.75f,
                     {a16.data(), m}, {b16.data(), n}, 0.5f, {got.data(), n}, fast);
  if (!status->ok()) return 1;
  if (!try_gemm(context, Layout::kRowMajor, Transpose::kYes, Transpose::kNo, m, n, k, 0.75f,
                {a16.data(), m}, {b16.data(), n}, 0.5f, {want.data(), n})
           .ok()) {
    return 1;
  }
  return differing(got, want);
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
  const std::size_t bad = gemm_mismatches(context);
  std::printf("%s %-6s %s %-8s\n", bad == 0 ? "PASS" : "FAIL", "gemm", "f16 x bf16 exact",
              isa_name(context.isa()));
  (bad == 0 ? *passes : *failures) += 1;
  // The fast mode where this level and CPU run it; elsewhere a line saying
  // why not (an unsupported mode is not a failure).
  Status fast;
  const std::size_t fast_bad = fast_mismatches(context, &fast);
  if (fast.code() == StatusCode::kUnsupported) {
    std::printf("n/a  %-6s %s %-8s (%s)\n", "gemm", "bf16 fast", isa_name(context.isa()),
                fast.message().c_str());
    return;
  }
  std::printf("%s %-6s %s %-8s\n", fast_bad == 0 ? "PASS" : "FAIL", "gemm", "bf16 fast",
              isa_name(context.isa()));
  (fast_bad == 0 ? *passes : *failures) += 1;
}

}  // namespace tessera::cli
