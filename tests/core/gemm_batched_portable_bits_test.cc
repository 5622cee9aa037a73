// Cross-target agreement of batched GEMM (issue 10 item 2): a seeded batch
// on the SSE2 level natively, on SIMD128 under WASI and Emscripten, and on
// the scalar level must give the same bits. One build cannot run another,
// so the meeting point is a pinned hash (FNV-1a 64 of the whole C buffer).
// The pins are not computed by an independent reference: they were produced
// by running this code (native x86-64, TESSERA_ISA-independent: the test
// forces each level) and are a cross-target agreement check, nothing more;
// correctness is gemm_batched_correctness_test.cc's job. Inputs are those of
// `tessera-cli gemm-batched 7 23 19 300 --seed 7 --hash` (cli/seeded_inputs.hpp).
#include <doctest/doctest.h>

#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "cli/seeded_inputs.hpp"
#include "support/test_support.hpp"
#include "tessera/tessera.hpp"

namespace tessera {
namespace {

// Row-major, no transposes, alpha 1, beta 0, entries packed tightly: the
// CLI's problem. Depth 300 crosses the fixed kc of 256; 7 entries (prime)
// of tile-edge sizes.
constexpr std::int64_t kBatch = 7, kM = 23, kN = 19, kK = 300;

template <class T>
std::uint64_t batch_hash(const Context& context) {
  std::vector<T> a(static_cast<std::size_t>(kBatch * kM * kK)),
      b(static_cast<std::size_t>(kBatch * kK * kN)), c(static_cast<std::size_t>(kBatch * kM * kN));
  cli::fill_seeded(a.data(), a.size(), 7, 1);
  cli::fill_seeded(b.data(), b.size(), 7, 2);
  const Status s = try_gemm_strided_batched(context, Layout::kRowMajor, Transpose::kNo,
                                            Transpose::kNo, kM, kN, kK, T(1), a.data(), kK,
                                            kM * kK, b.data(), kN, kK * kN, T(0), c.data(), kN,
                                            kM * kN, kBatch);
  REQUIRE_MESSAGE(s.ok(), s.to_string());
  return cli::fnv1a64(c.data(), c.size() * sizeof(T));
}

// {f32, f64}, shared by scalar, SSE2 and SIMD128 (the same unfused
// per-element sequence and kc = 256 on all three).
constexpr std::uint64_t kPins[2] = {0x1bf3e5ab380ba492ull, 0xe5e40829d8f63ab4ull};

void check_pins(Isa isa) {
  const Context context = test::context_for(isa);
  const std::uint64_t f32 = batch_hash<float>(context);
  const std::uint64_t f64 = batch_hash<double>(context);
  char text[128];
  std::snprintf(text, sizeof text, "%s: f32 %016" PRIx64 ", f64 %016" PRIx64, isa_name(isa), f32,
                f64);
  CHECK_MESSAGE(f32 == kPins[0], text);
  CHECK_MESSAGE(f64 == kPins[1], text);
}

TEST_CASE("batched gemm: the 128-bit levels (sse2, simd128) give the pinned bits on every target") {
  for (Isa isa : test::portable_128_isas()) check_pins(isa);
}

TEST_CASE("batched gemm: the scalar level gives the pinned bits on every target") {
  check_pins(Isa::kScalar);
}

}  // namespace
}  // namespace tessera
