// f32 <-> f16 and f32 <-> bf16 conversions (tessera/half.hpp): every level
// the host runs against the naive family (double arithmetic, not bits) on
// all 2^16 half values and a dense f32 sweep (every 16-bit upper half with
// the low patterns where rounding turns, and the f16 subnormal range with
// its ties), hand-derived values, tails and misaligned starts, bit identity
// across worker counts, the scalar to_f16/to_float, the C API and bad input.
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>

#include "core/src/simd/half_bits.hpp"
#include "support/counting_executor.hpp"
#include "support/test_support.hpp"
#include "tessera/half.hpp"
#include "tessera/tessera.h"
#include "tests/core/gemm_test_util.hpp"

namespace tessera {
namespace {

std::vector<float> floats_of(const std::vector<std::uint32_t>& bits) {
  std::vector<float> x(bits.size());
  for (std::size_t i = 0; i < bits.size(); ++i) x[i] = half::float_of(bits[i]);
  return x;
}

std::vector<std::uint32_t> bits_of(const std::vector<float>& x) {
  std::vector<std::uint32_t> b(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) b[i] = half::bits_of(x[i]);
  return b;
}

// Every 16-bit upper half with low halves around each format's rounding
// point (bf16: bit 15; f16 normals: bit 12), and ones beside them.
std::vector<std::uint32_t> dense_f32_sweep() {
  static constexpr std::uint32_t kLow[] = {0x0000, 0x0001, 0x0FFF, 0x1000, 0x1001, 0x1FFF,
                                           0x2000, 0x3000, 0x7FFF, 0x8000, 0x8001, 0xFFFF};
  std::vector<std::uint32_t> bits;
  const bool slow = test::gemm::slow_target();
  for (std::uint32_t hi = 0; hi < 0x10000; hi += slow ? 3 : 1) {
    for (std::uint32_t lo : kLow) bits.push_back(hi << 16 | lo);
  }
  // The f16 subnormal range (2^-25 .. 2^-14), where the rounding point
  // moves with the exponent: ties, their neighbours and random mantissas,
  // both signs.
  test::Rng rng(7);
  for (std::uint32_t e = 100; e <= 113; ++e) {
    const std::uint32_t shift = e <= 126 ? 126 - e : 0;
    for (int i = 0; i < (slow ? 256 : 2048); ++i) {
      const auto m = static_cast<std::uint32_t>(rng.next()) & 0x7FFFFFu;
      bits.push_back(e << 23 | m);
      if (shift >= 1 && shift <= 24) {
        const std::uint32_t tie = ((m | 0x800000u) >> shift << shift | (1u << (shift - 1))) & 0x7FFFFFu;
        for (std::uint32_t t : {tie - 1, tie, tie + 1}) {
          bits.push_back(e << 23 | (t & 0x7FFFFFu));
          bits.push_back(0x80000000u | e << 23 | (t & 0x7FFFFFu));
        }
      }
    }
  }
  // NaN payloads (quiet and signalling) and random patterns.
  for (int i = 0; i < 4096; ++i) {
    const auto r = static_cast<std::uint32_t>(rng.next());
    bits.push_back(r);
    bits.push_back((r & 0x807FFFFFu) | 0x7F800000u);
  }
  return bits;
}

std::vector<std::uint16_t> all_halves() {
  std::vector<std::uint16_t> h(0x10000);
  for (std::uint32_t i = 0; i < 0x10000; ++i) h[i] = static_cast<std::uint16_t>(i);
  return h;
}

// "0x7e00": doctest formats each message argument on a stream of its own,
// where a hex manipulator would not reach the next argument.
std::string hex(std::uint64_t v) {
  char text[24];
  std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(v));
  return text;
}

enum class Format { kF16, kBf16 };
const char* format_name(Format f) { return f == Format::kF16 ? "f16" : "bf16"; }

std::vector<std::uint16_t> narrow(const Context& context, Format f, const std::vector<float>& x,
                                  Parallelism parallelism = {}) {
  std::vector<std::uint16_t> y(x.size(), 0xABCD);
  Status status;
  if (f == Format::kF16) {
    status = try_convert(context, std::span<const float>(x),
                         std::span<f16>(reinterpret_cast<f16*>(y.data()), y.size()), parallelism);
  } else {
    status = try_convert(context, std::span<const float>(x),
                         std::span<bf16>(reinterpret_cast<bf16*>(y.data()), y.size()), parallelism);
  }
  REQUIRE_MESSAGE(status.ok(), status.to_string());
  return y;
}

std::vector<std::uint32_t> widen(const Context& context, Format f,
                                 const std::vector<std::uint16_t>& x,
                                 Parallelism parallelism = {}) {
  std::vector<float> y(x.size(), 123.0f);
  Status status;
  if (f == Format::kF16) {
    status = try_convert(context,
                         std::span<const f16>(reinterpret_cast<const f16*>(x.data()), x.size()),
                         std::span<float>(y), parallelism);
  } else {
    status = try_convert(context,
                         std::span<const bf16>(reinterpret_cast<const bf16*>(x.data()), x.size()),
                         std::span<float>(y), parallelism);
  }
  REQUIRE_MESSAGE(status.ok(), status.to_string());
  return bits_of(y);
}

// The first index where a and b differ, or -1.
template <class T>
std::int64_t first_difference(const std::vector<T>& a, const std::vector<T>& b) {
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i] != b[i]) return static_cast<std::int64_t>(i);
  }
  return -1;
}

TEST_CASE("half conversions: hand-derived values on every level and the naive family") {
  struct Case {
    std::uint32_t f32;
    std::uint16_t f16;
    std::uint16_t bf16;
  };
  // f32 bits, then the f16 and bf16 bits worked out by hand from the
  // formats (1 sign, 5 or 8 exponent, 10 or 7 mantissa bits).
  static constexpr Case kCases[] = {
      {0x00000000, 0x0000, 0x0000},  // +0
      {0x80000000, 0x8000, 0x8000},  // -0
      {0x3F800000, 0x3C00, 0x3F80},  // 1
      {0xC0000000, 0xC000, 0xC000},  // -2
      {0x477FE000, 0x7BFF, 0x4780},  // 65504: f16's largest; bf16 rounds up to 65536
      {0x477FF000, 0x7C00, 0x4780},  // 65520: a tie above 65504 (odd): f16 infinity
      {0x477FEFFF, 0x7BFF, 0x4780},  // just below it
      {0x33800000, 0x0001, 0x3380},  // 2^-24: f16's smallest subnormal
      {0x33000000, 0x0000, 0x3300},  // 2^-25: a tie between 0 and 2^-24: even, 0
      {0x33000001, 0x0001, 0x3300},  // just above it
      {0x33400000, 0x0001, 0x3340},  // 3 * 2^-26 = 0.75 units
      {0x38800000, 0x0400, 0x3880},  // 2^-14: f16's smallest normal
      {0x387FFFFF, 0x0400, 0x3880},  // just below it: rounds up to it
      {0x3F801000, 0x3C00, 0x3F80},  // 1 + 2^-11: f16 tie, even (down)
      {0x3F803000, 0x3C02, 0x3F80},  // 1 + 3 * 2^-11: f16 tie, even (up)
      {0x3F808000, 0x3C04, 0x3F80},  // 1 + 2^-8: bf16 tie, even (down)
      {0x3F818000, 0x3C0C, 0x3F82},  // 1 + 3 * 2^-8: bf16 tie, even (up)
      {0x7F7FFFFF, 0x7C00, 0x7F80},  // FLT_MAX: infinity in both
      {0x00000001, 0x0000, 0x0000},  // f32's smallest subnormal
      {0x00008000, 0x0000, 0x0000},  // bf16 subnormal tie: even, 0
      {0x00018000, 0x0000, 0x0002},  // bf16 subnormal tie: even, up
      {0x80400000, 0x8000, 0x8040},  // -2^-127: a bf16 subnormal, exact
      {0x7F800000, 0x7C00, 0x7F80},  // +inf
      {0xFF800000, 0xFC00, 0xFF80},  // -inf
      {0x7FC00000, 0x7E00, 0x7FC0},  // quiet NaN
      {0x7F800001, 0x7E00, 0x7FC0},  // signalling NaN, payload below both formats': quieted
      {0x7FA00000, 0x7F00, 0x7FE0},  // signalling NaN with payload bit 21: kept, quieted
      {0xFFFFFFFF, 0xFFFF, 0xFFFF},  // negative NaN, every payload bit
  };
  std::vector<std::uint32_t> in;
  for (const Case& c : kCases) in.push_back(c.f32);
  const std::vector<float> x = floats_of(in);
  for (const Context& context : test::contexts_under_test()) {
    const std::vector<std::uint16_t> h = narrow(context, Format::kF16, x);
    const std::vector<std::uint16_t> b = narrow(context, Format::kBf16, x);
    for (std::size_t i = 0; i < in.size(); ++i) {
      CHECK_MESSAGE(h[i] == kCases[i].f16, test::level_label(context), " f16 of ",
                    hex(kCases[i].f32), ": ", hex(h[i]));
      CHECK_MESSAGE(b[i] == kCases[i].bf16, test::level_label(context), " bf16 of ",
                    hex(kCases[i].f32), ": ", hex(b[i]));
    }
  }
  // The scalar forms give the same.
  for (const Case& c : kCases) {
    CHECK(to_f16(half::float_of(c.f32)).bits == c.f16);
    CHECK(to_bf16(half::float_of(c.f32)).bits == c.bf16);
  }
}

TEST_CASE("half conversions: widening, hand-derived values") {
  struct Case {
    std::uint16_t h;
    std::uint32_t from_f16;
    std::uint32_t from_bf16;
  };
  static constexpr Case kCases[] = {
      {0x0000, 0x00000000, 0x00000000}, {0x8000, 0x80000000, 0x80000000},
      {0x3C00, 0x3F800000, 0x3C000000},  // f16 1; bf16 2^-7
      {0x0001, 0x33800000, 0x00010000},  // 2^-24; bf16: an f32 subnormal
      {0x03FF, 0x387FC000, 0x03FF0000},  // 1023 * 2^-24
      {0x0400, 0x38800000, 0x04000000},  // 2^-14
      {0x7BFF, 0x477FE000, 0x7BFF0000},  // 65504
      {0x7C00, 0x7F800000, 0x7C000000},  // f16 +inf; bf16 a normal
      {0x7C01, 0x7FC02000, 0x7C010000},  // f16 signalling NaN: quieted, payload kept
      {0xFE00, 0xFFC00000, 0xFE000000},  // f16 -qNaN
      {0x7F80, 0x7FF00000, 0x7F800000},  // f16 qNaN with payload; bf16 +inf
      {0x7F81, 0x7FF02000, 0x7FC10000},  // bf16 signalling NaN: quieted
      {0xFFC1, 0xFFF82000, 0xFFC10000},
  };
  std::vector<std::uint16_t> in;
  for (const Case& c : kCases) in.push_back(c.h);
  for (const Context& context : test::contexts_under_test()) {
    const std::vector<std::uint32_t> a = widen(context, Format::kF16, in);
    const std::vector<std::uint32_t> b = widen(context, Format::kBf16, in);
    for (std::size_t i = 0; i < in.size(); ++i) {
      CHECK_MESSAGE(a[i] == kCases[i].from_f16, test::level_label(context), " f16 ", hex(in[i]),
                    ": ", hex(a[i]));
      CHECK_MESSAGE(b[i] == kCases[i].from_bf16, test::level_label(context), " bf16 ",
                    hex(in[i]), ": ", hex(b[i]));
    }
  }
  for (const Case& c : kCases) {
    CHECK(half::bits_of(to_float(f16{c.h})) == c.from_f16);
    CHECK(half::bits_of(to_float(bf16{c.h})) == c.from_bf16);
  }
}

TEST_CASE("half conversions: all 2^16 values and a dense f32 sweep, every level = naive") {
  const std::vector<std::uint16_t> halves = all_halves();
  const std::vector<float> sweep = floats_of(dense_f32_sweep());
  const Context naive = test::naive_context();
  for (Format f : {Format::kF16, Format::kBf16}) {
    const std::vector<std::uint32_t> wide_ref = widen(naive, f, halves);
    const std::vector<std::uint16_t> narrow_ref = narrow(naive, f, sweep);
    // Widening then narrowing gives back every value but NaNs' quiet bit.
    const std::vector<std::uint16_t> round_trip = narrow(naive, f, floats_of(wide_ref));
    for (std::uint32_t i = 0; i < 0x10000; ++i) {
      const bool nan = f == Format::kF16 ? (i & 0x7FFF) > 0x7C00 : (i & 0x7FFF) > 0x7F80;
      const std::uint16_t quiet = f == Format::kF16 ? 0x0200 : 0x0040;
      const auto expected = static_cast<std::uint16_t>(nan ? i | quiet : i);
      if (round_trip[i] != expected) {
        FAIL_CHECK(format_name(f), " round trip of ", hex(i), ": ", hex(round_trip[i]));
        break;
      }
    }
    for (Isa isa : test::host_isas()) {
      const Context context = test::context_for(isa);
      const std::int64_t w = first_difference(widen(context, f, halves), wide_ref);
      CHECK_MESSAGE(w < 0, isa_name(isa), " widening ", format_name(f), " of ",
                    hex(w < 0 ? 0 : halves[static_cast<std::size_t>(w)]));
      const std::vector<std::uint16_t> got = narrow(context, f, sweep);
      const std::int64_t d = first_difference(got, narrow_ref);
      const std::size_t at = d < 0 ? 0 : static_cast<std::size_t>(d);
      CHECK_MESSAGE(d < 0, isa_name(isa), " narrowing to ", format_name(f), " of f32 ",
                    hex(bits_of(sweep)[at]), ": ", hex(got[at]), " (naive ", hex(narrow_ref[at]),
                    ")");
    }
  }
}

TEST_CASE("half conversions: every length and misaligned start (register body and tail)") {
  const std::vector<float> x = test::random_f32(200, 11, -70000.0f, 70000.0f);
  const std::vector<std::uint16_t> h = narrow(test::naive_context(), Format::kF16, x);
  for (const Context& context : test::contexts_under_test()) {
    for (Format f : {Format::kF16, Format::kBf16}) {
      for (std::size_t offset : {0, 1, 3}) {
        for (std::size_t n = 0; n <= 67; ++n) {
          std::vector<float> in(x.begin() + offset, x.begin() + offset + n);
          std::vector<std::uint16_t> hin(h.begin() + offset, h.begin() + offset + n);
          const std::vector<std::uint16_t> ref = narrow(test::naive_context(), f, in);
          CHECK_MESSAGE(narrow(context, f, in) == ref, test::level_label(context), " ",
                        format_name(f), " n=", n, " offset ", offset);
          CHECK_MESSAGE(widen(context, f, hin) == widen(test::naive_context(), f, hin),
                        test::level_label(context), " ", format_name(f), " n=", n);
        }
      }
    }
  }
}

TEST_CASE("half conversions: bit-identical for 1, 2, 3, 4, 7 and 8 workers on every level") {
  const std::size_t n = test::gemm::slow_target() ? 40000 : 300007;
  const std::vector<float> x = test::random_f32(n, 5, -1e5f, 1e5f);
  for (Isa isa : test::host_isas()) {
    auto counter = std::make_shared<test::CountingExecutor>(test::gemm::wide_executor(8));
    const Context context = test::split_context(isa, counter);
    for (Format f : {Format::kF16, Format::kBf16}) {
      const std::vector<std::uint16_t> one = narrow(context, f, x, Parallelism::threads(1));
      const std::vector<std::uint32_t> back = widen(context, f, one, Parallelism::threads(1));
      for (int w : test::kWorkerCounts) {
        CHECK_MESSAGE(narrow(context, f, x, Parallelism::threads(w)) == one, isa_name(isa), " ",
                      format_name(f), " workers ", w);
        CHECK_MESSAGE(widen(context, f, one, Parallelism::threads(w)) == back, isa_name(isa),
                      " ", format_name(f), " workers ", w);
      }
    }
    CHECK_MESSAGE(counter->multi_runs() >= 16, counter->multi_runs(), " split runs");
  }
}

TEST_CASE("half conversions: bad input is an error naming the argument, y untouched") {
  const Context context;
  std::vector<float> x(10, 1.0f);
  std::vector<f16> y(9, f16{0x1234});
  Status s = try_convert(context, std::span<const float>(x), std::span<f16>(y));
  CHECK(s.code() == StatusCode::kInvalidArgument);
  CHECK_MESSAGE(test::contains(s.message(), "y has 9 elements but x has 10"), s.message());
  CHECK(y[0].bits == 0x1234);
  // y overlapping x.
  std::vector<std::uint16_t> buffer(40, 0x3C00);
  s = try_convert(context,
                  std::span<const bf16>(reinterpret_cast<const bf16*>(buffer.data()), 10),
                  std::span<float>(reinterpret_cast<float*>(buffer.data() + 2), 10));
  CHECK(s.code() == StatusCode::kInvalidArgument);
  CHECK_MESSAGE(test::contains(s.message(), "y overlaps x"), s.message());
  CHECK(buffer[2] == 0x3C00);
  // Empty: nothing to do, no error.
  CHECK(try_convert(context, std::span<const float>(), std::span<f16>()).ok());
}

TEST_CASE("half conversions: the C API") {
  const float x[5] = {1.0f, -2.5f, 65520.0f, 1e-8f, 0.333333343f};
  std::uint16_t h[5] = {};
  std::uint16_t b[5] = {};
  REQUIRE(tsr_convert_f32_to_f16(nullptr, x, 5, h, 0) == TSR_OK);
  REQUIRE(tsr_convert_f32_to_bf16(nullptr, x, 5, b, -1) == TSR_OK);
  const std::uint16_t want_h[5] = {0x3C00, 0xC100, 0x7C00, 0x0000, 0x3555};
  const std::uint16_t want_b[5] = {0x3F80, 0xC020, 0x4780, 0x322C, 0x3EAB};
  for (int i = 0; i < 5; ++i) {
    CHECK_MESSAGE(h[i] == want_h[i], i, ": ", hex(h[i]));
    CHECK_MESSAGE(b[i] == want_b[i], i, ": ", hex(b[i]));
  }
  float back[5] = {};
  REQUIRE(tsr_convert_f16_to_f32(nullptr, h, 5, back, 2) == TSR_OK);
  CHECK(back[0] == 1.0f);
  CHECK(back[1] == -2.5f);
  REQUIRE(tsr_convert_bf16_to_f32(nullptr, b, 5, back, 0) == TSR_OK);
  CHECK(back[1] == -2.5f);
  CHECK(back[2] == 65536.0f);
  CHECK(tsr_convert_f32_to_f16(nullptr, nullptr, 3, h, 0) == TSR_INVALID_ARGUMENT);
  CHECK(test::contains(tsr_last_error_message(), "x is null"));
  CHECK(tsr_convert_bf16_to_f32(nullptr, b, 3, nullptr, 0) == TSR_INVALID_ARGUMENT);
  CHECK(test::contains(tsr_last_error_message(), "y is null"));
  CHECK(tsr_convert_f16_to_f32(nullptr, nullptr, 0, nullptr, 0) == TSR_OK);
}

TEST_CASE("inventory lists the conversions for the naive family and every level") {
  const Context context;
  for (const char* dtype : {"f32<->f16", "f32<->bf16"}) {
    bool naive = false;
    int levels = 0;
    for (const KernelRecord& r : kernel_inventory(context)) {
      if (std::string(r.op) != "convert" || std::string(r.dtype) != dtype) continue;
      if (r.family == KernelFamily::kNaive) naive = true;
      if (r.family == KernelFamily::kOptimized) ++levels;
    }
    CHECK_MESSAGE(naive, dtype);
    CHECK_MESSAGE(levels >= 1, dtype);
  }
}

}  // namespace
}  // namespace tessera
