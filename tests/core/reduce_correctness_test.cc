// Last-axis sum, max, mean and argmax against an independent reference
// (tests/core/reduce_test_util.hpp) and against the naive family, on the
// edge shapes and every level the host supports; NumPy's special values.
#include <algorithm>
#include <limits>

#include "tests/core/gemm_test_util.hpp"
#include "tests/core/reduce_test_util.hpp"

namespace tessera {
namespace {

using test::reduce::RowShape;

constexpr ReduceOp kOps[] = {ReduceOp::kSum, ReduceOp::kMax, ReduceOp::kMean};

template <class T>
void check_shape(const Context& context, const Context& naive, const RowShape& s) {
  const std::vector<T> x = test::reduce::random_matrix<T>(s, 11 + s.rows * 7 + s.cols);
  const std::string what = std::string(isa_name(context.isa())) + " " +
                           (sizeof(T) == 4 ? "f32" : "f64");
  for (ReduceOp op : kOps) {
    if (op == ReduceOp::kMax && s.cols == 0 && s.rows > 0) continue;  // an error: bad-input suite
    std::vector<T> out(static_cast<std::size_t>(s.rows), T(-7));
    const Status status = try_reduce(context, op, s.rows, s.cols, x.data(), s.ld(), out.data());
    REQUIRE_MESSAGE(status.ok(), status.to_string());
    test::reduce::check_reduce(op, s, x, out, what);
    std::vector<T> reference(out.size(), T(-7));
    REQUIRE(try_reduce(naive, op, s.rows, s.cols, x.data(), s.ld(), reference.data()).ok());
    test::reduce::check_reduce(op, s, x, reference, "naive");
  }
  if (s.cols == 0 && s.rows > 0) return;
  std::vector<std::int64_t> index(static_cast<std::size_t>(s.rows), -1);
  REQUIRE(try_argmax(context, s.rows, s.cols, x.data(), s.ld(), index.data()).ok());
  std::vector<std::int64_t> reference(index.size(), -1);
  REQUIRE(try_argmax(naive, s.rows, s.cols, x.data(), s.ld(), reference.data()).ok());
  for (std::int64_t r = 0; r < s.rows; ++r) {
    const std::int64_t want = test::reduce::first_max(test::reduce::row_of(s, x, r), s.cols);
    CHECK_MESSAGE(index[static_cast<std::size_t>(r)] == want, what, " argmax ", s.describe(),
                  " row ", r);
    CHECK(reference[static_cast<std::size_t>(r)] == want);
  }
}

TEST_CASE("reduce: sum, max, mean, argmax match the reference on edge shapes, every level") {
  test::reduce::on_levels_and_edge_shapes(
      [](const Context& context, const Context& naive, const RowShape& s) {
        check_shape<float>(context, naive, s);
        check_shape<double>(context, naive, s);
      });
}

// A row holding `values` (a NaN, infinities, signed zeros) put at position
// `at` of an otherwise ordinary row of `cols` elements, crossing blocks.
template <class T>
void check_special_row(const Context& context, std::int64_t cols, std::int64_t at,
                       const std::vector<T>& values) {
  const RowShape s{1, cols, 0};
  std::vector<T> x = test::reduce::random_matrix<T>(s, 5 + cols);
  for (std::size_t i = 0; i < values.size(); ++i) x[static_cast<std::size_t>(at) + i] = values[i];
  for (ReduceOp op : kOps) {
    std::vector<T> out(1);
    REQUIRE(try_reduce(context, op, 1, cols, x.data(), cols, out.data()).ok());
    test::reduce::check_reduce(op, s, x, out, isa_name(context.isa()));
  }
  std::int64_t index = -1;
  REQUIRE(try_argmax(context, 1, cols, x.data(), cols, &index).ok());
  CHECK_MESSAGE(index == test::reduce::first_max(x.data(), cols), isa_name(context.isa()),
                " argmax cols=", cols, " at=", at);
}

template <class T>
void check_specials(const Context& context) {
  const T nan = std::numeric_limits<T>::quiet_NaN();
  const T inf = std::numeric_limits<T>::infinity();
  for (std::int64_t cols : {1, 7, 64, 4099, 9000}) {
    for (std::int64_t at : {std::int64_t{0}, cols / 2, cols - 1}) {
      check_special_row<T>(context, cols, at, {nan});
      check_special_row<T>(context, cols, at, {inf});
      check_special_row<T>(context, cols, at, {-inf});
      if (at + 1 < cols) {
        check_special_row<T>(context, cols, at, {T(3), T(3)});  // tie: the first wins
        check_special_row<T>(context, cols, at, {inf, nan});    // the NaN wins
        check_special_row<T>(context, cols, at, {nan, nan});    // the first NaN
      }
    }
  }
  // A NaN in a later block than the maximum.
  check_special_row<T>(context, 9000, 10, {T(5)});
  check_special_row<T>(context, 9000, 8999, {nan});
  // Signed zeros: the maximum of -0 and +0 is +0 (IEEE maximum), argmax the
  // first zero (they compare equal, as in NumPy).
  const std::vector<T> zeros = {T(-0.0), T(0.0), T(-0.0)};
  T m = 1;
  REQUIRE(try_reduce(context, ReduceOp::kMax, 1, 3, zeros.data(), 3, &m).ok());
  CHECK(m == T(0));
  CHECK_FALSE(std::signbit(m));
  std::int64_t index = -1;
  REQUIRE(try_argmax(context, 1, 3, zeros.data(), 3, &index).ok());
  CHECK(index == 0);
  // Rows of negatives and -0 whose maximum is a zero, across blocks and
  // vector tails: +0 wherever the one +0 sits, -0 without it.
  for (std::int64_t cols : {1, 7, 64, 4099}) {
    for (std::int64_t at : {std::int64_t{0}, cols / 2, cols - 1}) {
      std::vector<T> row(static_cast<std::size_t>(cols));
      for (std::int64_t j = 0; j < cols; ++j) {
        row[static_cast<std::size_t>(j)] = j % 3 == 0 ? T(-0.0) : T(-1) - T(j % 5);
      }
      row[0] = T(-0.0);
      REQUIRE(try_reduce(context, ReduceOp::kMax, 1, cols, row.data(), cols, &m).ok());
      CHECK_MESSAGE((m == T(0) && std::signbit(m)), "cols=", cols);
      row[static_cast<std::size_t>(at)] = T(0.0);
      REQUIRE(try_reduce(context, ReduceOp::kMax, 1, cols, row.data(), cols, &m).ok());
      CHECK_MESSAGE((m == T(0) && !std::signbit(m)), "cols=", cols, " at=", at);
    }
  }
  // A maximum of -0 then +0 past the first vectors (the scan compares a
  // vector at a time): argmax is the first zero, -0 == +0.
  for (std::int64_t cols : {40, 4099, 9000}) {
    std::vector<T> row(static_cast<std::size_t>(cols));
    for (std::int64_t j = 0; j < cols; ++j) row[static_cast<std::size_t>(j)] = T(-1) - T(j % 7);
    row[static_cast<std::size_t>(cols / 2 + 3)] = T(-0.0);
    row[static_cast<std::size_t>(cols - 1)] = T(0.0);
    REQUIRE(try_argmax(context, 1, cols, row.data(), cols, &index).ok());
    CHECK_MESSAGE(index == cols / 2 + 3, "cols=", cols);
  }
  // All -Inf: max -Inf at index 0; sum -Inf.
  const std::vector<T> masked(5, -inf);
  REQUIRE(try_reduce(context, ReduceOp::kMax, 1, 5, masked.data(), 5, &m).ok());
  CHECK(m == -inf);
  REQUIRE(try_argmax(context, 1, 5, masked.data(), 5, &index).ok());
  CHECK(index == 0);
  // +Inf and -Inf in one row: the sum is NaN.
  const std::vector<T> both = {T(1), inf, T(2), -inf};
  REQUIRE(try_reduce(context, ReduceOp::kSum, 1, 4, both.data(), 4, &m).ok());
  CHECK(std::isnan(m));
  // ... and the maximum +Inf, after a -Inf start too.
  for (const std::vector<T>& row : {both, std::vector<T>{-inf, T(2), inf, T(1)}}) {
    REQUIRE(try_reduce(context, ReduceOp::kMax, 1, 4, row.data(), 4, &m).ok());
    CHECK(m == inf);
  }
}

TEST_CASE("reduce: NaN, infinities, ties and signed zeros follow NumPy on every level") {
  for (Isa isa : test::host_isas()) {
    const Context context = test::context_for(isa);
    check_specials<float>(context);
    check_specials<double>(context);
  }
  check_specials<float>(test::naive_context());
}

TEST_CASE("reduce: empty rows give sum 0 and mean NaN; no rows writes nothing") {
  for (Isa isa : test::host_isas()) {
    const Context context = test::context_for(isa);
    std::vector<float> out(3, 9.0f);
    const float* none = nullptr;
    REQUIRE(try_reduce(context, ReduceOp::kSum, 3, 0, none, 1, out.data()).ok());
    CHECK(out == std::vector<float>(3, 0.0f));
    REQUIRE(try_reduce(context, ReduceOp::kMean, 3, 0, none, 1, out.data()).ok());
    CHECK(std::all_of(out.begin(), out.end(), [](float v) { return std::isnan(v); }));
    std::vector<double> untouched(2, 4.0);
    REQUIRE(try_reduce(context, ReduceOp::kMax, 0, 5, static_cast<const double*>(nullptr), 5,
                       static_cast<double*>(nullptr))
                .ok());
    REQUIRE(try_argmax(context, 0, 0, static_cast<const double*>(nullptr), 1,
                       static_cast<std::int64_t*>(nullptr))
                .ok());
    CHECK(untouched == std::vector<double>(2, 4.0));
  }
}

}  // namespace
}  // namespace tessera
