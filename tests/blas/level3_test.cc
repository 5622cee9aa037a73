// libtessera_blas's SYRK, SYMM and TRSM at sizes past the reference
// testers' limit (n <= 65): SYRK's column blocks (192 wide) and their
// diagonal squares, SYMM's expanded copy of A, TRSM's blocks (64 rows)
// and GEMM updates on both sides, against long double references,
// with NaN in everything the routine must not read (the other triangle of
// A; C when beta == 0) and a sentinel in the triangle of C it must not
// write.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

extern "C" {
void ssyrk_(const char*, const char*, const int*, const int*, const float*, const float*,
            const int*, const float*, float*, const int*);
void dsyrk_(const char*, const char*, const int*, const int*, const double*, const double*,
            const int*, const double*, double*, const int*);
void ssymm_(const char*, const char*, const int*, const int*, const float*, const float*,
            const int*, const float*, const int*, const float*, float*, const int*);
void dsymm_(const char*, const char*, const int*, const int*, const double*, const double*,
            const int*, const double*, const int*, const double*, double*, const int*);
void strsm_(const char*, const char*, const char*, const char*, const int*, const int*,
            const float*, const float*, const int*, float*, const int*);
void dtrsm_(const char*, const char*, const char*, const char*, const int*, const int*,
            const double*, const double*, const int*, double*, const int*);
void strmm_(const char*, const char*, const char*, const char*, const int*, const int*,
            const float*, const float*, const int*, float*, const int*);
void dtrmm_(const char*, const char*, const char*, const char*, const int*, const int*,
            const double*, const double*, const int*, double*, const int*);
}

namespace {

template <class T>
struct Level3;
template <>
struct Level3<float> {
  static constexpr auto syrk = ssyrk_;
  static constexpr auto symm = ssymm_;
  static constexpr auto trsm = strsm_;
  static constexpr auto trmm = strmm_;
};
template <>
struct Level3<double> {
  static constexpr auto syrk = dsyrk_;
  static constexpr auto symm = dsymm_;
  static constexpr auto trsm = dtrsm_;
  static constexpr auto trmm = dtrmm_;
};

template <class T>
std::vector<T> filled(std::size_t size, std::uint32_t seed) {
  std::vector<T> v(size);
  for (auto& e : v) {
    seed = seed * 1664525u + 1013904223u;
    e = T(static_cast<int>(seed >> 9) % 2001 - 1000) / T(1000);
  }
  return v;
}

TEST_CASE_TEMPLATE(
    "syrk across column blocks: the triangle against a long double reference, "
    "the other one untouched",
    T, float, double) {
  const T nan = std::numeric_limits<T>::quiet_NaN();
  const T sentinel = T(-777);
  for (int n : {193, 400}) {
    for (int k : {1, 37}) {
      for (char uplo : {'U', 'L'}) {
        for (char trans : {'N', 'T'}) {
          for (T beta : {T(0), T(1.5)}) {
            const int lda = (trans == 'N' ? n : k) + 3, ldc = n + 2;
            const std::vector<T> a = filled<T>(
                static_cast<std::size_t>(lda) * static_cast<std::size_t>(trans == 'N' ? k : n),
                static_cast<std::uint32_t>(n * 7 + k));
            std::vector<T> c0 = filled<T>(static_cast<std::size_t>(ldc) * n, 99);
            for (int j = 0; j < n; ++j) {
              for (int i = 0; i < n; ++i) {
                const bool in = uplo == 'U' ? i <= j : i >= j;
                T& e = c0[static_cast<std::size_t>(i + j * ldc)];
                if (!in)
                  e = sentinel;
                else if (beta == T(0))
                  e = nan;  // must not be read
              }
            }
            std::vector<T> c = c0;
            const T alpha = T(0.5);
            Level3<T>::syrk(&uplo, &trans, &n, &k, &alpha, a.data(), &lda, &beta, c.data(), &ldc);
            int bad = 0;
            for (int j = 0; j < n; ++j) {
              for (int i = 0; i < n; ++i) {
                const T got = c[static_cast<std::size_t>(i + j * ldc)];
                const bool in = uplo == 'U' ? i <= j : i >= j;
                if (!in) {
                  bad += got != sentinel;
                  continue;
                }
                long double sum = 0, mag = 0;
                for (int p = 0; p < k; ++p) {
                  const long double x = trans == 'N' ? a[static_cast<std::size_t>(i + p * lda)]
                                                     : a[static_cast<std::size_t>(p + i * lda)];
                  const long double y = trans == 'N' ? a[static_cast<std::size_t>(j + p * lda)]
                                                     : a[static_cast<std::size_t>(p + j * lda)];
                  sum += x * y;
                  mag += std::fabs(x * y);
                }
                const long double c_in =
                    beta == T(0) ? 0 : c0[static_cast<std::size_t>(i + j * ldc)];
                const long double want = alpha * sum + beta * c_in;
                const long double tol =
                    (k + 4) * static_cast<long double>(std::numeric_limits<T>::epsilon()) *
                    (alpha * mag + std::fabs(beta * c_in));
                bad += !(std::fabs(got - want) <= tol);
              }
            }
            CHECK_MESSAGE(bad == 0, "n ", n, " k ", k, " uplo ", uplo, " trans ", trans, " beta ",
                          beta);
          }
        }
      }
    }
  }
}

TEST_CASE_TEMPLATE("symm reads only its triangle of A, both sides", T, float, double) {
  const T nan = std::numeric_limits<T>::quiet_NaN();
  const int m = 211, n = 9;
  for (char side : {'L', 'R'}) {
    for (char uplo : {'U', 'L'}) {
      const int na = side == 'L' ? m : n, lda = na + 1, ldb = m + 2, ldc = m + 1;
      std::vector<T> a = filled<T>(static_cast<std::size_t>(lda) * na, 5);
      // The full symmetric matrix the triangle stands for, then NaN in the
      // half that must not be read.
      std::vector<long double> full(static_cast<std::size_t>(na) * na);
      for (int j = 0; j < na; ++j) {
        for (int i = 0; i < na; ++i) {
          const bool in = uplo == 'U' ? i <= j : i >= j;
          const int si = in ? i : j, sj = in ? j : i;
          full[static_cast<std::size_t>(i + j * na)] = a[static_cast<std::size_t>(si + sj * lda)];
        }
      }
      for (int j = 0; j < na; ++j) {
        for (int i = 0; i < na; ++i) {
          if (!(uplo == 'U' ? i <= j : i >= j)) a[static_cast<std::size_t>(i + j * lda)] = nan;
        }
      }
      const std::vector<T> b = filled<T>(static_cast<std::size_t>(ldb) * n, 6);
      std::vector<T> c = filled<T>(static_cast<std::size_t>(ldc) * n, 7);
      const std::vector<T> c0 = c;
      const T alpha = T(-1.25), beta = T(0.5);
      Level3<T>::symm(&side, &uplo, &m, &n, &alpha, a.data(), &lda, b.data(), &ldb, &beta, c.data(),
                      &ldc);
      int bad = 0;
      for (int j = 0; j < n; ++j) {
        for (int i = 0; i < m; ++i) {
          long double sum = 0, mag = 0;
          for (int p = 0; p < na; ++p) {
            const long double x = side == 'L' ? full[static_cast<std::size_t>(i + p * na)]
                                              : b[static_cast<std::size_t>(i + p * ldb)];
            const long double y = side == 'L' ? b[static_cast<std::size_t>(p + j * ldb)]
                                              : full[static_cast<std::size_t>(p + j * na)];
            sum += x * y;
            mag += std::fabs(x * y);
          }
          const long double c_in = c0[static_cast<std::size_t>(i + j * ldc)];
          const long double want = alpha * sum + beta * c_in;
          const long double tol = (na + 4) *
                                  static_cast<long double>(std::numeric_limits<T>::epsilon()) *
                                  (std::fabs(alpha) * mag + std::fabs(beta * c_in));
          bad += !(std::fabs(c[static_cast<std::size_t>(i + j * ldc)] - want) <= tol);
        }
      }
      CHECK_MESSAGE(bad == 0, "side ", side, " uplo ", uplo);
    }
  }
}

TEST_CASE_TEMPLATE(
    "trsm and trmm over several blocks, both sides: op(A) X = alpha B (trsm) and X = alpha "
    "op(A) B (trmm) hold, and only the referenced triangle is read",
    T, float, double) {
  const T nan = std::numeric_limits<T>::quiet_NaN();
  // (203, 5): a triangle of 203, several levels of recursion (trmm: one
  // triangular GEMM over 5 columns); (37, 300): of 37, a few blocks (read
  // from a copy, B one chunk written in place); (9, 7): of 9, small enough
  // for substitution (the product) straight on B; (140, 90): trmm's
  // triangular GEMM over several of its register tiles each way.
  for (const auto& [big, small] : {std::pair<int, int>{203, 5}, std::pair<int, int>{37, 300},
                                   std::pair<int, int>{9, 7}, std::pair<int, int>{140, 90}}) {
    for (const bool multiply : {false, true}) {
      for (char side : {'L', 'R'}) {
        for (char uplo : {'U', 'L'}) {
          for (char trans : {'N', 'T'}) {
            for (char diag : {'N', 'U'}) {
              const int m = side == 'L' ? big : small, n = side == 'L' ? small : big;
              const int na = side == 'L' ? m : n, lda = na + 2, ldb = m + 1;
              // Well conditioned: a dominant diagonal in [2, 3), small
              // off-diagonal terms; NaN where the routine must not look.
              std::vector<T> a = filled<T>(static_cast<std::size_t>(lda) * na, 11);
              for (int j = 0; j < na; ++j) {
                for (int i = 0; i < na; ++i) {
                  T& e = a[static_cast<std::size_t>(i + j * lda)];
                  if (i == j)
                    e = diag == 'U' ? nan : T(2.5) + e / T(2);
                  else if (!(uplo == 'U' ? i < j : i > j))
                    e = nan;
                  else
                    e = e / T(na);
                }
              }
              const std::vector<T> b0 = filled<T>(static_cast<std::size_t>(ldb) * n, 12);
              std::vector<T> b = b0;
              const T alpha = T(1.5);
              const auto routine_fn = multiply ? Level3<T>::trmm : Level3<T>::trsm;
              routine_fn(&side, &uplo, &trans, &diag, &m, &n, &alpha, a.data(), &lda, b.data(),
                         &ldb);
              // trsm: op(A) applied to the solution gives alpha B; trmm:
              // the result is op(A) applied to alpha B.
              const std::vector<T>& x = multiply ? b0 : b;
              const long double scale = multiply ? alpha : 1;
              // op(A)(i, j) from the referenced triangle (1 on a unit diagonal).
              const auto op_a = [&](int i, int j) -> long double {
                const int r = trans == 'N' ? i : j, c = trans == 'N' ? j : i;
                if (r == c) return diag == 'U' ? 1.0L : a[static_cast<std::size_t>(r + c * lda)];
                if (!(uplo == 'U' ? r < c : r > c)) return 0.0L;
                return a[static_cast<std::size_t>(r + c * lda)];
              };
              int bad = 0;
              for (int j = 0; j < n; ++j) {
                for (int i = 0; i < m; ++i) {
                  // Left: (op(A) X)(i, j); right: (X op(A))(i, j).
                  long double sum = 0, mag = 0;
                  for (int p = 0; p < na; ++p) {
                    const long double t =
                        scale * (side == 'L'
                                     ? op_a(i, p) * x[static_cast<std::size_t>(p + j * ldb)]
                                     : x[static_cast<std::size_t>(i + p * ldb)] * op_a(p, j));
                    sum += t;
                    mag += std::fabs(t);
                  }
                  const auto at = static_cast<std::size_t>(i + j * ldb);
                  const long double want =
                      multiply ? static_cast<long double>(b[at])
                               : alpha * static_cast<long double>(b0[static_cast<std::size_t>(at)]);
                  const long double tol =
                      4 * na * static_cast<long double>(std::numeric_limits<T>::epsilon()) * mag;
                  bad += !(std::fabs(sum - want) <= tol);
                }
              }
              const char* routine = multiply ? "trmm" : "trsm";
              CHECK_MESSAGE(bad == 0, routine, " m ", m, " n ", n, " side ", side, " uplo ", uplo,
                            " trans ", trans, " diag ", diag);
              // The padding row of B (ldb > m) is not part of the matrix.
              for (int j = 0; j < n; ++j) {
                CHECK(b[static_cast<std::size_t>(m + j * ldb)] ==
                      b0[static_cast<std::size_t>(m + j * ldb)]);
              }
            }
          }
        }
      }
    }
  }
}

// LAPACK's calls: the triangle and B in one array, B in the rows below
// A's block (dpotrf's lower dtrsm: X A(J,J)^T = A(J+JB,J), right side) or
// in the columns beside it (its upper one: A(J,J)^T X = A(J,J+JB), left
// side). Orders 20 (substitution on B; at 8 columns), 64 and 100 (a few
// blocks, read from a copy of the triangle), 150 (the recursion); against
// long double on copies of A and B taken before the call.
TEST_CASE("dtrsm and dtrmm on a triangle in B's own array, both sides, every path") {
  for (const int order : {20, 64, 100, 150}) {
    for (const int others : {8, 300}) {
      for (const char side : {'L', 'R'}) {
        for (const bool multiply : {false, true}) {
          // One array ld x cols: A at (0, 0), B below it (right side, m =
          // others rows) or beside it (left side, n = others columns).
          const int ld = order + (side == 'R' ? others : 0) + 3;
          const int cols = order + (side == 'L' ? others : 0);
          std::vector<double> x = filled<double>(static_cast<std::size_t>(ld) * cols, 31);
          for (int i = 0; i < order; ++i) x[static_cast<std::size_t>(i + i * ld)] += 3.0;
          const char uplo = side == 'R' ? 'L' : 'U', trans = 'T', diag = 'N';
          const int m = side == 'R' ? others : order, n = side == 'R' ? order : others;
          double* b =
              side == 'R' ? x.data() + order : x.data() + static_cast<std::size_t>(order) * ld;
          const std::vector<double> x0 = x;
          const double* b0 = side == 'R' ? x0.data() + order
                                         : x0.data() + static_cast<std::size_t>(order) * ld;
          const double alpha = -0.5;
          (multiply ? dtrmm_ : dtrsm_)(&side, &uplo, &trans, &diag, &m, &n, &alpha, x.data(), &ld,
                                       b, &ld);
          // op(A)(r, c) = A(c, r) from the referenced triangle of the copy.
          const auto op_a = [&](int r, int c) -> long double {
            const bool in = uplo == 'L' ? c >= r : c <= r;
            return in ? x0[static_cast<std::size_t>(c + r * ld)] : 0.0L;
          };
          const auto at = [&](const double* p, int i, int j) -> long double {
            return p[static_cast<std::size_t>(i + j * ld)];
          };
          int bad = 0;
          for (int j = 0; j < n; ++j) {
            for (int i = 0; i < m; ++i) {
              // (op(A) Y)(i, j) or (Y op(A))(i, j), Y = X (TRSM) or B0 (TRMM).
              const double* y = multiply ? b0 : b;
              long double sum = 0, mag = 0;
              for (int p = 0; p < order; ++p) {
                const long double t =
                    side == 'L' ? op_a(i, p) * at(y, p, j) : at(y, i, p) * op_a(p, j);
                sum += t;
                mag += std::fabs(t);
              }
              const long double got = multiply ? at(b, i, j) : sum;
              const long double want = multiply ? alpha * sum : alpha * at(b0, i, j);
              const long double tol =
                  8 * order * static_cast<long double>(std::numeric_limits<double>::epsilon()) *
                  (mag + std::fabs(want));
              bad += !(std::fabs(got - want) <= tol);
            }
          }
          // The triangle (and the rest of the array outside B) is untouched.
          int touched = 0;
          for (int j = 0; j < cols; ++j) {
            for (int i = 0; i < ld; ++i) {
              const bool in_b = side == 'R' ? (i >= order && i < order + m && j < n)
                                            : (i < m && j >= order);
              const auto k = static_cast<std::size_t>(i + j * ld);
              touched += !in_b && x[k] != x0[k];
            }
          }
          CHECK_MESSAGE(bad == 0, "order ", order, " others ", others, " side ", side,
                        multiply ? " dtrmm" : " dtrsm");
          CHECK_MESSAGE(touched == 0, "order ", order, " others ", others, " side ", side,
                        multiply ? " dtrmm" : " dtrsm");
        }
      }
    }
  }
}

#if defined(__x86_64__)
// B past the 32 MiB that one group of column chunks may take (S, and R
// where B cannot be written directly): the chunks then run in several
// groups, the last one short (order 160); a triangle of a few blocks
// (order 100) takes B in two halves, each its own group. x86-64 only (61
// MB of B; long double is software quad on aarch64). Sampled columns of X
// (rows, on the right side), every group's first and last among them,
// against long double.
TEST_CASE("dtrsm and dtrmm over several groups of column chunks, both sides") {
  const int wide = 48000;  // A order x order; B order x 48000 or 48000 x order
  for (const int order : {100, 160}) {
    for (char side : {'L', 'R'}) {
      for (bool multiply : {false, true}) {
        const int m = side == 'L' ? order : wide, n = side == 'L' ? wide : order;
        std::vector<double> a = filled<double>(static_cast<std::size_t>(order) * order, 21);
        for (int i = 0; i < order; ++i) a[static_cast<std::size_t>(i + i * order)] += 3.0;
        const std::vector<double> b0 = filled<double>(static_cast<std::size_t>(m) * n, 22);
        std::vector<double> b = b0;
        const double alpha = 0.75;
        const char uplo = 'U', trans = 'N', diag = 'N';
        (multiply ? dtrmm_ : dtrsm_)(&side, &uplo, &trans, &diag, &m, &n, &alpha, a.data(), &order,
                                     b.data(), &m);
        // A(r, c) from the upper triangle.
        const auto at = [&](int r, int c) -> long double {
          return r <= c ? a[static_cast<std::size_t>(r + c * order)] : 0.0L;
        };
        int bad = 0;
        // Order 160: 187 chunks 256 wide and one of 128; a group holds 102
        // of them on the left (S only, 320 KiB each), 51 on the right (S and
        // R). Order 100: two halves of 24000 (S 38.4 MB in all).
        for (int v : {0, 1, 255, 256, 13055, 13056, 23999, 24000, 26111, 26112, 39167, 39168,
                      47871, 47872, wide - 1}) {
          // v: a column of B (left side) or a row of B (right side).
          for (int t = 0; t < order; ++t) {
            const auto at_b = [&](const std::vector<double>& x, int p) -> long double {
              return side == 'L' ? x[static_cast<std::size_t>(p + v * m)]
                                 : x[static_cast<std::size_t>(v + p * m)];
            };
            // Left: (A y)(t) for y = column v; right: (y^T A)(t) for y = row v.
            // TRSM: y = X and the result must be alpha B0; TRMM: y = B0 and
            // the result, times alpha, must be B.
            const std::vector<double>& y = multiply ? b0 : b;
            long double sum = 0, mag = 0;
            for (int p = 0; p < order; ++p) {
              const long double term = side == 'L' ? at(t, p) * at_b(y, p) : at_b(y, p) * at(p, t);
              sum += term;
              mag += std::fabs(term);
            }
            const long double got = multiply ? at_b(b, t) : sum;
            const long double want = multiply ? alpha * sum : alpha * at_b(b0, t);
            const long double tol =
                8 * order * static_cast<long double>(std::numeric_limits<double>::epsilon()) *
                (multiply ? alpha * mag : mag + std::fabs(want));
            bad += !(std::fabs(got - want) <= tol);
          }
        }
        CHECK_MESSAGE(bad == 0, "order ", order, " side ", side, multiply ? " dtrmm" : " dtrsm");
      }
    }
  }
}
#endif

}  // namespace
