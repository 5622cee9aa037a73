// Cross-target agreement of dot and gemv (issue 10): SSE2 natively and
// SIMD128 in wasm run the same kernel bodies with the same lane counts and
// the same unfused multiply-then-add, so the same inputs must give the same
// output bits on every target. One build cannot run another, so the meeting
// point is a pinned hash (FNV-1a 64 of the output bits). The values below
// were produced by running this code natively (x86-64, TESSERA_ISA=sse2 and
// scalar) and then checked identical under WASI and Emscripten (SIMD128 and
// scalar): an agreement test across targets, not a value derived by hand.
// A deliberate change of the kernels' operation order changes them on every
// target at once and must update the pins; any other difference is a broken
// contract. Inputs are those of `tessera-cli dot|gemv --hash`
// (cli/blas1_seeded.hpp), so what is pinned is what the CLI prints.
#include <doctest/doctest.h>

#include <cinttypes>
#include <cstdio>

#include "cli/blas1_seeded.hpp"
#include "support/test_support.hpp"

namespace tessera {
namespace {

// {dot n = 100003 (crosses 24 fixed blocks), gemv 131 x 300 row-major N
// (rows form), gemv 300 x 131 row-major T (columns form)} x {f32, f64}.
template <class T>
void hashes(const Context& context, std::uint64_t out[3]) {
  const cli::SeededDot<T> d(100003, 1, 1, 7);
  T result = 0;
  REQUIRE(d.run(context, &result).ok());
  out[0] = cli::fnv1a64(&result, sizeof result);
  const cli::SeededGemv<T> rows(Layout::kRowMajor, Transpose::kNo, 131, 300, 1, 1, 7);
  std::vector<T> y = rows.y;
  REQUIRE(rows.run(context, y.data()).ok());
  out[1] = cli::fnv1a64(y.data(), y.size() * sizeof(T));
  const cli::SeededGemv<T> cols(Layout::kRowMajor, Transpose::kYes, 300, 131, 1, 1, 7);
  y = cols.y;
  REQUIRE(cols.run(context, y.data()).ok());
  out[2] = cli::fnv1a64(y.data(), y.size() * sizeof(T));
}

void check_pins(Isa isa, const std::uint64_t (&pins)[2][3]) {
  const Context context = test::context_for(isa);
  std::uint64_t got[2][3];
  hashes<float>(context, got[0]);
  hashes<double>(context, got[1]);
  for (int t = 0; t < 2; ++t) {
    for (int c = 0; c < 3; ++c) {
      char text[128];
      std::snprintf(text, sizeof text, "%s %s case %d: %016" PRIx64, isa_name(isa),
                    t == 0 ? "f32" : "f64", c, got[t][c]);
      CHECK_MESSAGE(got[t][c] == pins[t][c], text);
    }
  }
}

// SSE2 and SIMD128 (4 f32 / 2 f64 lanes, multiply then add).
constexpr std::uint64_t k128Pins[2][3] = {
    {0xbb80702d99aa802dull, 0x5493eaf20e86fc57ull, 0x6cd20eab189d40fcull},
    {0x9b326c4c0d7e5f56ull, 0x4e0b17ace9dbd885ull, 0x064f2350e82a1b7dull},
};
// The scalar level (one lane, multiply then add): the same on every target.
// The columns form sums each element in column order on every level, so its
// f32 pin is the 128-bit one; the f64 sums of 12-bit inputs are exact, so
// those pins are shared too (they still guard the inputs and the epilogue).
constexpr std::uint64_t kScalarPins[2][3] = {
    {0x7d879754d978bb63ull, 0x6c4a0defa9440348ull, 0x6cd20eab189d40fcull},
    {0x9b326c4c0d7e5f56ull, 0x4e0b17ace9dbd885ull, 0x064f2350e82a1b7dull},
};

TEST_CASE("dot and gemv: the 128-bit levels (sse2, simd128) give the pinned bits on every target") {
  for (Isa isa : test::portable_128_isas()) check_pins(isa, k128Pins);
}

TEST_CASE("dot and gemv: the scalar level gives the pinned bits on every target") {
  check_pins(Isa::kScalar, kScalarPins);
}

}  // namespace
}  // namespace tessera
