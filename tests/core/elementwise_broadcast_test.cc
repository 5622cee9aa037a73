// Broadcasting binary ops (row vector, column vector, scalar, either side,
// both sides) against the tests' own reference, and the bad inputs of
// design.md §Bad input: length mismatches and bad shapes named, partial overlap, null
// pointers; nothing written on error.
#include <doctest/doctest.h>

#include <cstring>
#include <limits>
#include <vector>

#include "support/test_support.hpp"
#include "tests/core/elementwise_reference.hpp"

namespace tessera {
namespace {

const Broadcast kShapes[] = {Broadcast::kFull, Broadcast::kRow, Broadcast::kColumn,
                             Broadcast::kScalar};

std::size_t count(Broadcast s, std::size_t rows, std::size_t cols) {
  switch (s) {
    case Broadcast::kFull: return rows * cols;
    case Broadcast::kRow: return cols;
    case Broadcast::kColumn: return rows;
    case Broadcast::kScalar: return 1;
  }
  return 0;
}

// X(r, c) by the broadcasting rule, written out.
template <class T>
T element(const std::vector<T>& x, Broadcast s, std::size_t cols, std::size_t r, std::size_t c) {
  switch (s) {
    case Broadcast::kFull: return x[r * cols + c];
    case Broadcast::kRow: return x[c];
    case Broadcast::kColumn: return x[r];
    case Broadcast::kScalar: return x[0];
  }
  return T(0);
}

template <class T>
std::vector<T> values(std::size_t n, std::uint64_t seed) {
  test::Rng rng(seed);
  std::vector<T> v(n);
  const auto sp = test::ew::specials<T>();
  for (std::size_t i = 0; i < n; ++i) {
    v[i] = static_cast<T>(rng.uniform_f64(-3.0, 3.0));
    if (i % 5 == 2) v[i] = sp[(i / 5) % sp.size()];
  }
  return v;
}

template <class T>
void check_shapes() {
  struct Dims {
    std::size_t rows, cols;
  };
  // 1 x n, m x 1, primes, rows shorter and longer than a vector, an output
  // large enough for several parallel blocks.
  const Dims dims[] = {{1, 1},  {1, 37},  {37, 1}, {3, 5},  {7, 17},  {13, 64},
                       {64, 13}, {2, 131}, {131, 3}, {97, 211}, {5, 16411}};
  std::vector<Context> contexts = {test::naive_context()};
  for (Isa isa : test::host_isas()) contexts.push_back(test::context_for(isa));
  for (const Context& c : contexts) {
    for (int op = 0; op < kBinaryOpCount; ++op) {
      const auto bop = static_cast<BinaryOp>(op);
      for (const Dims& d : dims) {
        for (Broadcast sa : kShapes) {
          for (Broadcast sb : kShapes) {
            const auto a = values<T>(count(sa, d.rows, d.cols), 1 + d.rows);
            const auto b = values<T>(count(sb, d.rows, d.cols), 2 + d.cols);
            std::vector<T> out(d.rows * d.cols, T(9));
            const Status s =
                try_binary(c, bop, {d.rows, d.cols}, {a, sa}, {b, sb}, out);
            REQUIRE_MESSAGE(s.ok(), s.to_string());
            std::size_t bad = 0;
            for (std::size_t r = 0; r < d.rows; ++r) {
              for (std::size_t col = 0; col < d.cols; ++col) {
                const T expected = test::ew::ref_binary(bop, element(a, sa, d.cols, r, col),
                                                        element(b, sb, d.cols, r, col));
                if (!test::ew::matches(expected, out[r * d.cols + col],
                                       test::ew::exact_nan(bop))) {
                  ++bad;
                }
              }
            }
            CAPTURE(std::string(binary_op_name(bop)));
            CAPTURE(d.rows);
            CAPTURE(d.cols);
            CAPTURE(static_cast<int>(sa));
            CAPTURE(static_cast<int>(sb));
            CHECK(bad == 0);
          }
        }
      }
    }
  }
}

TEST_CASE("broadcast shapes (full, row, column, scalar on either side) match the reference") {
  SUBCASE("f32") { check_shapes<float>(); }
  SUBCASE("f64") { check_shapes<double>(); }
}

TEST_CASE("the named forms: same shape, scalar either side, row and column vectors") {
  const Context c;
  const std::vector<double> m = {1, 2, 3, 4, 5, 6};  // 2 x 3
  const std::vector<double> row = {10, 20, 30}, col = {100, 200};
  std::vector<double> out(6);
  REQUIRE(try_sub(c, m, 1.0, out).ok());
  CHECK(out == std::vector<double>{0, 1, 2, 3, 4, 5});
  REQUIRE(try_sub(c, 1.0, m, out).ok());
  CHECK(out == std::vector<double>{0, -1, -2, -3, -4, -5});
  REQUIRE(try_add(c, {2, 3}, {m}, {row, Broadcast::kRow}, out).ok());
  CHECK(out == std::vector<double>{11, 22, 33, 14, 25, 36});
  REQUIRE(try_div(c, {2, 3}, {col, Broadcast::kColumn}, {m}, out).ok());
  CHECK(out == std::vector<double>{100, 50, 100.0 / 3, 50, 40, 200.0 / 6});
  REQUIRE(try_max(c, {2, 3}, {row, Broadcast::kRow}, {col, Broadcast::kColumn}, out).ok());
  CHECK(out == std::vector<double>{100, 100, 100, 200, 200, 200});
#if TESSERA_HAS_EXCEPTIONS
  mul(c, m, m, out);
  CHECK(out == std::vector<double>{1, 4, 9, 16, 25, 36});
  CHECK_THROWS(mul(c, m, std::span<const double>(m).first(5), out));
#endif
}

TEST_CASE("in place on a full operand, with the other broadcast") {
  for (Isa isa : test::host_isas()) {
    const Context c = test::context_for(isa);
    auto m = values<float>(7 * 131, 3);
    const auto row = values<float>(131, 4);
    std::vector<float> expected(m.size());
    REQUIRE(try_mul(test::naive_context(), {7, 131}, {m}, {row, Broadcast::kRow}, expected).ok());
    REQUIRE(try_mul(c, {7, 131}, {m}, {row, Broadcast::kRow}, m).ok());
    std::size_t bad = 0;
    for (std::size_t i = 0; i < m.size(); ++i) bad += test::ew::matches(expected[i], m[i], false) ? 0 : 1;
    CHECK(bad == 0);
  }
}

TEST_CASE("bad arguments are errors naming the argument, nothing written") {
  const Context c;
  std::vector<float> a(12, 1.0f), b(12, 2.0f), out(12, 42.0f);
  std::vector<float> in_place_buffer(24, 1.0f);
  auto has = [](const Status& s, const char* text) {
    CHECK(s.code() == StatusCode::kInvalidArgument);
    CHECK_MESSAGE(s.message().find(text) != std::string::npos, s.message());
  };

  SUBCASE("same-shape length mismatch names b / out / x") {
    has(try_sub(c, a, std::span<const float>(b).first(11), out), "b has 11 elements");
    has(try_div(c, a, b, std::span<float>(out).first(11)), "out has 11 elements");
    has(try_sqrt(c, a, std::span<float>(out).first(3)), "out has 3 elements");
  }
  SUBCASE("a row vector of the wrong length") {
    has(try_add(c, {3, 4}, {a}, {std::span<const float>(b).first(3), Broadcast::kRow}, out),
        "b has 3 elements but a row operand of a 3 x 4 output needs 4");
  }
  SUBCASE("a column vector of the wrong length") {
    has(try_min(c, {3, 4}, {std::span<const float>(a).first(4), Broadcast::kColumn}, {b}, out),
        "a has 4 elements but a column operand of a 3 x 4 output needs 3");
  }
  SUBCASE("a scalar operand with more than one element") {
    has(try_max(c, {3, 4}, {a}, {std::span<const float>(b).first(2), Broadcast::kScalar}, out),
        "b has 2 elements but a scalar operand");
  }
  SUBCASE("an unknown broadcast shape") {
    has(try_add(c, {3, 4}, {a}, {b, static_cast<Broadcast>(9)}, out),
        "b has an unknown broadcast shape");
  }
  SUBCASE("an unknown op") {
    has(try_binary(c, static_cast<BinaryOp>(77), {3, 4}, {a}, {b}, out),
        "op is not a binary operation");
    has(try_unary(c, static_cast<UnaryOp>(-1), a, out), "op is not a unary operation");
  }
  SUBCASE("an extent whose size overflows") {
    const std::size_t huge = std::numeric_limits<std::size_t>::max() / 2;  // 32 and 64 bits
    has(try_add(c, {huge, 4}, {a}, {b}, out), "too large");
  }
  SUBCASE("null pointers with elements") {
    const std::span<const float> null_span(static_cast<const float*>(nullptr), 12);
    has(try_mul(c, a, null_span, out), "b is null");
    has(try_neg(c, null_span, out), "x is null");
    has(try_add(c, {3, 4}, {a}, {std::span<const float>(static_cast<const float*>(nullptr), 4),
                                 Broadcast::kRow}, out),
        "b is null");
  }
  SUBCASE("partial overlap of out with a full operand") {
    has(try_sub(c, std::span<const float>(in_place_buffer).first(12), b,
                std::span<float>(in_place_buffer).subspan(5, 12)),
        "out partially overlaps a");
    has(try_abs(c, std::span<const float>(in_place_buffer).first(12),
                std::span<float>(in_place_buffer).subspan(1, 12)),
        "out partially overlaps x");
    CHECK(in_place_buffer == std::vector<float>(24, 1.0f));
  }
  SUBCASE("out overlapping a broadcast operand, even exactly") {
    // The row vector would be overwritten by row 0 before rows 1 and 2
    // read it.
    std::vector<float> buf(12, 1.0f);
    has(try_add(c, {3, 4}, {a}, {std::span<const float>(buf).first(4), Broadcast::kRow}, buf),
        "out overlaps b, a row (broadcast) operand");
    CHECK(buf == std::vector<float>(12, 1.0f));
  }
  SUBCASE("zero-size outputs are valid no-ops, null allowed") {
    CHECK(try_add(c, std::span<const float>(), std::span<const float>(), std::span<float>()).ok());
    // A full operand of a 0 x 5 output has 0 elements, not 5.
    has(try_add(c, {0, 5}, {std::span<const float>()}, {std::span<const float>(b).first(5)},
                std::span<float>()),
        "b has 5 elements");
    CHECK(try_add(c, {0, 5}, {std::span<const float>()},
                  {std::span<const float>(b).first(5), Broadcast::kRow}, std::span<float>())
              .ok());
    CHECK(try_relu(c, std::span<const double>(), std::span<double>()).ok());
  }
  CHECK(out == std::vector<float>(12, 42.0f));
}

}  // namespace
}  // namespace tessera
