// dot and gemv against an independent long-double reference
// (tests/core/blas1_test_util.hpp) on every ISA level the host supports and
// on the naive family: edge shapes (0, 1, primes, non-multiples of every
// vector width and register panel, a block edge of dot), padded lda, both
// layouts, both transposes, negative and non-unit increments, alpha/beta
// special values.
#include <cmath>
#include <limits>

#include "tests/core/blas1_test_util.hpp"

namespace tessera {
namespace {

using test::blas1::at;
using test::blas1::buffer_len;
using test::blas1::GemvShape;

std::vector<Context> contexts() {
  std::vector<Context> out;
  for (Isa isa : test::host_isas()) out.push_back(test::context_for(isa));
  out.push_back(test::naive_context());
  return out;
}

const char* name_of(const Context& c) {
  return c.family() == KernelFamily::kNaive ? "naive" : isa_name(c.isa());
}

template <class T>
void check_dot(const Context& context, std::int64_t n, std::int64_t incx, std::int64_t incy) {
  const std::vector<T> x = test::blas1::random_vec<T>(buffer_len(n, incx), 11 + n);
  const std::vector<T> y = test::blas1::random_vec<T>(buffer_len(n, incy), 97 + n);
  long double want = 0, mag = 0;
  for (std::int64_t i = 0; i < n; ++i) {
    const long double t = static_cast<long double>(x[at(i, n, incx)]) * y[at(i, n, incy)];
    want += t;
    mag += std::fabs(t);
  }
  T got = T(-7);
  const Status s = try_dot(context, n, x.data(), incx, y.data(), incy, &got);
  REQUIRE_MESSAGE(s.ok(), s.to_string());
  const long double bound = (n + 2) * std::numeric_limits<T>::epsilon() * mag;
  CHECK_MESSAGE(std::fabs(static_cast<long double>(got) - want) <= bound, name_of(context), " ",
                sizeof(T) == 4 ? "f32" : "f64", " n=", n, " incx=", incx, " incy=", incy,
                ": got ", static_cast<double>(got), " want ", static_cast<double>(want));
}

TEST_CASE("dot matches the reference on every level, sizes and increments") {
  const std::int64_t sizes[] = {0, 1, 2, 3, 7, 15, 16, 17, 31, 33, 63, 64, 65, 127, 257,
                                4095, 4096, 4097, 8191, 12289, 20011};
  const std::int64_t incs[][2] = {{1, 1}, {2, 1}, {1, -1}, {-3, 2}, {-1, -1}, {5, -4}};
  for (const Context& context : contexts()) {
    for (std::int64_t n : sizes) {
      for (const auto& inc : incs) {
        check_dot<float>(context, n, inc[0], inc[1]);
        check_dot<double>(context, n, inc[0], inc[1]);
      }
    }
  }
}

TEST_CASE("dot: unit and non-unit increments over the same values give the same bits") {
  // The strided path gathers into chunks that run the contiguous order.
  for (Isa isa : test::host_isas()) {
    const Context context = test::context_for(isa);
    const std::int64_t n = 9001;
    const std::vector<float> x = test::blas1::random_vec<float>(n, 1);
    const std::vector<float> y = test::blas1::random_vec<float>(n, 2);
    std::vector<float> xs(static_cast<std::size_t>(3 * n)), yr(static_cast<std::size_t>(n));
    for (std::int64_t i = 0; i < n; ++i) {
      xs[static_cast<std::size_t>(3 * i)] = x[static_cast<std::size_t>(i)];
      yr[static_cast<std::size_t>(n - 1 - i)] = y[static_cast<std::size_t>(i)];
    }
    float unit = 0, strided = 1;
    REQUIRE(try_dot(context, n, x.data(), 1, y.data(), 1, &unit).ok());
    REQUIRE(try_dot(context, n, xs.data(), 3, yr.data(), -1, &strided).ok());
    CHECK_MESSAGE(std::memcmp(&unit, &strided, sizeof unit) == 0, isa_name(isa));
  }
}

template <class T>
void check_gemv_shape(const Context& context, const GemvShape& s, std::uint64_t seed) {
  const test::blas1::GemvOperands<T> o = test::blas1::make_gemv<T>(s, seed);
  std::vector<T> y;
  const Status st = test::blas1::run_gemv(context, s, o, &y);
  REQUIRE_MESSAGE(st.ok(), st.to_string(), " ", s.describe());
  test::blas1::check_gemv(s, o, y, name_of(context));
}

TEST_CASE("gemv matches the reference on every level: layouts, transposes, edges, increments") {
  const std::int64_t dims[] = {0, 1, 2, 3, 4, 5, 7, 8, 13, 16, 17, 31, 33, 64, 67, 131};
  const std::int64_t incs[][2] = {{1, 1}, {1, -1}, {-2, 3}, {3, 1}};
  const double alphas[] = {1.0, -0.75};
  const double betas[] = {0.0, 1.0, -1.5};
  for (const Context& context : contexts()) {
    std::uint64_t seed = 1;
    for (Layout layout : {Layout::kRowMajor, Layout::kColMajor}) {
      for (Transpose trans : {Transpose::kNo, Transpose::kYes}) {
        for (std::int64_t m : dims) {
          for (std::int64_t n : dims) {
            // All increments and scalars on a sparse subset, unit on all.
            const bool full = (m + n) % 5 == 0;
            for (const auto& inc : incs) {
              for (double alpha : alphas) {
                for (double beta : betas) {
                  if (!full && (inc[0] != 1 || inc[1] != 1 || alpha != 1.0 || beta != -1.5)) {
                    continue;
                  }
                  GemvShape s{layout, trans, m, n, (m + n) % 3 == 0 ? 5 : 0, inc[0], inc[1],
                              alpha, beta};
                  check_gemv_shape<float>(context, s, ++seed);
                  check_gemv_shape<double>(context, s, ++seed);
                }
              }
            }
          }
        }
      }
    }
  }
}

TEST_CASE("gemv: long rows and columns, large lda (crosses the driver's 1024-row chunk)") {
  for (const Context& context : contexts()) {
    for (Layout layout : {Layout::kRowMajor, Layout::kColMajor}) {
      for (Transpose trans : {Transpose::kNo, Transpose::kYes}) {
        GemvShape s{layout, trans, 1031, 263, 37, 1, 1, 0.5, 2.0};
        check_gemv_shape<float>(context, s, 5);
        check_gemv_shape<double>(context, s, 6);
        GemvShape t{layout, trans, 3, 2053, 1000, -2, 1, 1.0, 0.0};
        check_gemv_shape<float>(context, t, 7);
      }
    }
  }
}

TEST_CASE("gemv: beta == 0 overwrites NaN in y; alpha == 0 does not read A or x") {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  for (const Context& context : contexts()) {
    for (Layout layout : {Layout::kRowMajor, Layout::kColMajor}) {
      for (Transpose trans : {Transpose::kNo, Transpose::kYes}) {
        const std::int64_t m = 19, n = 21;
        const std::vector<float> a = test::blas1::random_vec<float>(m * n, 3);
        const std::vector<float> x(static_cast<std::size_t>(std::max(m, n)), 0.5f);
        std::vector<float> y(static_cast<std::size_t>(std::max(m, n)), nan);
        const std::int64_t lda = layout == Layout::kRowMajor ? n : m;
        REQUIRE(try_gemv(context, layout, trans, m, n, 1.0f, a.data(), lda, x.data(), 1, 0.0f,
                         y.data(), 1)
                    .ok());
        const std::int64_t rows = trans == Transpose::kNo ? m : n;
        for (std::int64_t i = 0; i < rows; ++i) CHECK(!std::isnan(y[static_cast<std::size_t>(i)]));

        // alpha == 0 with NaN in A and x: y = beta * y exactly.
        const std::vector<float> a_nan(a.size(), nan), x_nan(x.size(), nan);
        std::vector<float> z(y.size(), 2.0f);
        REQUIRE(try_gemv(context, layout, trans, m, n, 0.0f, a_nan.data(), lda, x_nan.data(), 1,
                         -0.5f, z.data(), 1)
                    .ok());
        for (std::int64_t i = 0; i < rows; ++i) CHECK(z[static_cast<std::size_t>(i)] == -1.0f);
      }
    }
  }
}

TEST_CASE("gemv: NaN and Inf in A propagate as IEEE arithmetic says") {
  for (const Context& context : contexts()) {
    const std::int64_t m = 9, n = 37;
    std::vector<double> a = test::blas1::random_vec<double>(m * n, 8);
    a[2 * n + 5] = std::numeric_limits<double>::quiet_NaN();
    a[6 * n + 30] = std::numeric_limits<double>::infinity();
    const std::vector<double> x(n, 1.0);
    std::vector<double> y(m, 0.0);
    REQUIRE(try_gemv(context, Layout::kRowMajor, Transpose::kNo, m, n, 1.0, a.data(), n,
                     x.data(), 1, 0.0, y.data(), 1)
                .ok());
    for (std::int64_t i = 0; i < m; ++i) {
      if (i == 2) {
        CHECK(std::isnan(y[2]));
      } else if (i == 6) {
        CHECK(std::isinf(y[6]));
      } else {
        CHECK(std::isfinite(y[static_cast<std::size_t>(i)]));
      }
    }
  }
}

}  // namespace
}  // namespace tessera
