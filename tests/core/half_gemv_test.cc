// gemv with A in f16 or bf16 (tessera/half.hpp): on every level the host
// runs and the naive family, the bits of the f32 gemv on the widened A
// (try_convert) on the same level, within the long-double reference's
// rounding bound, for both layouts, both transposes, padded lda, negative
// and non-unit increments, alpha and beta (0 included), edge sizes; bit
// identity for every worker count; bad input named; the C API.
#include <cstring>
#include <memory>

#include "support/counting_executor.hpp"
#include "support/test_support.hpp"
#include "tessera/half.hpp"
#include "tessera/tessera.h"
#include "tests/core/blas1_test_util.hpp"
#include "tests/core/gemm_test_util.hpp"

namespace tessera {
namespace {

using test::blas1::GemvOperands;
using test::blas1::GemvShape;

enum class Format { kF16, kBf16 };
const char* format_name(Format f) { return f == Format::kF16 ? "f16" : "bf16"; }

// A's values in the half format (bits), and the f32 operands with A
// replaced by those values widened.
struct HalfGemv {
  std::vector<std::uint16_t> a;
  GemvOperands<float> widened;
};

HalfGemv make_half_gemv(Format f, const GemvShape& s, std::uint64_t seed) {
  const Context naive = test::naive_context();
  HalfGemv h;
  h.widened = test::blas1::make_gemv<float>(s, seed);
  h.a.resize(h.widened.a.size());
  auto* bits = reinterpret_cast<f16*>(h.a.data());
  if (f == Format::kF16) {
    REQUIRE(try_convert(naive, std::span<const float>(h.widened.a), std::span<f16>(bits, h.a.size())).ok());
    REQUIRE(try_convert(naive, std::span<const f16>(bits, h.a.size()), std::span<float>(h.widened.a)).ok());
  } else {
    auto* b = reinterpret_cast<bf16*>(h.a.data());
    REQUIRE(try_convert(naive, std::span<const float>(h.widened.a), std::span<bf16>(b, h.a.size())).ok());
    REQUIRE(try_convert(naive, std::span<const bf16>(b, h.a.size()), std::span<float>(h.widened.a)).ok());
  }
  return h;
}

Status run_half_gemv(const Context& context, Format f, const GemvShape& s, const HalfGemv& h,
                     std::vector<float>* y, Parallelism parallelism = {}) {
  *y = h.widened.y;
  if (f == Format::kF16) {
    return try_gemv(context, s.layout, s.trans, s.m, s.n, static_cast<float>(s.alpha),
                    reinterpret_cast<const f16*>(h.a.data()), s.lda(), h.widened.x.data(), s.incx,
                    static_cast<float>(s.beta), y->data(), s.incy, parallelism);
  }
  return try_gemv(context, s.layout, s.trans, s.m, s.n, static_cast<float>(s.alpha),
                  reinterpret_cast<const bf16*>(h.a.data()), s.lda(), h.widened.x.data(), s.incx,
                  static_cast<float>(s.beta), y->data(), s.incy, parallelism);
}

bool same_bits(const std::vector<float>& a, const std::vector<float>& b) {
  // (memcmp of empty vectors would pass it null pointers.)
  return a.size() == b.size() &&
         (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0);
}

TEST_CASE("half gemv: the f32 gemv's bits on the widened A, every level, shapes and strides") {
  const std::int64_t dims[][2] = {{0, 5}, {1, 1}, {5, 7}, {6, 13}, {7, 64}, {17, 130}, {130, 17}, {64, 1}};
  const double scalars[][2] = {{1, 0}, {0.5, -1.5}, {0, 2}};
  const std::int64_t incs[][2] = {{1, 1}, {-2, 3}};
  std::uint64_t seed = 1;
  for (const Context& context : test::contexts_under_test()) {
    const std::string level = test::level_label(context);
    for (Format f : {Format::kF16, Format::kBf16}) {
      int checked = 0;
      for (Layout layout : {Layout::kRowMajor, Layout::kColMajor}) {
        for (Transpose trans : {Transpose::kNo, Transpose::kYes}) {
          for (const auto& d : dims) {
            for (const auto& sc : scalars) {
              for (const auto& inc : incs) {
                GemvShape s;
                s.layout = layout, s.trans = trans, s.m = d[0], s.n = d[1];
                s.alpha = sc[0], s.beta = sc[1], s.incx = inc[0], s.incy = inc[1];
                s.lda_pad = (seed % 2) * 3;
                const HalfGemv h = make_half_gemv(f, s, ++seed);
                std::vector<float> got, want;
                REQUIRE(run_half_gemv(context, f, s, h, &got).ok());
                REQUIRE(test::blas1::run_gemv(context, s, h.widened, &want).ok());
                CHECK_MESSAGE(same_bits(got, want), level, " ", format_name(f), " ", s.describe());
                test::blas1::check_gemv(s, h.widened, got, level.c_str());
                ++checked;
              }
            }
          }
        }
      }
      CHECK(checked == 2 * 2 * 8 * 3 * 2);
    }
  }
}

TEST_CASE("half gemv: bit-identical for 1, 2, 3, 4, 7 and 8 workers on every level") {
  const bool slow = test::gemm::slow_target();
  for (Isa isa : test::host_isas()) {
    auto counter = std::make_shared<test::CountingExecutor>(test::gemm::wide_executor(8));
    const Context context = test::split_context(isa, counter);
    for (Format f : {Format::kF16, Format::kBf16}) {
      for (Transpose trans : {Transpose::kNo, Transpose::kYes}) {
        GemvShape s;
        s.trans = trans, s.m = slow ? 301 : 1003, s.n = slow ? 257 : 517, s.alpha = 1.25, s.beta = 0.5;
        const HalfGemv h = make_half_gemv(f, s, 77);
        std::vector<float> one;
        REQUIRE(run_half_gemv(context, f, s, h, &one, Parallelism::threads(1)).ok());
        for (int w : test::kWorkerCounts) {
          std::vector<float> y;
          REQUIRE(run_half_gemv(context, f, s, h, &y, Parallelism::threads(w)).ok());
          CHECK_MESSAGE(same_bits(y, one), isa_name(isa), " ", format_name(f), " workers ", w,
                        ": ", s.describe());
        }
      }
    }
    CHECK_MESSAGE(counter->multi_runs() >= 20, counter->multi_runs(), " split runs");
  }
}

TEST_CASE("half gemv: bad input is an error naming the argument, y untouched") {
  const Context context;
  std::vector<std::uint16_t> a(64, 0x3C00);
  std::vector<float> x(8, 1.0f), y(8, 7.0f);
  const auto* a16 = reinterpret_cast<const f16*>(a.data());
  Status s = try_gemv(context, Layout::kRowMajor, Transpose::kNo, 8, 8, 1.0f, a16, 7, x.data(), 1,
                      0.0f, y.data(), 1);
  CHECK(s.code() == StatusCode::kInvalidArgument);
  CHECK_MESSAGE(test::contains(s.message(), "lda"), s.message());
  CHECK(y[0] == 7.0f);
  // y inside A's bytes (A is 2 bytes an element: 64 values span 128 bytes).
  auto* inside = reinterpret_cast<float*>(a.data() + 8);
  s = try_gemv(context, Layout::kRowMajor, Transpose::kNo, 4, 8, 1.0f,
               reinterpret_cast<const bf16*>(a.data()), 8, x.data(), 1, 0.0f, inside, 1);
  CHECK(s.code() == StatusCode::kInvalidArgument);
  CHECK_MESSAGE(test::contains(s.message(), "y"), s.message());
  CHECK(a[8] == 0x3C00);
}

TEST_CASE("half gemv: the C API") {
  // A = [[1, 2], [3, 4]] in f16 and bf16, x = [1, -1]: y = [-1, -1].
  const std::uint16_t a_f16[4] = {0x3C00, 0x4000, 0x4200, 0x4400};
  const std::uint16_t a_bf16[4] = {0x3F80, 0x4000, 0x4040, 0x4080};
  const float x[2] = {1.0f, -1.0f};
  float y[2] = {9.0f, 9.0f};
  REQUIRE(tsr_gemv_f16(nullptr, TSR_ROW_MAJOR, TSR_NO_TRANS, 2, 2, 1.0f, a_f16, 2, x, 1, 0.0f, y,
                       1, 0) == TSR_OK);
  CHECK(y[0] == -1.0f);
  CHECK(y[1] == -1.0f);
  REQUIRE(tsr_gemv_bf16(nullptr, TSR_ROW_MAJOR, TSR_TRANS, 2, 2, 2.0f, a_bf16, 2, x, 1, 1.0f, y,
                        1, -1) == TSR_OK);
  // A^T x = [1 - 3, 2 - 4] = [-2, -2]; y = 2 * that + y.
  CHECK(y[0] == -5.0f);
  CHECK(y[1] == -5.0f);
  CHECK(tsr_gemv_f16(nullptr, TSR_ROW_MAJOR, TSR_NO_TRANS, 2, 2, 1.0f, nullptr, 2, x, 1, 0.0f, y,
                     1, 0) == TSR_INVALID_ARGUMENT);
  CHECK(test::contains(tsr_last_error_message(), "a"));
}

}  // namespace
}  // namespace tessera
