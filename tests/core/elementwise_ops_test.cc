// The elementwise set (add sub mul div min max; abs neg sqrt relu), f32 and
// f64, on the naive family and every ISA level the host supports, against
// the tests' own reference (elementwise_reference.hpp): edge lengths, the
// scalar forms on either side, every pair of special values, and the same
// bits for every executor width.
#include <doctest/doctest.h>

#include <memory>
#include <string>
#include <vector>

#include "support/test_support.hpp"
#include "tests/core/elementwise_reference.hpp"
#include "tests/core/elementwise_widths.hpp"

namespace tessera {
namespace {

using test::ew::exact_nan;
using test::ew::matches;
using test::ew::ref_binary;
using test::ew::ref_unary;

// Empty, single, primes, around every vector width (1, 2, 4, 8, 16 lanes)
// and the 4-vector unrolled body (up to 64), and around the 16 Ki block.
const std::size_t kOpLengths[] = {0,  1,  2,  3,  5,  7,  8,   9,    13,   15,    16,    17,   31,
                                  32, 33, 63, 64, 65, 67, 127, 1021, 4099, 16384, 16385, 40009};

const BinaryOp kBinaryOps[] = {BinaryOp::kAdd, BinaryOp::kSub, BinaryOp::kMul,
                               BinaryOp::kDiv, BinaryOp::kMin, BinaryOp::kMax};
const UnaryOp kUnaryOps[] = {UnaryOp::kAbs, UnaryOp::kNeg, UnaryOp::kSqrt, UnaryOp::kRelu};

template <class T>
std::vector<T> random_values(std::size_t n, std::uint64_t seed) {
  test::Rng rng(seed);
  std::vector<T> v(n);
  const auto specials = test::ew::specials<T>();
  for (std::size_t i = 0; i < n; ++i) {
    v[i] = static_cast<T>(rng.uniform_f64(-4.0, 4.0));
    // Specials at a stride coprime to every vector width: they land in
    // every lane and in the tails.
    if (i % 7 == 3) v[i] = specials[(i / 7) % specials.size()];
  }
  return v;
}

enum class Form { kSame, kScalarRhs, kScalarLhs };

template <class T>
Status run_binary(const Context& c, BinaryOp op, Form form, const std::vector<T>& a,
                  const std::vector<T>& b, T s, std::vector<T>& out) {
  const Extent e{1, out.size()};
  switch (form) {
    case Form::kSame: return try_binary(c, op, e, {a}, {b}, out);
    case Form::kScalarRhs:
      return try_binary(c, op, e, {a}, {std::span<const T>(&s, 1), Broadcast::kScalar}, out);
    case Form::kScalarLhs:
      return try_binary(c, op, e, {std::span<const T>(&s, 1), Broadcast::kScalar}, {b}, out);
  }
  return Status::internal("form");
}

template <class T>
std::size_t binary_mismatches(const Context& c, BinaryOp op, Form form, const std::vector<T>& a,
                              const std::vector<T>& b, T s) {
  const std::size_t n = form == Form::kScalarLhs ? b.size() : a.size();
  std::vector<T> out(n, T(7));
  const Status status = run_binary(c, op, form, a, b, s, out);
  REQUIRE_MESSAGE(status.ok(), status.to_string());
  std::size_t bad = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const T x = form == Form::kScalarLhs ? s : a[i];
    const T y = form == Form::kScalarRhs ? s : b[i];
    if (!matches(ref_binary(op, x, y), out[i], exact_nan(op))) ++bad;
  }
  return bad;
}

template <class T>
void check_binary_lengths() {
  for (const Context& c : test::contexts_under_test()) {
    for (BinaryOp op : kBinaryOps) {
      for (std::size_t n : kOpLengths) {
        const auto a = random_values<T>(n, 100 + n), b = random_values<T>(n, 200 + n);
        const T s = static_cast<T>(-1.375);
        CAPTURE(test::level_label(c));
        CAPTURE(std::string(binary_op_name(op)));
        CAPTURE(n);
        CHECK(binary_mismatches(c, op, Form::kSame, a, b, s) == 0);
        CHECK(binary_mismatches(c, op, Form::kScalarRhs, a, b, s) == 0);
        CHECK(binary_mismatches(c, op, Form::kScalarLhs, a, b, s) == 0);
      }
    }
  }
}

template <class T>
void check_binary_special_pairs() {
  const auto sp = test::ew::specials<T>();
  const std::size_t k = sp.size();
  for (const Context& c : test::contexts_under_test()) {
    for (BinaryOp op : kBinaryOps) {
      // Every ordered pair, shifted so each pair meets every lane position
      // and the scalar tail.
      for (std::size_t shift : {0u, 1u, 5u}) {
        std::vector<T> a(k * k + shift, T(1)), b(k * k + shift, T(1));
        for (std::size_t i = 0; i < k * k; ++i) {
          a[shift + i] = sp[i % k];
          b[shift + i] = sp[i / k];
        }
        CAPTURE(test::level_label(c));
        CAPTURE(std::string(binary_op_name(op)));
        CAPTURE(shift);
        CHECK(binary_mismatches(c, op, Form::kSame, a, b, T(0)) == 0);
        // Every special as the scalar, on either side.
        for (T s : sp) {
          CHECK(binary_mismatches(c, op, Form::kScalarRhs, a, b, s) == 0);
          CHECK(binary_mismatches(c, op, Form::kScalarLhs, a, b, s) == 0);
        }
      }
    }
  }
}

template <class T>
void check_unary() {
  for (const Context& c : test::contexts_under_test()) {
    for (UnaryOp op : kUnaryOps) {
      std::vector<std::vector<T>> inputs;
      for (std::size_t n : kOpLengths) inputs.push_back(random_values<T>(n, 300 + n));
      inputs.push_back(test::ew::specials<T>());
      for (const auto& x : inputs) {
        std::vector<T> out(x.size(), T(7));
        REQUIRE(try_unary(c, op, x, out).ok());
        std::size_t bad = 0;
        std::string first;
        for (std::size_t i = 0; i < x.size(); ++i) {
          const T want = ref_unary(op, x[i]);
          if (!matches(want, out[i], exact_nan(op)) && bad++ == 0) {
            first = "x=" + std::to_string(x[i]) + " got " + std::to_string(out[i]) + " (sign " +
                    std::to_string(std::signbit(out[i])) + ") want " + std::to_string(want) +
                    " (sign " + std::to_string(std::signbit(want)) + ")";
          }
        }
        CAPTURE(first);
        CAPTURE(test::level_label(c));
        CAPTURE(std::string(unary_op_name(op)));
        CAPTURE(x.size());
        CHECK(bad == 0);
      }
    }
  }
}

TEST_CASE("binary ops match the reference on every level, all lengths and forms") {
  SUBCASE("f32") { check_binary_lengths<float>(); }
  SUBCASE("f64") { check_binary_lengths<double>(); }
}

TEST_CASE("binary ops on every pair of special values (NaN, Inf, zeros, denormals)") {
  SUBCASE("f32") { check_binary_special_pairs<float>(); }
  SUBCASE("f64") { check_binary_special_pairs<double>(); }
}

TEST_CASE("unary ops match the reference on every level, lengths and specials") {
  SUBCASE("f32") { check_unary<float>(); }
  SUBCASE("f64") { check_unary<double>(); }
}

TEST_CASE("min and max: NaN propagates and -0 < +0, in either operand order") {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  for (const Context& c : test::contexts_under_test()) {
    CAPTURE(test::level_label(c));
    const std::vector<float> a = {-0.0f, 0.0f, nan, 1.0f, 2.0f, -3.0f, nan};
    const std::vector<float> b = {0.0f, -0.0f, 1.0f, nan, 2.0f, 3.0f, -nan};
    std::vector<float> lo(a.size()), hi(a.size());
    REQUIRE(try_min(c, a, b, lo).ok());
    REQUIRE(try_max(c, a, b, hi).ok());
    CHECK((lo[0] == 0.0f && std::signbit(lo[0])));
    CHECK((lo[1] == 0.0f && std::signbit(lo[1])));
    CHECK((hi[0] == 0.0f && !std::signbit(hi[0])));
    CHECK((hi[1] == 0.0f && !std::signbit(hi[1])));
    CHECK(std::isnan(lo[2]));
    CHECK(std::isnan(lo[3]));
    CHECK(std::isnan(hi[2]));
    CHECK(std::isnan(hi[3]));
    CHECK(lo[4] == 2.0f);
    CHECK(lo[5] == -3.0f);
    CHECK(hi[5] == 3.0f);
    CHECK(!std::signbit(lo[6]));  // both NaN: a's NaN
  }
}

TEST_CASE("div is a true IEEE division and sqrt is correctly rounded") {
  // 1/3 and sqrt(2) to the last bit; a reciprocal estimate (rcpps) or an
  // approximate sqrt gets these wrong.
  for (const Context& c : test::contexts_under_test()) {
    CAPTURE(test::level_label(c));
    std::vector<float> one(17, 1.0f), three(17, 3.0f), two(17, 2.0f), q(17), r(17);
    REQUIRE(try_div(c, one, three, q).ok());
    REQUIRE(try_sqrt(c, two, r).ok());
    for (std::size_t i = 0; i < 17; ++i) {
      CHECK(q[i] == static_cast<float>(1.0 / 3.0));
      CHECK(r[i] == static_cast<float>(std::sqrt(2.0)));
    }
    std::vector<double> d1(9, 1.0), d3(9, 3.0), dq(9);
    REQUIRE(try_div(c, d1, d3, dq).ok());
    for (double v : dq) CHECK(v == 1.0 / 3.0);
  }
}

template <class T>
void check_widths(Isa isa) {
  const std::size_t rows = 61, cols = 1031;  // 62891 elements: several blocks
  const auto a = random_values<T>(rows * cols, 11), b = random_values<T>(rows * cols, 12);
  const auto row = random_values<T>(cols, 13), col = random_values<T>(rows, 14);
  struct Shape {
    Operand<T> a, b;
  };
  const Shape shapes[] = {{{a}, {b}},
                          {{a}, {row, Broadcast::kRow}},
                          {{col, Broadcast::kColumn}, {b}},
                          {{row, Broadcast::kRow}, {col, Broadcast::kColumn}}};
  for (BinaryOp op : kBinaryOps) {
    for (const Shape& s : shapes) {
      std::vector<T> first(rows * cols);
      REQUIRE(try_binary(test::reverse_serial_context(isa, 1), op, {rows, cols}, s.a, s.b, first).ok());
      for (int width : {2, 3, 4, 7, 8}) {
        std::vector<T> out(rows * cols);
        REQUIRE(try_binary(test::reverse_serial_context(isa, width), op, {rows, cols}, s.a, s.b, out).ok());
        CAPTURE(std::string(binary_op_name(op)));
        CAPTURE(width);
        CHECK(std::memcmp(first.data(), out.data(), out.size() * sizeof(T)) == 0);
      }
    }
  }
  test::check_unary_widths(isa, kUnaryOps, a);
}

TEST_CASE("results are the same bits for executor widths 1, 2, 3, 4, 7 and 8") {
  for (Isa isa : test::host_isas()) {
    CAPTURE(std::string(isa_name(isa)));
    check_widths<float>(isa);
    check_widths<double>(isa);
  }
}

TEST_CASE("every ISA level gives the same bits as every other, NaNs included") {
  // Stronger than matching the reference: the arithmetic NaNs' payloads are
  // compared too, between levels of one build (one CPU).
  const auto isas = test::host_isas();
  const auto a = random_values<double>(4099, 21), b = random_values<double>(4099, 22);
  for (BinaryOp op : kBinaryOps) {
    std::vector<double> first(a.size());
    REQUIRE(try_binary(test::context_for(isas.front()), op, {1, a.size()}, {a}, {b}, first).ok());
    for (Isa isa : isas) {
      std::vector<double> out(a.size());
      REQUIRE(try_binary(test::context_for(isa), op, {1, a.size()}, {a}, {b}, out).ok());
      CAPTURE(std::string(binary_op_name(op)));
      CAPTURE(std::string(isa_name(isa)));
      CHECK(std::memcmp(first.data(), out.data(), out.size() * sizeof(double)) == 0);
    }
  }
}

}  // namespace
}  // namespace tessera
