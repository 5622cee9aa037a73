// libtessera_blas's level-2 routines past the reference testers' sizes
// (their largest n is 9): ?symv from n = 17 on and ?trmv / ?trsv from
// n = 65 on run by blocks on tessera's GEMV, ?ger as a GEMM and ?syr2 as
// a ?syr2k of depth 1 (blas/src/level2_blocked.hpp). Checked here on
// several blocks, both triangles, every op and diagonal, positive and
// negative increments, through the Fortran and both CBLAS orders, against
// naive references written from the definitions (sums in double for f32,
// long double for f64; trsv by its residual), with the unreferenced
// triangle (and a unit diagonal) poisoned with NaN and guard elements
// between a strided vector's elements that must stay untouched.
#include <doctest/doctest.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <utility>
#include <vector>

extern "C" {
void ssymv_(const char*, const int*, const float*, const float*, const int*, const float*,
            const int*, const float*, float*, const int*);
void dsymv_(const char*, const int*, const double*, const double*, const int*, const double*,
            const int*, const double*, double*, const int*);
void strmv_(const char*, const char*, const char*, const int*, const float*, const int*, float*,
            const int*);
void dtrmv_(const char*, const char*, const char*, const int*, const double*, const int*,
            double*, const int*);
void strsv_(const char*, const char*, const char*, const int*, const float*, const int*, float*,
            const int*);
void dtrsv_(const char*, const char*, const char*, const int*, const double*, const int*,
            double*, const int*);
void sger_(const int*, const int*, const float*, const float*, const int*, const float*,
           const int*, float*, const int*);
void dger_(const int*, const int*, const double*, const double*, const int*, const double*,
           const int*, double*, const int*);
void ssyr2_(const char*, const int*, const float*, const float*, const int*, const float*,
            const int*, float*, const int*);
void dsyr2_(const char*, const int*, const double*, const double*, const int*, const double*,
            const int*, double*, const int*);
void cblas_sger(int, int, int, float, const float*, int, const float*, int, float*, int);
void cblas_dger(int, int, int, double, const double*, int, const double*, int, double*, int);
void cblas_ssyr2(int, int, int, float, const float*, int, const float*, int, float*, int);
void cblas_dsyr2(int, int, int, double, const double*, int, const double*, int, double*, int);
void cblas_strmv(int, int, int, int, int, const float*, int, float*, int);
void cblas_dtrmv(int, int, int, int, int, const double*, int, double*, int);
void cblas_strsv(int, int, int, int, int, const float*, int, float*, int);
void cblas_dtrsv(int, int, int, int, int, const double*, int, double*, int);
void cblas_ssymv(int, int, int, float, const float*, int, const float*, int, float, float*, int);
void cblas_dsymv(int, int, int, double, const double*, int, const double*, int, double, double*,
                 int);
}

// A named namespace: the unity builds compile the BLAS test files as one
// translation unit, where anonymous namespaces merge (level1_test.cc has
// its own at()).
namespace level2_test {

constexpr int kColMajor = 102, kRowMajor = 101, kUpper = 121, kLower = 122, kNoTrans = 111,
              kTrans = 112, kNonUnit = 131, kUnit = 132;

void symv(const char* uplo, const int* n, const float* alpha, const float* a, const int* lda,
          const float* x, const int* incx, const float* beta, float* y, const int* incy) {
  ssymv_(uplo, n, alpha, a, lda, x, incx, beta, y, incy);
}
void symv(const char* uplo, const int* n, const double* alpha, const double* a, const int* lda,
          const double* x, const int* incx, const double* beta, double* y, const int* incy) {
  dsymv_(uplo, n, alpha, a, lda, x, incx, beta, y, incy);
}
void cblas_symv(int order, int uplo, int n, float alpha, const float* a, int lda, const float* x,
                int incx, float beta, float* y, int incy) {
  cblas_ssymv(order, uplo, n, alpha, a, lda, x, incx, beta, y, incy);
}
void cblas_symv(int order, int uplo, int n, double alpha, const double* a, int lda,
                const double* x, int incx, double beta, double* y, int incy) {
  cblas_dsymv(order, uplo, n, alpha, a, lda, x, incx, beta, y, incy);
}

// trmv (solve false) or trsv (solve true) through one entry: 0 Fortran, 1
// CBLAS column-major, 2 CBLAS row-major.
void triangular(int entry, bool solve, bool upper, bool trans, bool unit, int n, const float* a,
                int lda, float* x, int incx) {
  if (entry == 0) {
    const char u = upper ? 'U' : 'L', t = trans ? 'T' : 'N', d = unit ? 'U' : 'N';
    (solve ? strsv_ : strmv_)(&u, &t, &d, &n, a, &lda, x, &incx);
  } else {
    (solve ? cblas_strsv : cblas_strmv)(entry == 1 ? kColMajor : kRowMajor, upper ? kUpper : kLower,
                                        trans ? kTrans : kNoTrans, unit ? kUnit : kNonUnit, n, a,
                                        lda, x, incx);
  }
}
void triangular(int entry, bool solve, bool upper, bool trans, bool unit, int n, const double* a,
                int lda, double* x, int incx) {
  if (entry == 0) {
    const char u = upper ? 'U' : 'L', t = trans ? 'T' : 'N', d = unit ? 'U' : 'N';
    (solve ? dtrsv_ : dtrmv_)(&u, &t, &d, &n, a, &lda, x, &incx);
  } else {
    (solve ? cblas_dtrsv : cblas_dtrmv)(entry == 1 ? kColMajor : kRowMajor, upper ? kUpper : kLower,
                                        trans ? kTrans : kNoTrans, unit ? kUnit : kNonUnit, n, a,
                                        lda, x, incx);
  }
}

// ger (syr2 false: A += alpha x y^T, m x n) or syr2 (A's `upper` triangle
// += alpha (x y^T + y x^T), n x n) through one entry, as triangular().
void rank2(int entry, bool syr2, bool upper, int m, int n, float alpha, const float* x, int incx,
           const float* y, int incy, float* a, int lda) {
  const int order = entry == 1 ? kColMajor : kRowMajor, uplo = upper ? kUpper : kLower;
  if (syr2) {
    const char u = upper ? 'U' : 'L';
    if (entry == 0) ssyr2_(&u, &n, &alpha, x, &incx, y, &incy, a, &lda);
    else cblas_ssyr2(order, uplo, n, alpha, x, incx, y, incy, a, lda);
  } else if (entry == 0) {
    sger_(&m, &n, &alpha, x, &incx, y, &incy, a, &lda);
  } else {
    cblas_sger(order, m, n, alpha, x, incx, y, incy, a, lda);
  }
}
void rank2(int entry, bool syr2, bool upper, int m, int n, double alpha, const double* x, int incx,
           const double* y, int incy, double* a, int lda) {
  const int order = entry == 1 ? kColMajor : kRowMajor, uplo = upper ? kUpper : kLower;
  if (syr2) {
    const char u = upper ? 'U' : 'L';
    if (entry == 0) dsyr2_(&u, &n, &alpha, x, &incx, y, &incy, a, &lda);
    else cblas_dsyr2(order, uplo, n, alpha, x, incx, y, incy, a, lda);
  } else if (entry == 0) {
    dger_(&m, &n, &alpha, x, &incx, y, &incy, a, &lda);
  } else {
    cblas_dger(order, m, n, alpha, x, incx, y, incy, a, lda);
  }
}

template <class T>
std::vector<T> values(std::size_t n, unsigned seed) {
  std::vector<T> v(n);
  for (T& e : v) {
    seed = seed * 1664525u + 1013904223u;
    e = static_cast<T>(static_cast<int>(seed >> 9) % 2001 - 1000) / T(1000);
  }
  return v;
}

// Where element i of a BLAS vector of n elements with increment inc lives.
std::size_t at(std::int64_t i, std::int64_t n, std::int64_t inc) {
  return static_cast<std::size_t>(inc > 0 ? i * inc : (n - 1 - i) * -inc);
}

// The reference's type: double for f32 (its rounding is 2^-29 of the
// bounds), long double for f64. Long double is software quad on aarch64,
// so the largest sizes run on x86-64 only (under qemu they took a minute).
template <class T>
using Wide = std::conditional_t<sizeof(T) == 4, double, long double>;
#if defined(__x86_64__)
constexpr bool kLargeSizes = true;
#else
constexpr bool kLargeSizes = false;
#endif

struct Case {
  int n;
  bool upper;
  int incx, incy;
  double alpha, beta;
};

// One symv call (Fortran, or CBLAS column- or row-major) against the
// reference; `stored(i, j)` says whether the column-major array's (i, j)
// is in the referenced triangle.
template <class T>
void check(const Case& c, int entry) {
  using W = Wide<T>;
  const int n = c.n, lda = n + 3;
  const T nan = std::numeric_limits<T>::quiet_NaN();
  // The symmetric matrix S (column-major values) and the array holding one
  // triangle of it, NaN elsewhere.
  const std::vector<T> s_vals = values<T>(static_cast<std::size_t>(n) * n, 11 + n);
  const auto s = [&](int i, int j) {
    return s_vals[static_cast<std::size_t>(std::min(i, j)) * n + std::max(i, j)];
  };
  // entry 2 is CBLAS row-major: the array is S's row-major form, and its
  // Upper triangle is the column-major Lower one.
  const bool col_upper = entry == 2 ? !c.upper : c.upper;
  std::vector<T> a(static_cast<std::size_t>(lda) * n, nan);
  for (int j = 0; j < n; ++j) {
    for (int i = 0; i < n; ++i) {
      if (col_upper ? i <= j : i >= j) a[static_cast<std::size_t>(j) * lda + i] = s(i, j);
    }
  }
  const std::int64_t ax = std::abs(c.incx), ay = std::abs(c.incy);
  const T guard = T(-777);
  std::vector<T> x(static_cast<std::size_t>((n - 1) * ax + 1), guard);
  std::vector<T> y(static_cast<std::size_t>((n - 1) * ay + 1), guard);
  const std::vector<T> xv = values<T>(static_cast<std::size_t>(n), 5 + n),
                       yv = values<T>(static_cast<std::size_t>(n), 7 + n);
  for (int i = 0; i < n; ++i) {
    x[at(i, n, c.incx)] = xv[static_cast<std::size_t>(i)];
    // beta == 0 must overwrite y without reading it (NaN stays out).
    y[at(i, n, c.incy)] = c.beta == 0 ? nan : yv[static_cast<std::size_t>(i)];
  }
  const T alpha = static_cast<T>(c.alpha), beta = static_cast<T>(c.beta);
  if (entry == 0) {
    const char uplo = c.upper ? 'U' : 'L';
    symv(&uplo, &n, &alpha, a.data(), &lda, x.data(), &c.incx, &beta, y.data(), &c.incy);
  } else {
    cblas_symv(entry == 1 ? kColMajor : kRowMajor, c.upper ? kUpper : kLower, n, alpha, a.data(),
               lda, x.data(), c.incx, beta, y.data(), c.incy);
  }
  const W eps = std::numeric_limits<T>::epsilon();
  int bad = 0;
  for (int i = 0; i < n; ++i) {
    W sum = 0, magnitude = 0;
    for (int j = 0; j < n; ++j) {
      const W p = static_cast<W>(s(i, j)) * xv[static_cast<std::size_t>(j)];
      sum += p;
      magnitude += std::fabs(p);
    }
    const W y0 = c.beta == 0 ? 0 : yv[static_cast<std::size_t>(i)];
    const W want = static_cast<W>(alpha) * sum + beta * y0;
    const W bound =
        2 * (n + 4) * eps * (std::fabs(static_cast<W>(alpha)) * magnitude +
                             std::fabs(static_cast<W>(beta) * y0)) +
        std::numeric_limits<T>::min();
    const W got = y[at(i, n, c.incy)];
    if (!(std::fabs(got - want) <= bound) && bad++ < 3) {
      FAIL_CHECK("entry ", entry, " n ", n, (c.upper ? " U" : " L"), " incx ", c.incx, " incy ",
                 c.incy, " alpha ", c.alpha, " beta ", c.beta, ": y(", i, ") = ",
                 static_cast<double>(got), ", want ", static_cast<double>(want));
    }
  }
  // Guards between strided elements untouched; x unchanged.
  std::int64_t written = 0;
  for (std::size_t k = 0; k < y.size(); ++k) {
    if (ay > 1 && k % static_cast<std::size_t>(ay) != 0) written += y[k] != guard;
  }
  for (int i = 0; i < n; ++i) written += x[at(i, n, c.incx)] != xv[static_cast<std::size_t>(i)];
  CHECK_MESSAGE(written == 0, "entry ", entry, " n ", n, ": a guard or x was written");
}

TEST_CASE_TEMPLATE("symv by blocks: both triangles, every entry, increments of either sign", T,
                   float, double) {
  // 17 is one block past the smallest; 300 and 1300 are several blocks
  // with a partial last one (f32 blocks of 208 and 48, f64 of 96 and 16).
  for (int n : {1, 16, 17, 300, 1300}) {
    if (n > 300 && !kLargeSizes) continue;
    for (bool upper : {true, false}) {
      for (const Case c : {Case{n, upper, 1, 1, 1.0, 0.0}, Case{n, upper, -2, 3, -0.5, 1.0},
                           Case{n, upper, 3, -1, 2.0, -1.5}, Case{n, upper, 1, 1, 0.0, 0.5}}) {
        for (int entry = 0; entry < 3; ++entry) check<T>(c, entry);
      }
    }
  }
}

// op(A) x (trmv) or op(A)^-1 x (trsv) against the definition: trmv's
// result against wide sums, trsv's by its residual op(A) x - b,
// which substitution keeps within a few n eps of |op(A)| |x| + |b|.
template <class T>
void check_triangular(int entry, bool solve, bool upper, bool trans, bool unit, int n, int incx) {
  using W = Wide<T>;
  const int lda = n + 2;
  const T nan = std::numeric_limits<T>::quiet_NaN();
  const std::vector<T> vals = values<T>(static_cast<std::size_t>(n) * n, 31 + n);
  // M is the triangular matrix op() applies to, as (i, j) of the call's own
  // order; the array holds it in that order with NaN outside the triangle
  // (and on a unit diagonal).
  const auto m = [&](int i, int j) -> W {
    if (i == j) return unit ? W(1) : static_cast<W>(n) / 4 + 1;
    if (upper ? i > j : i < j) return 0;
    return vals[static_cast<std::size_t>(i) * n + j];
  };
  std::vector<T> a(static_cast<std::size_t>(lda) * n, nan);
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      const bool inside = upper ? i <= j : i >= j;
      if (!inside || (unit && i == j)) continue;
      // Row-major (entry 2) keeps (i, j) at i * lda + j, column-major at
      // i + j * lda.
      const std::size_t at_ij = entry == 2 ? static_cast<std::size_t>(i) * lda + j
                                           : static_cast<std::size_t>(j) * lda + i;
      a[at_ij] = static_cast<T>(m(i, j));
    }
  }
  const auto op = [&](int i, int j) { return trans ? m(j, i) : m(i, j); };
  const std::int64_t ax = std::abs(incx);
  const T guard = T(-777);
  std::vector<T> x(static_cast<std::size_t>((n - 1) * ax + 1), guard);
  const std::vector<T> b = values<T>(static_cast<std::size_t>(n), 41 + n);
  for (int i = 0; i < n; ++i) x[at(i, n, incx)] = b[static_cast<std::size_t>(i)];
  triangular(entry, solve, upper, trans, unit, n, a.data(), lda, x.data(), incx);
  const W eps = std::numeric_limits<T>::epsilon();
  int bad = 0;
  for (int i = 0; i < n; ++i) {
    W sum = 0, magnitude = 0;
    const auto input = [&](int j) -> W {
      return solve ? x[at(j, n, incx)] : b[static_cast<std::size_t>(j)];
    };
    for (int j = 0; j < n; ++j) {
      const W p = op(i, j) * input(j);
      sum += p;
      magnitude += std::fabs(p);
    }
    const W bi = b[static_cast<std::size_t>(i)];
    // trmv: x(i) = sum; trsv: sum (op(A) x) = b(i).
    const W got = solve ? sum : static_cast<W>(x[at(i, n, incx)]);
    const W want = solve ? bi : sum;
    const W bound = 2 * (n + 4) * eps * (magnitude + (solve ? std::fabs(bi) : 0)) +
                              std::numeric_limits<T>::min();
    if (!(std::fabs(got - want) <= bound) && bad++ < 3) {
      FAIL_CHECK("entry ", entry, (solve ? " trsv" : " trmv"), " n ", n, (upper ? " U" : " L"),
                 (trans ? " T" : " N"), (unit ? " unit" : ""), " incx ", incx, ": row ", i, " ",
                 static_cast<double>(got), " want ", static_cast<double>(want));
    }
  }
  std::int64_t written = 0;
  for (std::size_t k = 0; k < x.size(); ++k) {
    if (ax > 1 && k % static_cast<std::size_t>(ax) != 0) written += x[k] != guard;
  }
  CHECK_MESSAGE(written == 0, "entry ", entry, " n ", n, ": a guard was written");
}

TEST_CASE_TEMPLATE("trmv and trsv by blocks: every triangle, op, diagonal and entry", T, float,
                   double) {
  // 64 is one block; 65, 200 and 700 several with a partial last one.
  for (int n : {1, 64, 65, 200, 700}) {
    if (n > 200 && !kLargeSizes) continue;
    for (bool solve : {false, true}) {
      for (bool upper : {true, false}) {
        for (bool trans : {false, true}) {
          for (bool unit : {false, true}) {
            for (int entry = 0; entry < 3; ++entry) {
              const int incx = entry == 0 ? 1 : (entry == 1 ? -2 : 3);
              check_triangular<T>(entry, solve, upper, trans, unit, n, incx);
            }
          }
        }
      }
    }
  }
}

// ger and syr2 against the definition, elementwise in the wide type; syr2
// leaves the other triangle (NaN here) untouched.
template <class T>
void check_rank2(int entry, bool syr2, bool upper, int m, int n, int incx, int incy) {
  using W = Wide<T>;
  if (syr2) m = n;
  // The call's own order: row-major (entry 2) keeps (i, j) at i * lda + j.
  const int lda = (entry == 2 ? n : m) + 3;
  const auto at_ij = [&](int i, int j) {
    return entry == 2 ? static_cast<std::size_t>(i) * lda + j
                      : static_cast<std::size_t>(j) * lda + i;
  };
  const T nan = std::numeric_limits<T>::quiet_NaN();
  const std::vector<T> a0 = values<T>(static_cast<std::size_t>(m) * n, 51 + n);
  const std::vector<T> xv = values<T>(static_cast<std::size_t>(m), 53 + m),
                       yv = values<T>(static_cast<std::size_t>(n), 57 + n);
  const auto inside = [&](int i, int j) { return !syr2 || (upper ? i <= j : i >= j); };
  std::vector<T> a(static_cast<std::size_t>(lda) * (entry == 2 ? m : n), nan);
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < n; ++j) {
      if (inside(i, j)) a[at_ij(i, j)] = a0[static_cast<std::size_t>(i) * n + j];
    }
  }
  std::vector<T> x(static_cast<std::size_t>((m - 1) * std::abs(incx) + 1), T(-777));
  std::vector<T> y(static_cast<std::size_t>((n - 1) * std::abs(incy) + 1), T(-777));
  for (int i = 0; i < m; ++i) x[at(i, m, incx)] = xv[static_cast<std::size_t>(i)];
  for (int j = 0; j < n; ++j) y[at(j, n, incy)] = yv[static_cast<std::size_t>(j)];
  const T alpha = T(-0.75);
  rank2(entry, syr2, upper, m, n, alpha, x.data(), incx, y.data(), incy, a.data(), lda);
  const W eps = std::numeric_limits<T>::epsilon();
  int bad = 0;
  std::int64_t outside_written = 0;
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < n; ++j) {
      const T got = a[at_ij(i, j)];
      if (!inside(i, j)) {
        outside_written += !std::isnan(got);
        continue;
      }
      const W xy = static_cast<W>(xv[static_cast<std::size_t>(i)]) *
                             yv[static_cast<std::size_t>(j)];
      const W yx = syr2 ? static_cast<W>(yv[static_cast<std::size_t>(i)]) *
                                        xv[static_cast<std::size_t>(j)]
                                  : W(0);
      const W c0 = a0[static_cast<std::size_t>(i) * n + j];
      const W want = c0 + static_cast<W>(alpha) * (xy + yx);
      const W bound =
          8 * eps * (std::fabs(c0) + std::fabs(alpha) * (std::fabs(xy) + std::fabs(yx))) +
          std::numeric_limits<T>::min();
      if (!(std::fabs(got - want) <= bound) && bad++ < 3) {
        FAIL_CHECK("entry ", entry, (syr2 ? " syr2" : " ger"), (upper ? " U" : " L"), " ", m, "x",
                   n, " incx ", incx, " incy ", incy, ": (", i, ", ", j, ") ",
                   static_cast<double>(got), " want ", static_cast<double>(want));
      }
    }
  }
  CHECK_MESSAGE(outside_written == 0, "entry ", entry, " syr2 ", n, ": the other triangle written");
}

TEST_CASE_TEMPLATE("ger as a GEMM and syr2 as a syr2k of depth 1", T, float, double) {
  for (int n : {1, 33, 300}) {
    for (int entry = 0; entry < 3; ++entry) {
      for (const auto& inc : {std::pair{1, 1}, std::pair{-2, 3}, std::pair{3, -1}}) {
        check_rank2<T>(entry, false, true, n + 7, n, inc.first, inc.second);
        check_rank2<T>(entry, true, true, n, n, inc.first, inc.second);
        check_rank2<T>(entry, true, false, n, n, inc.first, inc.second);
      }
    }
  }
}

}  // namespace level2_test
