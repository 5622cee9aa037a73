// Cross-target bits (issue 4): the two 128-bit levels (SSE2 natively,
// SIMD128 in wasm) use the same tiles, the same fixed blocking table and the
// same operation order (multiply, then add), so the same inputs give the
// same output bits on every target; so does the scalar level (fixed
// blocking, unfused), which in fact matches them bit for bit. One build cannot run another, so the meeting point is
// a pinned hash (FNV-1a 64 of the output bits): the values below were
// produced by native x86-64 SSE2 and scalar runs, and every target that has
// the level must reproduce them. A deliberate change of the 128-bit or
// scalar arithmetic (tiles, kc, operation order) changes them on every
// target at once and must update the pins; any other difference is a broken
// contract. Inputs and hash are those of `tessera-cli gemm M N K --hash`
// (cli/seeded_inputs.hpp, one copy for both), so the pins also guard
// the generator the CLI's hashes depend on.
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

struct Case {
  Layout layout;
  Transpose ta, tb;
  std::int64_t m, n, k;
  double alpha, beta;
};

// Depth 300 crosses the fixed kc of 256; edges of the 6 x 8 / 6 x 4 / 4 x 4
// tiles in every dimension.
const Case kCases[] = {
    {Layout::kRowMajor, Transpose::kNo, Transpose::kNo, 131, 67, 300, 0.75, -0.5},
    {Layout::kColMajor, Transpose::kYes, Transpose::kYes, 45, 90, 77, -1.0, 0.0},
};

template <class T>
std::uint64_t output_hash(const Context& context, const Case& c) {
  std::vector<T> a(static_cast<std::size_t>(c.m * c.k)), b(static_cast<std::size_t>(c.k * c.n)),
      out(static_cast<std::size_t>(c.m * c.n));
  cli::fill_seeded(a.data(), a.size(), 7, 1);
  cli::fill_seeded(b.data(), b.size(), 7, 2);
  cli::fill_seeded(out.data(), out.size(), 7, 3);
  const bool row = c.layout == Layout::kRowMajor;
  const std::int64_t a_cols = (c.ta == Transpose::kNo) == row ? c.k : c.m;
  const std::int64_t b_cols = (c.tb == Transpose::kNo) == row ? c.n : c.k;
  const std::int64_t ldc = row ? c.n : c.m;
  const Status s = try_gemm(context, c.layout, c.ta, c.tb, c.m, c.n, c.k, static_cast<T>(c.alpha),
                            a.data(), a_cols, b.data(), b_cols, static_cast<T>(c.beta), out.data(),
                            ldc);
  REQUIRE_MESSAGE(s.ok(), s.to_string());
  return cli::fnv1a64(out.data(), out.size() * sizeof(T));
}

// Pinned hashes, per case: {f32, f64}. Scalar, SSE2 and SIMD128 share them:
// all three run the unfused per-element sequence with kc = 256, so they
// agree bit for bit with each other, not only across targets.
constexpr std::uint64_t kPortablePins[][2] = {
    {0x132aa5346af80f93ull, 0xd690fa04b956c0f5ull},
    {0x711b754132cee1eaull, 0x74e14241d4918ed3ull},
};

void check_pins(Isa isa, const std::uint64_t (*pins)[2]) {
  const Context context = test::context_for(isa);
  for (std::size_t i = 0; i < sizeof kCases / sizeof kCases[0]; ++i) {
    const std::uint64_t f32 = output_hash<float>(context, kCases[i]);
    const std::uint64_t f64 = output_hash<double>(context, kCases[i]);
    char text[128];
    std::snprintf(text, sizeof text, "case %zu on %s: f32 %016" PRIx64 ", f64 %016" PRIx64, i,
                  isa_name(isa), f32, f64);
    CHECK_MESSAGE(f32 == pins[i][0], text);
    CHECK_MESSAGE(f64 == pins[i][1], text);
  }
}

TEST_CASE("the 128-bit levels (sse2, simd128) give the pinned bits on every target") {
  for (Isa isa : test::portable_128_isas()) check_pins(isa, kPortablePins);
}

TEST_CASE("the scalar level gives the pinned bits on every target") {
  check_pins(Isa::kScalar, kPortablePins);
}

}  // namespace
}  // namespace tessera
