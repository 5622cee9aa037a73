// dot and gemv bad input (design.md §Bad input): each error is invalid_argument, names
// the argument, and comes before anything is written.
#include <algorithm>
#include <string>

#include "tessera/tessera.h"
#include "tests/core/blas1_test_util.hpp"

namespace tessera {
namespace {

void expect_error(const Status& s, const std::string& name) {
  CHECK(s.code() == StatusCode::kInvalidArgument);
  CHECK_MESSAGE(s.message().find(name) != std::string::npos, s.message(), " should name ", name);
}

TEST_CASE("dot: negative n, zero increments, null pointers, null result are named errors") {
  const Context context = test::context_for(test::host_isas().back());
  std::vector<float> x(8, 1.0f), y(8, 1.0f);
  float r = 42.0f;
  expect_error(try_dot(context, -1, x.data(), 1, y.data(), 1, &r), "n must be >= 0");
  expect_error(try_dot(context, 4, x.data(), 0, y.data(), 1, &r), "incx");
  expect_error(try_dot(context, 4, x.data(), 1, y.data(), 0, &r), "incy");
  expect_error(try_dot(context, 4, static_cast<const float*>(nullptr), 1, y.data(), 1, &r), "x is null");
  expect_error(try_dot(context, 4, x.data(), 1, static_cast<const float*>(nullptr), 1, &r), "y is null");
  expect_error(try_dot(context, 4, x.data(), 1, y.data(), 1, static_cast<float*>(nullptr)), "result");
  expect_error(try_dot(context, 4, x.data(), 1, y.data(), 1, &r, Parallelism::threads(-3)),
               "parallelism");
  expect_error(try_dot(context, std::int64_t{1} << 40, x.data(), std::int64_t{1} << 40, y.data(),
                       1, &r),
               "spans more memory");
  CHECK(r == 42.0f);
  // Null with n == 0 is fine and gives 0.
  double d = 5.0;
  CHECK(try_dot(context, 0, static_cast<const double*>(nullptr), 1,
                static_cast<const double*>(nullptr), -1, &d)
            .ok());
  CHECK(d == 0.0);
}

TEST_CASE("gemv: bad arguments are named errors and y is untouched") {
  const Context context = test::context_for(test::host_isas().back());
  const std::int64_t m = 6, n = 5;
  std::vector<double> a(static_cast<std::size_t>(m * n), 1.0), x(8, 1.0);
  const std::vector<double> y0(8, 3.0);
  std::vector<double> y = y0;
  auto call = [&](Layout layout, Transpose t, std::int64_t mm, std::int64_t nn, const double* pa,
                  std::int64_t lda, const double* px, std::int64_t incx, double* py,
                  std::int64_t incy) {
    return try_gemv(context, layout, t, mm, nn, 1.0, pa, lda, px, incx, 0.0, py, incy);
  };
  const auto R = Layout::kRowMajor, C = Layout::kColMajor;
  const auto N = Transpose::kNo, T = Transpose::kYes;
  expect_error(call(R, N, -1, n, a.data(), n, x.data(), 1, y.data(), 1), "m must be >= 0");
  expect_error(call(R, N, m, -2, a.data(), n, x.data(), 1, y.data(), 1), "n must be >= 0");
  expect_error(call(R, N, m, n, a.data(), n - 1, x.data(), 1, y.data(), 1), "lda");
  expect_error(call(C, N, m, n, a.data(), m - 1, x.data(), 1, y.data(), 1), "lda");
  expect_error(call(R, N, m, n, a.data(), n, x.data(), 0, y.data(), 1), "incx");
  expect_error(call(R, N, m, n, a.data(), n, x.data(), 1, y.data(), 0), "incy");
  expect_error(call(R, N, m, n, nullptr, n, x.data(), 1, y.data(), 1), "a is null");
  expect_error(call(R, T, m, n, a.data(), n, nullptr, 1, y.data(), 1), "x is null");
  expect_error(call(R, T, m, n, a.data(), n, x.data(), 1, nullptr, 1), "y is null");
  expect_error(call(static_cast<Layout>(7), N, m, n, a.data(), n, x.data(), 1, y.data(), 1),
               "layout");
  expect_error(call(R, static_cast<Transpose>(2), m, n, a.data(), n, x.data(), 1, y.data(), 1),
               "trans");
  // y overlapping A or x (partially, or exactly: gemv has no in-place form).
  expect_error(call(R, N, 2, 2, a.data(), 2, x.data(), 1, a.data() + 3, 1), "y overlaps a");
  expect_error(call(R, N, 2, 3, a.data(), 3, x.data(), 1, x.data() + 2, 1), "y overlaps x");
  expect_error(call(R, N, 2, 2, a.data(), 2, x.data(), 1, x.data(), 1), "y overlaps x");
  // A negative increment walks back from the given (lowest) address: the
  // span is still [y, y + (len-1)*|inc|], which here reaches into x.
  expect_error(call(R, N, 3, 2, a.data(), 2, x.data() + 4, 1, x.data(), -2), "y overlaps x");
  CHECK(y == y0);
  CHECK(std::all_of(x.begin(), x.end(), [](double v) { return v == 1.0; }));
  // Null pointers with empty extents are valid (a no-op).
  CHECK(call(R, N, 0, 0, nullptr, 1, nullptr, 1, nullptr, 1).ok());
  CHECK(call(R, N, 0, 4, nullptr, 4, x.data(), 1, nullptr, 1).ok());
}

TEST_CASE("gemv: m == 0 or n == 0 leaves y as it was (as BLAS)") {
  const Context context = test::context_for(test::host_isas().back());
  std::vector<float> y = {1.0f, 2.0f, 3.0f};
  const std::vector<float> x = {1.0f};
  CHECK(try_gemv(context, Layout::kRowMajor, Transpose::kNo, 3, 0, 1.0f,
                 static_cast<const float*>(nullptr), 1, x.data(), 1, 0.0f, y.data(), 1)
            .ok());
  CHECK(y == std::vector<float>{1.0f, 2.0f, 3.0f});
}

TEST_CASE("C API: tsr_sdot, tsr_ddot, tsr_sgemv, tsr_dgemv compute and report errors") {
  tsr_context* ctx = nullptr;
  REQUIRE(tsr_context_create(nullptr, &ctx) == TSR_OK);
  const float xf[] = {1, 2, 3}, yf[] = {4, 5, 6};
  float rf = 0;
  CHECK(tsr_sdot(ctx, 3, xf, 1, yf, 1, &rf, 0) == TSR_OK);
  CHECK(rf == 32.0f);
  CHECK(tsr_sdot(ctx, 3, xf, -1, yf, 1, &rf, 0) == TSR_OK);  // x reversed: 3*4+2*5+1*6
  CHECK(rf == 28.0f);
  double rd = 0;
  const double xd[] = {1, 2}, yd[] = {3, 4};
  CHECK(tsr_ddot(ctx, 2, xd, 1, yd, 1, &rd, 1) == TSR_OK);
  CHECK(rd == 11.0);
  CHECK(tsr_ddot(ctx, 2, xd, 0, yd, 1, &rd, 0) == TSR_INVALID_ARGUMENT);
  CHECK(std::string(tsr_last_error_message()).find("incx") != std::string::npos);

  // [1 2 3; 4 5 6] row-major: A x and A^T x.
  const float a[] = {1, 2, 3, 4, 5, 6};
  const float x3[] = {1, 1, 1}, x2[] = {1, -1};
  float y2[] = {9, 9}, y3[] = {1, 1, 1};
  CHECK(tsr_sgemv(ctx, TSR_ROW_MAJOR, TSR_NO_TRANS, 2, 3, 1.0f, a, 3, x3, 1, 0.0f, y2, 1, 0) ==
        TSR_OK);
  CHECK(y2[0] == 6.0f);
  CHECK(y2[1] == 15.0f);
  CHECK(tsr_sgemv(ctx, TSR_ROW_MAJOR, TSR_TRANS, 2, 3, 2.0f, a, 3, x2, 1, 1.0f, y3, 1, 0) ==
        TSR_OK);
  CHECK(y3[0] == -5.0f);  // 2 * (1 - 4) + 1
  CHECK(y3[2] == -5.0f);  // 2 * (3 - 6) + 1
  const double ad[] = {1, 2, 3, 4};  // column-major [1 3; 2 4]
  const double xd2[] = {1, 1};
  double yd2[] = {0, 0};
  CHECK(tsr_dgemv(ctx, TSR_COL_MAJOR, TSR_NO_TRANS, 2, 2, 1.0, ad, 2, xd2, 1, 0.0, yd2, -1, 0) ==
        TSR_OK);
  CHECK(yd2[1] == 4.0);  // element 0 (row 0 = 1 + 3) is last in memory with incy = -1
  CHECK(yd2[0] == 6.0);
  CHECK(tsr_dgemv(ctx, TSR_COL_MAJOR, static_cast<tsr_transpose>(5), 2, 2, 1.0, ad, 2, xd2, 1,
                  0.0, yd2, 1, 0) == TSR_INVALID_ARGUMENT);
  tsr_context_destroy(ctx);
}

}  // namespace
}  // namespace tessera

namespace tessera {
namespace {

TEST_CASE("inventory lists dot and gemv, f32 and f64, for every level and the naive family") {
  const Context context = test::context_for(test::host_isas().back());
  for (const char* op : {"dot", "gemv"}) {
    for (const char* dtype : {"f32", "f64"}) {
      int selected = 0, naive = 0;
      std::vector<Isa> levels;
      for (const KernelRecord& r : kernel_inventory(context)) {
        if (r.op != op || r.dtype != dtype) continue;
        if (r.selected) ++selected;
        if (r.family == KernelFamily::kNaive) {
          ++naive;
        } else {
          levels.push_back(r.isa);
        }
      }
      CHECK_MESSAGE(selected == 1, op, " ", dtype);
      CHECK_MESSAGE(naive == 1, op, " ", dtype);
      for (Isa isa : supported_isas()) {
        CHECK_MESSAGE(std::find(levels.begin(), levels.end(), isa) != levels.end(), op, " ",
                      dtype, " on ", isa_name(isa));
      }
    }
  }
}

}  // namespace
}  // namespace tessera
