// Cross-target agreement of the last-axis reductions (issue 10): SSE2
// natively and SIMD128 in wasm run the same kernel bodies with the same lane
// counts and the same operation order, so the same input must give the
// same output bits on every target. The meeting point is a pinned hash
// (FNV-1a 64 of the output bits). The values below were produced by running
// this code natively (x86-64, TESSERA_ISA=sse2 and scalar) and then checked
// identical under WASI and Emscripten (SIMD128 and scalar): an agreement
// test across targets, not a value derived by hand. The input is that of
// `tessera-cli reduce --hash` (cli/reduce_seeded.hpp), so what is
// pinned is what the CLI prints.
#include <doctest/doctest.h>

#include <cinttypes>
#include <cstdio>

#include "cli/reduce_seeded.hpp"
#include "support/test_support.hpp"

namespace tessera {
namespace {

// 5 rows x 9001 columns (three blocks, the last partial), seed 7:
// {sum, max, mean, argmax} x {f32, f64}.
constexpr std::int64_t kRows = 5, kCols = 9001;

template <class T>
void hashes(const Context& context, std::uint64_t out[4]) {
  const cli::SeededRows<T> in(kRows, kCols, 7);
  std::vector<T> values(kRows);
  int i = 0;
  for (ReduceOp op : {ReduceOp::kSum, ReduceOp::kMax, ReduceOp::kMean}) {
    REQUIRE(try_reduce(context, op, in.rows, in.cols, in.x.data(), in.ld, values.data()).ok());
    out[i++] = cli::fnv1a64(values.data(), values.size() * sizeof(T));
  }
  std::vector<std::int64_t> index(kRows);
  REQUIRE(try_argmax(context, in.rows, in.cols, in.x.data(), in.ld, index.data()).ok());
  out[3] = cli::fnv1a64(index.data(), index.size() * sizeof(std::int64_t));
}

// softmax and log-softmax of the same input: the whole y buffer (ld = cols
// + 3, padding left zero).
template <class T>
void softmax_hashes(const Context& context, std::uint64_t out[2]) {
  const cli::SeededRows<T> in(kRows, kCols, 7);
  for (int log = 0; log < 2; ++log) {
    std::vector<T> y(in.x.size(), T(0));
    const Status status =
        log ? try_log_softmax(context, in.rows, in.cols, in.x.data(), in.ld, y.data(), in.ld)
            : try_softmax(context, in.rows, in.cols, in.x.data(), in.ld, y.data(), in.ld);
    REQUIRE_MESSAGE(status.ok(), status.to_string());
    out[log] = cli::fnv1a64(y.data(), y.size() * sizeof(T));
  }
}

void check_softmax_pins(Isa isa, const std::uint64_t (&pins)[2][2]) {
  const Context context = test::context_for(isa);
  std::uint64_t got[2][2];
  softmax_hashes<float>(context, got[0]);
  softmax_hashes<double>(context, got[1]);
  for (int t = 0; t < 2; ++t) {
    for (int c = 0; c < 2; ++c) {
      char text[128];
      std::snprintf(text, sizeof text, "%s %s %s: 0x%016" PRIx64 "ull", isa_name(isa),
                    t == 0 ? "f32" : "f64", c == 0 ? "softmax" : "log_softmax", got[t][c]);
      CHECK_MESSAGE(got[t][c] == pins[t][c], text);
    }
  }
}

void check_pins(Isa isa, const std::uint64_t (&pins)[2][4]) {
  const Context context = test::context_for(isa);
  std::uint64_t got[2][4];
  hashes<float>(context, got[0]);
  hashes<double>(context, got[1]);
  for (int t = 0; t < 2; ++t) {
    for (int c = 0; c < 4; ++c) {
      char text[128];
      std::snprintf(text, sizeof text, "%s %s case %d: 0x%016" PRIx64 "ull", isa_name(isa),
                    t == 0 ? "f32" : "f64", c, got[t][c]);
      CHECK_MESSAGE(got[t][c] == pins[t][c], text);
    }
  }
}

// SSE2 and SIMD128 (4 f32 / 2 f64 lanes).
constexpr std::uint64_t k128Pins[2][4] = {
    {0xb9febf7968fa4b6eull, 0xd78e267a9b7937f7ull, 0x00f873859be8ff56ull, 0x795b465c7fc60243ull},
    {0x261310fe770e5065ull, 0x37823d05378ca584ull, 0x790fdc6ccd2b2f1bull, 0x795b465c7fc60243ull},
};
// The scalar level (one lane): the same on every target. max and argmax
// are exact, so their pins are the 128-bit ones; the sums round differently.
constexpr std::uint64_t kScalarPins[2][4] = {
    {0xdc218fc29975181eull, 0xd78e267a9b7937f7ull, 0x4fe4d488a023208aull, 0x795b465c7fc60243ull},
    {0x80e7dd1139096177ull, 0x37823d05378ca584ull, 0x916ba5aa31ff162cull, 0x795b465c7fc60243ull},
};

// {softmax, log_softmax} x {f32, f64}: vexp / vlog of core/src/simd/vmath.hpp
// use only trait operations, so they are pinned like the sums. The
// exponentials' lanes are summed by simd/lane_sum.hpp's halving tree (the
// f32 softmax pin changed when that replaced a lane-by-lane sum).
constexpr std::uint64_t k128SoftmaxPins[2][2] = {
    {0x87fdc8f22f3158c7ull, 0x06afd1e2acde6c12ull},
    {0x8411be987af998b2ull, 0x69ad03542438a605ull},
};
// The f64 log-softmax pin is shared: its rows' log-sums happen to round alike.
constexpr std::uint64_t kScalarSoftmaxPins[2][2] = {
    {0xf09b5cbe97212ae2ull, 0xc6fd98a830d8b49bull},
    {0x393313603c04eb34ull, 0x69ad03542438a605ull},
};

TEST_CASE("softmax: the 128-bit levels (sse2, simd128) give the pinned bits on every target") {
  for (Isa isa : test::portable_128_isas()) check_softmax_pins(isa, k128SoftmaxPins);
}

TEST_CASE("softmax: the scalar level gives the pinned bits on every target") {
  check_softmax_pins(Isa::kScalar, kScalarSoftmaxPins);
}

TEST_CASE("reduce: the 128-bit levels (sse2, simd128) give the pinned bits on every target") {
  for (Isa isa : test::portable_128_isas()) check_pins(isa, k128Pins);
}

TEST_CASE("reduce: the scalar level gives the pinned bits on every target") {
  check_pins(Isa::kScalar, kScalarPins);
}

}  // namespace
}  // namespace tessera
