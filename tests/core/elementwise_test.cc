// Elementwise kernels: every ISA level the host supports and several
// executors, against the naive family, bit for bit (add, mul and relu are
// single IEEE operations per element, so every level must agree exactly).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <vector>

#include "support/test_support.hpp"

namespace tessera {
namespace {

using test::host_isas;

// Lengths: empty, single, primes, around every SIMD width and the unrolled
// body (4 x 16 lanes), and around the 16 Ki parallel block.
const std::size_t kBasicOpLengths[] = {0,  1,  2,  3,  5,   7,    13,   15,    16,    17,   31,
                                       63, 64, 65, 67, 127, 1021, 4099, 16384, 16385, 40009};

std::vector<float> with_specials(std::vector<float> v) {
  const float specials[] = {std::numeric_limits<float>::quiet_NaN(),
                            -0.0f,
                            0.0f,
                            std::numeric_limits<float>::infinity(),
                            -std::numeric_limits<float>::infinity(),
                            std::numeric_limits<float>::denorm_min(),
                            -std::numeric_limits<float>::max()};
  for (std::size_t i = 0; i < v.size(); i += 11) {
    v[i] = specials[(i / 11) % (sizeof specials / sizeof specials[0])];
  }
  return v;
}

enum class Op { kAdd, kMul, kRelu };

Status run(Op op, const Context& c, const std::vector<float>& a,
           const std::vector<float>& b, std::vector<float>& y) {
  switch (op) {
    case Op::kAdd: return try_add(c, a, b, y);
    case Op::kMul: return try_mul(c, a, b, y);
    case Op::kRelu: return try_relu(c, a, y);
  }
  return Status::internal("bad op");
}

void check_against_naive(Op op, const Context& context) {
  for (std::size_t n : kBasicOpLengths) {
    const auto a = with_specials(test::random_f32(n, 1000 + n, -4, 4));
    const auto b = with_specials(test::random_f32(n, 2000 + n, -4, 4));
    std::vector<float> expected(n, 7.0f), actual(n, 9.0f);
    REQUIRE(run(op, test::naive_context(), a, b, expected).ok());
    REQUIRE(run(op, context, a, b, actual).ok());
    std::size_t mismatches = 0;
    for (std::size_t i = 0; i < n; ++i) {
      if (!test::same_bits_or_both_nan(expected[i], actual[i])) ++mismatches;
    }
    CHECK_MESSAGE(mismatches == 0, "n=", n, " isa=", isa_name(context.isa()));
  }
}

Context with_executor(Isa isa, std::shared_ptr<platform::Executor> executor) {
  ContextOptions options;
  options.isa = isa;
  options.read_environment = false;
  options.executor = std::move(executor);
  Context context;
  REQUIRE(Context::create(options, &context).ok());
  return context;
}

TEST_CASE("naive family computes the textbook definitions") {
  const std::vector<float> a = {1.5f, -2.0f, 0.0f, -0.0f, 3.0f};
  const std::vector<float> b = {2.0f, 4.0f, -1.0f, 5.0f, 0.25f};
  std::vector<float> y(5);
  REQUIRE(try_add(test::naive_context(), a, b, y).ok());
  CHECK(y == std::vector<float>{3.5f, 2.0f, -1.0f, 5.0f, 3.25f});
  REQUIRE(try_mul(test::naive_context(), a, b, y).ok());
  CHECK(y == std::vector<float>{3.0f, -8.0f, -0.0f, -0.0f, 0.75f});
  REQUIRE(try_relu(test::naive_context(), a, y).ok());
  CHECK(y == std::vector<float>{1.5f, 0.0f, 0.0f, -0.0f, 3.0f});
  CHECK(std::signbit(y[3]));  // relu(-0) keeps -0 on every level
}

TEST_CASE("every ISA level matches the naive family bit for bit") {
  for (Isa isa : host_isas()) {
    CAPTURE(isa_name(isa));
    const Context context = test::context_for(isa);
    check_against_naive(Op::kAdd, context);
    check_against_naive(Op::kMul, context);
    check_against_naive(Op::kRelu, context);
  }
}

TEST_CASE("results do not depend on the executor width") {
  for (Isa isa : host_isas()) {
    for (int width : {2, 3, 4, 7, 8}) {
      CAPTURE(isa_name(isa));
      CAPTURE(width);
      auto executor = std::make_shared<test::ReverseSerialExecutor>(width);
      const Context context = with_executor(isa, executor);
      check_against_naive(Op::kAdd, context);
      check_against_naive(Op::kRelu, context);
      CHECK(executor->runs() > 0);  // large lengths really went wide
    }
  }
}

// Records the widest region it was asked to run; runs every participant
// on the calling thread.
class WidestRunExecutor final : public platform::Executor {
 public:
  explicit WidestRunExecutor(int width) : width_(width) {}
  int width() const noexcept override { return width_; }
  void run(int participants, FunctionRef<void(int)> body) override {
    widest_ = std::max(widest_, participants);
    for (int p = 0; p < participants; ++p) body(p);
  }
  int widest() const { return widest_; }

 private:
  int width_;
  int widest_ = 0;
};

TEST_CASE("elementwise kernels use at most max_threads_per_kernel participants") {
  const std::size_t n = 40 * 16 * 1024;  // 40 blocks of the 16 Ki minimum
  const std::vector<float> a = test::random_f32(n, 5), b = test::random_f32(n, 6);
  std::vector<float> out(n);
  for (int limit : {1, 2, 3}) {
    CAPTURE(limit);
    auto executor = std::make_shared<WidestRunExecutor>(8);
    ContextOptions options;
    options.read_environment = false;
    options.executor = executor;
    options.policy.max_threads_per_kernel = limit;
    Context context;
    REQUIRE(Context::create(options, &context).ok());
    REQUIRE(context.resolved_policy().max_threads_per_kernel == limit);
    REQUIRE(try_add(context, a, b, out).ok());
    REQUIRE(try_relu(context, a, out).ok());
    // One participant runs inline, without a region.
    CHECK(executor->widest() == (limit == 1 ? 0 : limit));
  }
}

TEST_CASE("in-place operation is allowed") {
  for (Isa isa : host_isas()) {
    const Context context = test::context_for(isa);
    auto a = test::random_f32(1000, 5);
    const auto b = test::random_f32(1000, 6);
    std::vector<float> expected(1000);
    REQUIRE(try_add(test::naive_context(), a, b, expected).ok());
    REQUIRE(try_add(context, a, b, a).ok());
    CHECK(std::memcmp(a.data(), expected.data(), 4000) == 0);
  }
}

TEST_CASE("bad arguments are errors naming the argument, nothing written") {
  const Context context;
  std::vector<float> a(8, 1.0f), b(8, 2.0f), y(8, 42.0f);

  SUBCASE("length mismatch") {
    const Status s = try_add(context, a, std::span<const float>(b).first(7), y);
    CHECK(s.code() == StatusCode::kInvalidArgument);
    CHECK(s.message().find("b has 7 elements") != std::string::npos);
  }
  SUBCASE("null with non-zero length") {
    const Status s = try_mul(context, a, std::span<const float>(static_cast<const float*>(nullptr), std::size_t{8}), y);
    CHECK(s.code() == StatusCode::kInvalidArgument);
    CHECK(s.message().find("b is null") != std::string::npos);
  }
  SUBCASE("partial overlap") {
    std::vector<float> buf(16, 1.0f);
    const Status s = try_relu(context, std::span<const float>(buf).first(8),
                              std::span<float>(buf).subspan(4, 8));
    CHECK(s.code() == StatusCode::kInvalidArgument);
    CHECK(s.message().find("out partially overlaps x") != std::string::npos);
    CHECK(buf == std::vector<float>(16, 1.0f));
  }
  SUBCASE("null with zero length is a valid no-op") {
    CHECK(try_add(context, std::span<const float>(), std::span<const float>(), std::span<float>()).ok());
  }
  CHECK(y == std::vector<float>(8, 42.0f));
}

}  // namespace
}  // namespace tessera
