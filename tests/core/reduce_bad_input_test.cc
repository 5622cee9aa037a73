// Last-axis reductions and softmax bad input (design.md §Bad input): each error is
// invalid_argument, names the argument, and comes before anything is
// written.
#include <string>

#include "tests/core/reduce_test_util.hpp"

namespace tessera {
namespace {

void expect_error(const Status& s, const std::string& name) {
  CHECK(s.code() == StatusCode::kInvalidArgument);
  CHECK_MESSAGE(s.message().find(name) != std::string::npos, s.message(), " should name ", name);
}

TEST_CASE("reduce and argmax: bad sizes, strides, pointers and overlaps are named errors") {
  const Context context = test::context_for(test::host_isas().back());
  std::vector<float> x(64, 1.0f);
  std::vector<float> out(8, 42.0f);
  std::vector<std::int64_t> index(8, 42);
  const auto sum = ReduceOp::kSum;
  expect_error(try_reduce(context, sum, -1, 4, x.data(), 4, out.data()), "rows must be >= 0");
  expect_error(try_reduce(context, sum, 4, -4, x.data(), 4, out.data()), "cols must be >= 0");
  expect_error(try_reduce(context, sum, 4, 4, x.data(), 3, out.data()), "ldx");
  expect_error(try_reduce(context, sum, 4, 0, x.data(), 0, out.data()), "ldx");
  expect_error(try_reduce(context, sum, 4, 4, static_cast<const float*>(nullptr), 4, out.data()),
               "x is null");
  expect_error(try_reduce(context, sum, 4, 4, x.data(), 4, static_cast<float*>(nullptr)), "out");
  expect_error(try_reduce(context, sum, 4, 4, x.data(), 4, x.data() + 10), "out overlaps x");
  expect_error(try_reduce(context, sum, 4, 4, x.data(), 4, out.data(), Parallelism::threads(-3)),
               "parallelism");
  expect_error(try_reduce(context, static_cast<ReduceOp>(9), 4, 4, x.data(), 4, out.data()),
               "op");
  expect_error(try_reduce(context, sum, std::int64_t{1} << 40, 4, x.data(),
                          std::int64_t{1} << 40, out.data()),
               "spans more memory");
  // NumPy: the max / argmax of an empty row is an error, not a value.
  expect_error(try_reduce(context, ReduceOp::kMax, 2, 0, x.data(), 1, out.data()), "cols is 0");
  expect_error(try_argmax(context, 2, 0, x.data(), 1, index.data()), "cols is 0");
  expect_error(try_argmax(context, 4, 4, x.data(), 2, index.data()), "ldx");
  expect_error(try_argmax(context, 4, 4, x.data(), 4, static_cast<std::int64_t*>(nullptr)),
               "out");
  expect_error(try_argmax(context, 2, 4, x.data(), 4,
                          reinterpret_cast<std::int64_t*>(x.data() + 2)),
               "out overlaps x");
  CHECK(out == std::vector<float>(8, 42.0f));
  CHECK(index == std::vector<std::int64_t>(8, 42));
}

TEST_CASE("softmax: bad sizes, strides, pointers and partial overlaps are named errors") {
  const Context context = test::context_for(test::host_isas().back());
  std::vector<double> x(64, 1.0);
  const std::vector<double> y0(64, 7.0);
  std::vector<double> y = y0;
  for (bool log : {false, true}) {
    auto call = [&](std::int64_t rows, std::int64_t cols, const double* px, std::int64_t ldx,
                    double* py, std::int64_t ldy) {
      return log ? try_log_softmax(context, rows, cols, px, ldx, py, ldy)
                 : try_softmax(context, rows, cols, px, ldx, py, ldy);
    };
    expect_error(call(-1, 4, x.data(), 4, y.data(), 4), "rows must be >= 0");
    expect_error(call(4, -1, x.data(), 4, y.data(), 4), "cols must be >= 0");
    expect_error(call(4, 4, x.data(), 3, y.data(), 4), "ldx");
    expect_error(call(4, 4, x.data(), 4, y.data(), 2), "ldy");
    expect_error(call(4, 4, nullptr, 4, y.data(), 4), "x is null");
    expect_error(call(4, 4, x.data(), 4, nullptr, 4), "y is null");
    // In place needs the same pointer and the same leading dimension.
    expect_error(call(4, 4, y.data(), 4, y.data() + 1, 4), "y overlaps x");
    expect_error(call(4, 4, y.data(), 8, y.data(), 4), "y overlaps x");
  }
  CHECK(y == y0);
}

}  // namespace
}  // namespace tessera
