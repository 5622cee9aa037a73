// libtessera_blas's level-1 routines beyond dot, through their Fortran and
// CBLAS entry points, against naive references written here from the BLAS
// definitions (long double sums), on what the reference testers of Debian's
// libblas-test (LAPACK 3.11) do not reach: nrm2 over values whose squares
// overflow or underflow, Inf and NaN; negative and zero increments with
// guard elements that must stay untouched; i?amax's ties and NaNs.
#include <doctest/doctest.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

extern "C" {
void saxpy_(const int*, const float*, const float*, const int*, float*, const int*);
void daxpy_(const int*, const double*, const double*, const int*, double*, const int*);
void sscal_(const int*, const float*, float*, const int*);
void dscal_(const int*, const double*, double*, const int*);
void scopy_(const int*, const float*, const int*, float*, const int*);
void dcopy_(const int*, const double*, const int*, double*, const int*);
void sswap_(const int*, float*, const int*, float*, const int*);
void dswap_(const int*, double*, const int*, double*, const int*);
float sasum_(const int*, const float*, const int*);
double dasum_(const int*, const double*, const int*);
float snrm2_(const int*, const float*, const int*);
double dnrm2_(const int*, const double*, const int*);
int isamax_(const int*, const float*, const int*);
int idamax_(const int*, const double*, const int*);
std::size_t cblas_isamax(int, const float*, int);
std::size_t cblas_idamax(int, const double*, int);
float cblas_snrm2(int, const float*, int);
double cblas_dnrm2(int, const double*, int);
}

namespace {

// The Fortran routines of one precision, so each test runs for both.
template <class T>
struct Level1;
template <>
struct Level1<float> {
  static constexpr auto axpy = saxpy_;
  static constexpr auto scal = sscal_;
  static constexpr auto copy = scopy_;
  static constexpr auto swap = sswap_;
  static constexpr auto asum = sasum_;
  static constexpr auto nrm2 = snrm2_;
  static constexpr auto iamax = isamax_;
  static constexpr auto cblas_nrm2 = cblas_snrm2;
  static constexpr auto cblas_iamax = cblas_isamax;
};
template <>
struct Level1<double> {
  static constexpr auto axpy = daxpy_;
  static constexpr auto scal = dscal_;
  static constexpr auto copy = dcopy_;
  static constexpr auto swap = dswap_;
  static constexpr auto asum = dasum_;
  static constexpr auto nrm2 = dnrm2_;
  static constexpr auto iamax = idamax_;
  static constexpr auto cblas_nrm2 = cblas_dnrm2;
  static constexpr auto cblas_iamax = cblas_idamax;
};

// Storage offset of logical element i of an n-vector with increment inc
// (the BLAS definition: a negative increment starts at (n-1)*|inc|).
std::int64_t at(std::int64_t i, std::int64_t n, std::int64_t inc) {
  return inc >= 0 ? i * inc : (n - 1 - i) * -inc;
}
std::size_t footprint(int n, int inc) {
  return static_cast<std::size_t>(1 + (n - 1) * (inc < 0 ? -inc : inc));
}

// Small values that are exact in both precisions, distinct per position.
template <class T>
std::vector<T> values(std::size_t size, int seed) {
  std::vector<T> v(size);
  for (std::size_t i = 0; i < size; ++i) {
    v[i] = T(static_cast<int>((i * 7 + static_cast<std::size_t>(seed) * 13) % 23) - 11) / T(4);
  }
  return v;
}

const int kSizes[] = {0, 1, 2, 7, 33};
const int kIncs[] = {1, 2, 3, -1, -2};

TEST_CASE_TEMPLATE("axpy, copy and swap follow the BLAS walk, guards untouched", T, float,
                   double) {
  for (int n : kSizes) {
    for (int incx : kIncs) {
      for (int incy : {1, -3, 2}) {
        if (n == 0) continue;
        const std::size_t guard = 5;
        const std::vector<T> x0 = values<T>(footprint(n, incx) + guard, 1);
        const std::vector<T> y0 = values<T>(footprint(n, incy) + guard, 2);
        const T alpha = T(0.75);
        std::vector<T> x = x0, y = y0;
        Level1<T>::axpy(&n, &alpha, x.data(), &incx, y.data(), &incy);
        std::vector<T> want = y0;
        for (int i = 0; i < n; ++i) {
          want[static_cast<std::size_t>(at(i, n, incy))] +=
              alpha * x0[static_cast<std::size_t>(at(i, n, incx))];
        }
        // Quarter-integers times 0.75 plus quarter-integers: exact, fused or not.
        CHECK(y == want);
        CHECK(x == x0);

        y = y0;
        Level1<T>::copy(&n, x.data(), &incx, y.data(), &incy);
        want = y0;
        for (int i = 0; i < n; ++i) {
          want[static_cast<std::size_t>(at(i, n, incy))] =
              x0[static_cast<std::size_t>(at(i, n, incx))];
        }
        CHECK(y == want);

        y = y0;
        Level1<T>::swap(&n, x.data(), &incx, y.data(), &incy);
        std::vector<T> want_x = x0, want_y = y0;
        for (int i = 0; i < n; ++i) {
          const auto ix = static_cast<std::size_t>(at(i, n, incx));
          const auto iy = static_cast<std::size_t>(at(i, n, incy));
          want_x[ix] = y0[iy];
          want_y[iy] = x0[ix];
        }
        CHECK(x == want_x);
        CHECK(y == want_y);
      }
    }
  }
}

TEST_CASE_TEMPLATE("a zero increment repeats one element; n <= 0 and alpha = 0 change nothing", T,
                   float, double) {
  const int n = 4, one = 1, zero = 0;
  // copy from incx = 0 broadcasts x[0].
  std::vector<T> x = {T(3), T(9)}, y(4, T(-1));
  Level1<T>::copy(&n, x.data(), &zero, y.data(), &one);
  CHECK(y == std::vector<T>(4, T(3)));
  // axpy into incy = 0 accumulates every term into y[0], in order.
  std::vector<T> xs = {T(1), T(2), T(3), T(4)}, y1 = {T(10), T(-7)};
  const T alpha = T(2);
  Level1<T>::axpy(&n, &alpha, xs.data(), &one, y1.data(), &zero);
  CHECK(y1 == std::vector<T>{T(30), T(-7)});
  // alpha = 0: y untouched even where x holds a NaN (x is not read).
  std::vector<T> xn = {std::numeric_limits<T>::quiet_NaN(), T(1), T(1), T(1)};
  std::vector<T> y2 = {T(5), T(6), T(7), T(8)};
  const T zero_alpha = T(0);
  Level1<T>::axpy(&n, &zero_alpha, xn.data(), &one, y2.data(), &one);
  CHECK(y2 == std::vector<T>{T(5), T(6), T(7), T(8)});
  // n <= 0: nothing is read or written.
  for (int bad_n : {0, -3}) {
    std::vector<T> y3 = {T(1), T(2)};
    Level1<T>::axpy(&bad_n, &alpha, xs.data(), &one, y3.data(), &one);
    Level1<T>::copy(&bad_n, xs.data(), &one, y3.data(), &one);
    Level1<T>::swap(&bad_n, xs.data(), &one, y3.data(), &one);
    Level1<T>::scal(&bad_n, &alpha, y3.data(), &one);
    CHECK(y3 == std::vector<T>{T(1), T(2)});
    CHECK(Level1<T>::asum(&bad_n, xs.data(), &one) == T(0));
    CHECK(Level1<T>::nrm2(&bad_n, xs.data(), &one) == T(0));
    CHECK(Level1<T>::iamax(&bad_n, xs.data(), &one) == 0);
  }
}

TEST_CASE_TEMPLATE("scal and asum: strides, incx <= 0 is a quick return, 0 * NaN is NaN", T,
                   float, double) {
  for (int n : kSizes) {
    for (int incx : {1, 2, 5}) {
      std::vector<T> x0 = values<T>(footprint(n > 0 ? n : 1, incx) + 3, 3), x = x0;
      const T alpha = T(-1.5);
      Level1<T>::scal(&n, &alpha, x.data(), &incx);
      std::vector<T> want = x0;
      long double sum = 0;
      for (int i = 0; i < n; ++i) {
        want[static_cast<std::size_t>(i * incx)] *= alpha;
        sum += std::fabs(static_cast<long double>(x0[static_cast<std::size_t>(i * incx)]));
      }
      CHECK(x == want);
      CHECK(Level1<T>::asum(&n, x0.data(), &incx) == doctest::Approx(static_cast<double>(sum)));
    }
  }
  const int n = 3, one = 1;
  for (int incx : {0, -1}) {
    std::vector<T> x = {T(1), T(-2), T(3)};
    const T alpha = T(2);
    Level1<T>::scal(&n, &alpha, x.data(), &incx);
    CHECK(x == std::vector<T>{T(1), T(-2), T(3)});
    CHECK(Level1<T>::asum(&n, x.data(), &incx) == T(0));
    CHECK(Level1<T>::iamax(&n, x.data(), &incx) == 0);
  }
  std::vector<T> x = {std::numeric_limits<T>::quiet_NaN(), T(4), T(-0.0)};
  const T zero = T(0);
  Level1<T>::scal(&n, &zero, x.data(), &one);
  CHECK(std::isnan(x[0]));
  CHECK(x[1] == T(0));
}

TEST_CASE_TEMPLATE("i?amax: first of the largest |x|, 1-based (CBLAS 0-based); NaN as the "
                   "reference compares",
                   T, float, double) {
  const int one = 1, two = 2;
  std::vector<T> x = {T(1), T(-7), T(3), T(7), T(-7)};
  const int n = 5;
  CHECK(Level1<T>::iamax(&n, x.data(), &one) == 2);  // ties: the first
  CHECK(Level1<T>::cblas_iamax(n, x.data(), 1) == 1);
  const int n3 = 3;
  CHECK(Level1<T>::iamax(&n3, x.data(), &two) == 3);  // 1, 3, -7: the third
  CHECK(Level1<T>::cblas_iamax(0, x.data(), 1) == 0);
  CHECK(Level1<T>::cblas_iamax(n, x.data(), -1) == 0);
  const T nan = std::numeric_limits<T>::quiet_NaN();
  std::vector<T> lead = {nan, T(5), T(9)};
  CHECK(Level1<T>::iamax(&n3, lead.data(), &one) == 1);  // nothing compares above NaN
  std::vector<T> later = {T(2), nan, T(9)};
  CHECK(Level1<T>::iamax(&n3, later.data(), &one) == 3);  // a later NaN is never larger
}

// The 2-norm of the logical vector, in long double from the values' exact
// squares: long double holds the square of every double only where its
// exponent range is wider (x86's 80-bit, aarch64's 128-bit); the test
// requires that.
template <class T>
long double naive_nrm2(const std::vector<T>& v) {
  long double sum = 0;
  for (T e : v) sum += static_cast<long double>(e) * static_cast<long double>(e);
  return std::sqrt(sum);
}

TEST_CASE_TEMPLATE("nrm2 neither overflows nor underflows, and keeps Inf and NaN", T, float,
                   double) {
  static_assert(std::numeric_limits<long double>::max_exponent >= 4 * 1024,
                "the reference needs a long double wider than double");
  using L = std::numeric_limits<T>;
  const T leads[] = {T(0),
                     L::denorm_min(),
                     L::min(),
                     std::sqrt(L::min()),
                     L::epsilon(),
                     T(1),
                     T(1) / L::epsilon(),
                     std::sqrt(L::max()),
                     L::max() / T(4),
                     L::max(),
                     L::infinity(),
                     L::quiet_NaN()};
  const T scales[] = {L::denorm_min() * T(1024), L::min(), std::sqrt(L::min()) * T(0.75), T(1),
                      std::sqrt(L::max()), L::max() / T(64)};
  int checked = 0;
  for (int n : {1, 2, 5, 20}) {
    for (int incx : {1, 2, -2, 0}) {
      for (T lead : leads) {
        for (T scale : scales) {
          // Logical vector: lead, then scale * values in (-1, 1].
          std::vector<T> logical(static_cast<std::size_t>(n));
          logical[0] = lead;
          for (int i = 1; i < n; ++i) {
            logical[static_cast<std::size_t>(i)] = scale * (T((i * 37) % 19 - 9) / T(9));
          }
          if (incx == 0) logical.assign(static_cast<std::size_t>(n), lead);
          std::vector<T> stored(footprint(n, incx == 0 ? 1 : incx), T(-1234.5));
          for (int i = 0; i < n && incx != 0; ++i) {
            stored[static_cast<std::size_t>(at(i, n, incx))] = logical[static_cast<std::size_t>(i)];
          }
          if (incx == 0) stored[0] = lead;
          const T got = Level1<T>::nrm2(&n, stored.data(), &incx);
          const T via_cblas = Level1<T>::cblas_nrm2(n, stored.data(), incx);
          CHECK((via_cblas == got || (std::isnan(via_cblas) && std::isnan(got))));
          const long double want = naive_nrm2(logical);
          if (std::isnan(want)) {
            CHECK_MESSAGE(std::isnan(got), "n ", n, " incx ", incx, " lead ", lead);
          } else if (want > static_cast<long double>(L::max())) {
            CHECK_MESSAGE(std::isinf(got), "n ", n, " incx ", incx, " lead ", lead);
          } else {
            // A few roundings per element at most; relative to the true norm
            // (the absolute floor covers a subnormal result's spacing).
            const long double err = std::fabs(static_cast<long double>(got) - want);
            const long double tol = (n + 2) * static_cast<long double>(L::epsilon()) * want +
                                    static_cast<long double>(L::denorm_min());
            CHECK_MESSAGE(err <= tol, "n ", n, " incx ", incx, " lead ", lead, " scale ", scale,
                          " got ", got, " want ", static_cast<double>(want));
          }
          ++checked;
        }
      }
    }
  }
  CHECK(checked == 4 * 4 * 12 * 6);
}

}  // namespace
