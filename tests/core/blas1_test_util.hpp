// Helpers of the dot/gemv suites: strided operands in BLAS layout and an
// independent reference (long double accumulation, plain loops, written
// from the BLAS definition, not from tessera's code).
#pragma once

#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "support/test_support.hpp"
#include "tessera/tessera.hpp"

namespace tessera::test::blas1 {

// Where element i of a BLAS vector of `len` elements with increment inc
// lives in its buffer.
inline std::size_t at(std::int64_t i, std::int64_t len, std::int64_t inc) {
  return static_cast<std::size_t>(inc > 0 ? i * inc : (len - 1 - i) * -inc);
}
inline std::size_t buffer_len(std::int64_t len, std::int64_t inc) {
  return len == 0 ? 0 : static_cast<std::size_t>((len - 1) * (inc < 0 ? -inc : inc) + 1);
}

template <class T>
std::vector<T> random_vec(std::size_t n, std::uint64_t seed) {
  test::Rng rng(seed);
  std::vector<T> v(n);
  for (T& e : v) e = static_cast<T>(rng.uniform_f64(-1.0, 1.0));
  return v;
}

struct GemvShape {
  Layout layout = Layout::kRowMajor;
  Transpose trans = Transpose::kNo;
  std::int64_t m = 0, n = 0, lda_pad = 0, incx = 1, incy = 1;
  double alpha = 1, beta = 0;
  std::int64_t rows() const { return trans == Transpose::kNo ? m : n; }   // y
  std::int64_t depth() const { return trans == Transpose::kNo ? n : m; }  // x
  std::int64_t lda() const {
    return (layout == Layout::kRowMajor ? std::max<std::int64_t>(1, n) : std::max<std::int64_t>(1, m)) +
           lda_pad;
  }
  std::size_t a_len() const {
    return static_cast<std::size_t>((layout == Layout::kRowMajor ? m : n) * lda());
  }
  std::string describe() const {
    return std::string(layout_name(layout)) + " " + transpose_name(trans) + " m=" +
           std::to_string(m) + " n=" + std::to_string(n) + " lda=" + std::to_string(lda()) +
           " incx=" + std::to_string(incx) + " incy=" + std::to_string(incy) +
           " alpha=" + std::to_string(alpha) + " beta=" + std::to_string(beta);
  }
};

template <class T>
struct GemvOperands {
  std::vector<T> a, x, y;
};

template <class T>
GemvOperands<T> make_gemv(const GemvShape& s, std::uint64_t seed) {
  GemvOperands<T> o;
  o.a = random_vec<T>(s.a_len(), seed);
  o.x = random_vec<T>(buffer_len(s.depth(), s.incx), seed + 1);
  o.y = random_vec<T>(buffer_len(s.rows(), s.incy), seed + 2);
  return o;
}

template <class T>
Status run_gemv(const Context& context, const GemvShape& s, const GemvOperands<T>& o,
                std::vector<T>* y, Parallelism parallelism = {}) {
  *y = o.y;
  return try_gemv(context, s.layout, s.trans, s.m, s.n, static_cast<T>(s.alpha), o.a.data(),
                  s.lda(), o.x.data(), s.incx, static_cast<T>(s.beta), y->data(), s.incy,
                  parallelism);
}

// The reference: y_i = alpha * sum_p op(A)(i,p) x_p + beta * y_i, and a
// bound on the rounding error of any summation order in T:
// (depth + 4) * eps * (|alpha| * sum |a x| + |beta y|).
template <class T>
void reference_gemv(const GemvShape& s, const GemvOperands<T>& o, std::vector<long double>* want,
                    std::vector<long double>* bound) {
  const std::int64_t rows = s.rows(), depth = s.depth();
  want->assign(static_cast<std::size_t>(rows), 0.0L);
  bound->assign(static_cast<std::size_t>(rows), 0.0L);
  const long double eps = std::numeric_limits<T>::epsilon();
  for (std::int64_t i = 0; i < rows; ++i) {
    long double sum = 0, mag = 0;
    for (std::int64_t p = 0; p < depth; ++p) {
      // op(A)(i, p) = A(i, p) or A(p, i), A(r, c) at row-major r*lda+c or col-major r+c*lda.
      const std::int64_t r = s.trans == Transpose::kNo ? i : p;
      const std::int64_t c = s.trans == Transpose::kNo ? p : i;
      const std::int64_t idx = s.layout == Layout::kRowMajor ? r * s.lda() + c : r + c * s.lda();
      const long double term = static_cast<long double>(o.a[static_cast<std::size_t>(idx)]) *
                               o.x[at(p, depth, s.incx)];
      sum += term;
      mag += std::fabs(term);
    }
    const long double y0 = o.y[at(i, rows, s.incy)];
    long double v = s.alpha == 0 ? 0.0L : static_cast<long double>(s.alpha) * sum;
    if (s.beta != 0) v += static_cast<long double>(s.beta) * y0;
    if (s.m == 0 || s.n == 0) v = y0;  // BLAS: an empty A leaves y as it was
    (*want)[static_cast<std::size_t>(i)] = v;
    (*bound)[static_cast<std::size_t>(i)] =
        (depth + 4) * eps *
            (std::fabs(static_cast<long double>(s.alpha)) * mag +
             std::fabs(static_cast<long double>(s.beta) * y0)) +
        std::numeric_limits<T>::denorm_min();
  }
}

// Every y element within its bound, every element outside the walk of y
// untouched.
template <class T>
void check_gemv(const GemvShape& s, const GemvOperands<T>& o, const std::vector<T>& got,
                const char* what) {
  std::vector<long double> want, bound;
  reference_gemv(s, o, &want, &bound);
  std::vector<bool> touched(got.size(), false);
  int bad = 0;
  for (std::int64_t i = 0; i < s.rows(); ++i) {
    const std::size_t idx = at(i, s.rows(), s.incy);
    touched[idx] = true;
    const long double err = std::fabs(static_cast<long double>(got[idx]) - want[static_cast<std::size_t>(i)]);
    if (!(err <= bound[static_cast<std::size_t>(i)]) && bad++ < 3) {
      FAIL_CHECK(what, " ", s.describe(), ": y[", i, "] = ", static_cast<double>(got[idx]),
                 ", want ", static_cast<double>(want[static_cast<std::size_t>(i)]), " +- ",
                 static_cast<double>(bound[static_cast<std::size_t>(i)]));
    }
  }
  for (std::size_t idx = 0; idx < got.size(); ++idx) {
    if (!touched[idx] && std::memcmp(&got[idx], &o.y[idx], sizeof(T)) != 0 && bad++ < 3) {
      FAIL_CHECK(what, " ", s.describe(), ": y buffer element ", idx, " between strides changed");
    }
  }
}

template <class T>
bool same_bits(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

}  // namespace tessera::test::blas1
