// The C API's last-axis reductions and softmax: every function and dtype
// reaches its kernel (checked against the tests' reference), and errors come
// back as codes with a message naming the argument, nothing written.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "tessera/tessera.h"
#include "tests/core/reduce_test_util.hpp"

namespace {

namespace rt = tessera::test::reduce;
using tessera::ReduceOp;

template <class T>
using CReduce = tsr_status (*)(const tsr_context*, int64_t, int64_t, const T*, int64_t, T*, int);

template <class T>
void check_dtype(CReduce<T> sum, CReduce<T> max, CReduce<T> mean,
                 tsr_status (*argmax)(const tsr_context*, int64_t, int64_t, const T*, int64_t,
                                      int64_t*, int)) {
  const rt::RowShape s{7, 4101, 2};
  const std::vector<T> x = rt::random_matrix<T>(s, 99);
  std::vector<T> out(7);
  const struct {
    ReduceOp op;
    CReduce<T> fn;
  } entries[] = {{ReduceOp::kSum, sum}, {ReduceOp::kMax, max}, {ReduceOp::kMean, mean}};
  for (const auto& e : entries) {
    for (int threads : {-1, 0, 2}) {
      REQUIRE(e.fn(nullptr, s.rows, s.cols, x.data(), s.ld(), out.data(), threads) == TSR_OK);
      rt::check_reduce(e.op, s, x, out, "C API");
    }
  }
  std::vector<int64_t> index(7, -1);
  REQUIRE(argmax(nullptr, s.rows, s.cols, x.data(), s.ld(), index.data(), 0) == TSR_OK);
  for (int64_t r = 0; r < s.rows; ++r) {
    CHECK(index[static_cast<std::size_t>(r)] == rt::first_max(rt::row_of(s, x, r), s.cols));
  }
  // Errors: a code, a message naming the argument, nothing written.
  std::fill(out.begin(), out.end(), T(5));
  CHECK(sum(nullptr, 3, 10, x.data(), 9, out.data(), 0) == TSR_INVALID_ARGUMENT);
  CHECK(std::string(tsr_last_error_message()).find("ldx") != std::string::npos);
  CHECK(max(nullptr, 3, 0, x.data(), 1, out.data(), 0) == TSR_INVALID_ARGUMENT);
  CHECK(std::string(tsr_last_error_message()).find("cols is 0") != std::string::npos);
  CHECK(mean(nullptr, 3, 10, x.data(), 10, out.data(), -7) == TSR_INVALID_ARGUMENT);
  CHECK(std::string(tsr_last_error_message()).find("parallelism") != std::string::npos);
  CHECK(out == std::vector<T>(7, T(5)));
}

TEST_CASE("C API: tsr_{sum,max,mean,argmax}_rows_{f32,f64} reach their kernels") {
  check_dtype<float>(&tsr_sum_rows_f32, &tsr_max_rows_f32, &tsr_mean_rows_f32,
                     &tsr_argmax_rows_f32);
  check_dtype<double>(&tsr_sum_rows_f64, &tsr_max_rows_f64, &tsr_mean_rows_f64,
                      &tsr_argmax_rows_f64);
}

TEST_CASE("C API: softmax rows reject a partial overlap, naming y") {
  std::vector<float> x(32, 1.0f);
  CHECK(tsr_softmax_rows_f32(nullptr, 2, 8, x.data(), 8, x.data() + 1, 8, 0) ==
        TSR_INVALID_ARGUMENT);
  CHECK(std::string(tsr_last_error_message()).find("y overlaps x") != std::string::npos);
  std::vector<double> xd(32, 1.0);
  CHECK(tsr_log_softmax_rows_f64(nullptr, 2, 8, xd.data(), 8, xd.data(), 4, 0) ==
        TSR_INVALID_ARGUMENT);
  CHECK(std::string(tsr_last_error_message()).find("ldy") != std::string::npos);
}

}  // namespace
