#include "blas1_selftest.hpp"

#include <cmath>
#include <cstdio>
#include <limits>
#include <vector>

#include "blas1_seeded.hpp"

namespace tessera::cli {
namespace {

std::size_t at(std::int64_t i, std::int64_t len, std::int64_t inc) {
  return static_cast<std::size_t>(inc > 0 ? i * inc : (len - 1 - i) * -inc);
}

// Within 2 (n + 4) eps sum |x y| of the naive (double-accumulated) result.
template <class T>
std::size_t dot_mismatches(const Context& naive, const Context& context) {
  const std::int64_t cases[][3] = {{0, 1, 1}, {1, 1, 1}, {17, -2, 1}, {4097, 1, -1},
                                   {20011, 3, 2}};
  std::size_t bad = 0;
  for (const auto& c : cases) {
    const SeededDot<T> d(c[0], c[1], c[2], 5);
    T expected = 0, actual = 0;
    if (!d.run(naive, &expected).ok() || !d.run(context, &actual).ok()) {
      ++bad;
      continue;
    }
    double magnitude = 0;
    for (std::int64_t i = 0; i < d.n; ++i) {
      magnitude += std::fabs(static_cast<double>(d.x[at(i, d.n, d.incx)]) *
                             static_cast<double>(d.y[at(i, d.n, d.incy)]));
    }
    const double bound = 2.0 * static_cast<double>(d.n + 4) *
                         std::numeric_limits<T>::epsilon() * magnitude;
    if (!(std::fabs(static_cast<double>(actual) - static_cast<double>(expected)) <= bound)) ++bad;
  }
  return bad;
}

template <class T>
std::size_t gemv_mismatches(const Context& naive, const Context& context) {
  struct Case {
    Layout layout;
    Transpose trans;
    std::int64_t m, n, incx, incy;
  };
  const Case cases[] = {
      {Layout::kRowMajor, Transpose::kNo, 1, 1, 1, 1},
      {Layout::kRowMajor, Transpose::kNo, 131, 67, 1, -2},
      {Layout::kRowMajor, Transpose::kYes, 33, 1031, -1, 1},
      {Layout::kColMajor, Transpose::kNo, 67, 131, 2, 1},
      {Layout::kColMajor, Transpose::kYes, 300, 17, 1, 3},
  };
  std::size_t bad = 0;
  for (const Case& c : cases) {
    const SeededGemv<T> g(c.layout, c.trans, c.m, c.n, c.incx, c.incy, 5);
    std::vector<T> expected = g.y, actual = g.y;
    if (!g.run(naive, expected.data()).ok() || !g.run(context, actual.data()).ok()) {
      ++bad;
      continue;
    }
    // |a|, |x| <= 1, so sum_p |a x| <= depth.
    const double depth = static_cast<double>(g.x_len());
    const double eps = std::numeric_limits<T>::epsilon();
    for (std::size_t i = 0; i < actual.size(); ++i) {
      const double bound =
          2.0 * (depth + 4) * eps * (std::fabs(kGemvAlpha) * depth + std::fabs(kGemvBeta)) ;
      if (!(std::fabs(static_cast<double>(actual[i]) - static_cast<double>(expected[i])) <= bound)) {
        ++bad;
      }
    }
  }
  return bad;
}

}  // namespace

void selftest_blas1(const Context& naive, const Context& context, int* passes, int* failures) {
  for (int f64 = 0; f64 < 2; ++f64) {
    const std::size_t dot_bad = f64 ? dot_mismatches<double>(naive, context)
                                    : dot_mismatches<float>(naive, context);
    const std::size_t gemv_bad = f64 ? gemv_mismatches<double>(naive, context)
                                     : gemv_mismatches<float>(naive, context);
    for (int op = 0; op < 2; ++op) {
      const std::size_t bad = op == 0 ? dot_bad : gemv_bad;
      std::printf("%s %-6s %s %-8s\n", bad == 0 ? "PASS" : "FAIL", op == 0 ? "dot" : "gemv",
                  f64 ? "f64" : "f32", isa_name(context.isa()));
      (bad == 0 ? *passes : *failures) += 1;
    }
  }
}

}  // namespace tessera::cli
