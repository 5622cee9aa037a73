// dot of two f16 (or two bf16) vectors (tessera/half.hpp): on every level
// the host runs and the naive family, the bits of the f32 dot on the
// widened vectors on the same level, within the double reference's
// rounding bound; sizes around the dot block (4096), negative and
// non-unit increments; bit identity for every worker count; bad input
// named; the C API.
#include <cmath>
#include <cstring>
#include <memory>

#include "support/counting_executor.hpp"
#include "support/test_support.hpp"
#include "tessera/half.hpp"
#include "tessera/tessera.h"
#include "tests/core/gemm_test_util.hpp"

namespace tessera {
namespace {

enum class Format { kF16, kBf16 };
const char* format_name(Format f) { return f == Format::kF16 ? "f16" : "bf16"; }

// A strided vector's storage: n values of [-1, 1) at i * |inc|, rounded to
// the format (bits) and widened back (values), by the naive family.
struct HalfVector {
  std::vector<std::uint16_t> bits;
  std::vector<float> wide;
};

HalfVector make_vector(Format f, std::int64_t n, std::int64_t inc, std::uint64_t seed) {
  const std::size_t size = n == 0 ? 1 : static_cast<std::size_t>((n - 1) * std::llabs(inc) + 1);
  HalfVector v;
  v.wide = test::random_f32(size, seed);
  v.bits.resize(size);
  const Context naive = test::naive_context();
  if (f == Format::kF16) {
    auto* h = reinterpret_cast<f16*>(v.bits.data());
    REQUIRE(try_convert(naive, std::span<const float>(v.wide), std::span<f16>(h, size)).ok());
    REQUIRE(try_convert(naive, std::span<const f16>(h, size), std::span<float>(v.wide)).ok());
  } else {
    auto* h = reinterpret_cast<bf16*>(v.bits.data());
    REQUIRE(try_convert(naive, std::span<const float>(v.wide), std::span<bf16>(h, size)).ok());
    REQUIRE(try_convert(naive, std::span<const bf16>(h, size), std::span<float>(v.wide)).ok());
  }
  return v;
}

Status half_dot(const Context& context, Format f, std::int64_t n, const HalfVector& x,
                std::int64_t incx, const HalfVector& y, std::int64_t incy, float* result,
                Parallelism parallelism = {}) {
  if (f == Format::kF16) {
    return try_dot(context, n, reinterpret_cast<const f16*>(x.bits.data()), incx,
                   reinterpret_cast<const f16*>(y.bits.data()), incy, result, parallelism);
  }
  return try_dot(context, n, reinterpret_cast<const bf16*>(x.bits.data()), incx,
                 reinterpret_cast<const bf16*>(y.bits.data()), incy, result, parallelism);
}

bool same_bits(float a, float b) { return std::memcmp(&a, &b, sizeof a) == 0; }

TEST_CASE("half dot: the f32 dot's bits on the widened vectors, every level, sizes, strides") {
  const std::int64_t sizes[] = {0, 1, 7, 33, 4095, 4096, 4097, 3 * 4096 + 5};
  const std::int64_t incs[][2] = {{1, 1}, {-2, 3}};
  std::uint64_t seed = 3;
  for (const Context& context : test::contexts_under_test()) {
    const std::string level = test::level_label(context);
    for (Format f : {Format::kF16, Format::kBf16}) {
      for (std::int64_t n : sizes) {
        for (const auto& inc : incs) {
          const HalfVector x = make_vector(f, n, inc[0], ++seed);
          const HalfVector y = make_vector(f, n, inc[1], ++seed);
          float got = -1.0f, want = -2.0f;
          REQUIRE(half_dot(context, f, n, x, inc[0], y, inc[1], &got).ok());
          REQUIRE(try_dot(context, n, x.wide.data(), inc[0], y.wide.data(), inc[1], &want).ok());
          CHECK_MESSAGE(same_bits(got, want), level, " ", format_name(f), " n=", n, " incs ",
                        inc[0], ",", inc[1]);
          // |got - exact| <= 2 (n + 4) eps sum |x y|, exact in double.
          double exact = 0, magnitude = 0;
          for (std::int64_t i = 0; i < n; ++i) {
            const std::size_t ix = static_cast<std::size_t>(inc[0] > 0 ? i * inc[0] : (n - 1 - i) * -inc[0]);
            const std::size_t iy = static_cast<std::size_t>(inc[1] > 0 ? i * inc[1] : (n - 1 - i) * -inc[1]);
            const double p = static_cast<double>(x.wide[ix]) * static_cast<double>(y.wide[iy]);
            exact += p;
            magnitude += std::fabs(p);
          }
          const double bound = 2.0 * static_cast<double>(n + 4) * 0x1p-23 * magnitude + 1e-38;
          CHECK_MESSAGE(std::fabs(static_cast<double>(got) - exact) <= bound, level, " ",
                        format_name(f), " n=", n);
        }
      }
    }
  }
}

TEST_CASE("half dot: bit-identical for 1, 2, 3, 4, 7 and 8 workers on every level") {
  for (Isa isa : test::host_isas()) {
    auto counter = std::make_shared<test::CountingExecutor>(test::gemm::wide_executor(8));
    const Context context = test::split_context(isa, counter);
    for (Format f : {Format::kF16, Format::kBf16}) {
      const std::int64_t n = 9 * 4096 + 77;
      const HalfVector x = make_vector(f, n, 1, 41), y = make_vector(f, n, 1, 42);
      float one = 0.0f;
      REQUIRE(half_dot(context, f, n, x, 1, y, 1, &one, Parallelism::threads(1)).ok());
      for (int w : test::kWorkerCounts) {
        float got = 0.0f;
        REQUIRE(half_dot(context, f, n, x, 1, y, 1, &got, Parallelism::threads(w)).ok());
        CHECK_MESSAGE(same_bits(got, one), isa_name(isa), " ", format_name(f), " workers ", w);
      }
    }
    CHECK_MESSAGE(counter->multi_runs() >= 4, counter->multi_runs(), " split runs");
  }
}

TEST_CASE("half dot: bad input named; the C API") {
  const Context context;
  const std::uint16_t x[3] = {0x3C00, 0x4000, 0x4200};  // 1, 2, 3 in f16
  const std::uint16_t y[3] = {0x3C00, 0xBC00, 0x3C00};  // 1, -1, 1
  float r = 7.0f;
  Status s = try_dot(context, 3, reinterpret_cast<const f16*>(x), 0,
                     reinterpret_cast<const f16*>(y), 1, &r);
  CHECK(s.code() == StatusCode::kInvalidArgument);
  CHECK_MESSAGE(test::contains(s.message(), "incx"), s.message());
  s = try_dot(context, 3, reinterpret_cast<const f16*>(x), 1, reinterpret_cast<const f16*>(y), 1,
              nullptr);
  CHECK_MESSAGE(test::contains(s.message(), "result"), s.message());
  CHECK(r == 7.0f);
  REQUIRE(tsr_dot_f16(nullptr, 3, x, 1, y, 1, &r, 0) == TSR_OK);
  CHECK(r == 2.0f);
  // 1, 2, 3 and 1, -1, 1 in bf16.
  const std::uint16_t bx[3] = {0x3F80, 0x4000, 0x4040};
  const std::uint16_t by[3] = {0x3F80, 0xBF80, 0x3F80};
  REQUIRE(tsr_dot_bf16(nullptr, 3, bx, -1, by, 1, &r, 0) == TSR_OK);
  CHECK(r == 2.0f);  // 3*1 - 2 + 1
  CHECK(tsr_dot_bf16(nullptr, 3, nullptr, 1, by, 1, &r, 0) == TSR_INVALID_ARGUMENT);
}

}  // namespace
}  // namespace tessera
