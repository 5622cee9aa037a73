// What the reference testers (n <= 65) do not reach in the level-3
// routines added for every type: HERK/HER2K/SYR2K past the diagonal
// blocks of the triangle recursion and on the triangle GEMM (order 256
// and up), with NaN in a C that beta = 0
// must not read, the other triangle untouched and a Hermitian diagonal's
// imaginary part exactly zero; ZSYRK/ZHERK/ZHER2K deep enough that the 1m
// operands are prepared in several depth chunks; TRMM across several recursion levels on
// every side, triangle and op; TRMM and TRSM over several chunks of B,
// whose shared block of the triangle is packed once (level3_gemm.hpp).
// Checked against naive references (sums in
// double with a tolerance of the reference testers' kind: double is
// software-emulated on AArch64, where this runs under QEMU too).
#include <doctest/doctest.h>

#include <cmath>
#include <complex>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

using c64 = std::complex<double>;
using cl = std::complex<double>;

extern "C" {
void zherk_(const char*, const char*, const int*, const int*, const double*, const c64*,
            const int*, const double*, c64*, const int*);
void zsyrk_(const char*, const char*, const int*, const int*, const c64*, const c64*, const int*,
            const c64*, c64*, const int*);
void zher2k_(const char*, const char*, const int*, const int*, const c64*, const c64*, const int*,
             const c64*, const int*, const double*, c64*, const int*);
void zsyr2k_(const char*, const char*, const int*, const int*, const c64*, const c64*, const int*,
             const c64*, const int*, const c64*, c64*, const int*);
void dsyrk_(const char*, const char*, const int*, const int*, const double*, const double*,
            const int*, const double*, double*, const int*);
void dsyr2k_(const char*, const char*, const int*, const int*, const double*, const double*,
             const int*, const double*, const int*, const double*, double*, const int*);
void ztrmm_(const char*, const char*, const char*, const char*, const int*, const int*,
            const c64*, const c64*, const int*, c64*, const int*);
void dtrmm_(const char*, const char*, const char*, const char*, const int*, const int*,
            const double*, const double*, const int*, double*, const int*);
void ztrsm_(const char*, const char*, const char*, const char*, const int*, const int*,
            const c64*, const c64*, const int*, c64*, const int*);
}

namespace {

std::vector<c64> complex_values(std::size_t size, std::uint32_t seed) {
  std::vector<c64> v(size);
  for (auto& e : v) {
    seed = seed * 1664525u + 1013904223u;
    const double re = static_cast<int>(seed >> 9) % 2001 - 1000;
    seed = seed * 1664525u + 1013904223u;
    const double im = static_cast<int>(seed >> 9) % 2001 - 1000;
    e = c64(re / 1000, im / 1000);
  }
  return v;
}

cl widen(c64 v) { return v; }

// op(X)(i, p) for trans 'N' (X n x k) or 'C'/'T' (X k x n), column-major.
cl op_elem(const std::vector<c64>& x, int ld, char trans, int i, int p) {
  if (trans == 'N') return widen(x[static_cast<std::size_t>(i + p * ld)]);
  const cl v = widen(x[static_cast<std::size_t>(p + i * ld)]);
  return trans == 'C' ? std::conj(v) : v;
}

bool close(cl got, cl want, double scale) {
  return std::abs(got - want) <= 64 * std::numeric_limits<double>::epsilon() * (scale + 1);
}

// alpha op(X)(i, :) . op(Y)(j, :) over depth k, conjugating op(Y) for the
// he forms, summed in double, with the sum of its terms' magnitudes.
struct Term {
  cl sum = 0;
  double mag = 0;
};
Term rank_k_term(const std::vector<c64>& x, const std::vector<c64>& y, int ld, char trans,
                 int i, int j, int k, cl alpha, bool hermitian) {
  Term t;
  for (int p = 0; p < k; ++p) {
    const cl yv = op_elem(y, ld, trans, j, p);
    const cl v = alpha * op_elem(x, ld, trans, i, p) * (hermitian ? std::conj(yv) : yv);
    t.sum += v;
    t.mag += std::abs(v);
  }
  return t;
}

// Wrong elements of a rank-k update's result c (n x n, leading dimension
// ldc) from c0: in the uplo triangle, update(i, j) (a Term) + beta c0 with
// c0 not read when beta is 0, and for a Hermitian C a real diagonal (its
// imaginary part exactly zero); outside it, any change.
template <class Update>
int triangle_mismatches(const std::vector<c64>& c, const std::vector<c64>& c0, int n, int ldc,
                        char uplo, bool hermitian, cl beta, const Update& update) {
  int bad = 0;
  for (int j = 0; j < n; ++j) {
    for (int i = 0; i < n; ++i) {
      const std::size_t at = static_cast<std::size_t>(i + j * ldc);
      const c64 got = c[at];
      if (!(uplo == 'U' ? i <= j : i >= j)) {
        bad += got != c0[at];
        continue;
      }
      Term t = update(i, j);
      cl c_in = beta == cl(0) ? cl(0) : widen(c0[at]);
      if (hermitian && i == j) {
        c_in = cl(c_in.real(), 0);
        t.sum = cl(t.sum.real(), 0);
        bad += got.imag() != 0.0;
      }
      bad += !close(widen(got), t.sum + beta * c_in, t.mag + std::abs(beta * c_in));
    }
  }
  return bad;
}

}  // namespace

TEST_CASE("zherk and zher2k across diagonal blocks: the triangle against a double "
          "reference, the other untouched, a real diagonal") {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const c64 sentinel(-777, 5);
  for (int n : {200, 401}) {
    for (char uplo : {'U', 'L'}) {
      for (char trans : {'N', 'C'}) {
        for (double beta : {0.0, 1.5}) {
          for (bool two : {false, true}) {
            const int k = 19, lda = (trans == 'N' ? n : k) + 2, ldc = n + 3;
            const std::size_t cols = static_cast<std::size_t>(trans == 'N' ? k : n);
            const std::vector<c64> a = complex_values(static_cast<std::size_t>(lda) * cols, 7);
            const std::vector<c64> b = complex_values(static_cast<std::size_t>(lda) * cols, 8);
            std::vector<c64> c0 = complex_values(static_cast<std::size_t>(ldc) * n, 9);
            for (int j = 0; j < n; ++j) {
              for (int i = 0; i < n; ++i) {
                const bool in = uplo == 'U' ? i <= j : i >= j;
                c64& e = c0[static_cast<std::size_t>(i + j * ldc)];
                if (!in) e = sentinel;
                else if (beta == 0.0) e = c64(nan, nan);
              }
            }
            std::vector<c64> c = c0;
            const double ralpha = 0.75;
            const c64 alpha(0.5, -0.25);
            if (two) {
              zher2k_(&uplo, &trans, &n, &k, &alpha, a.data(), &lda, b.data(), &lda, &beta,
                      c.data(), &ldc);
            } else {
              zherk_(&uplo, &trans, &n, &k, &ralpha, a.data(), &lda, &beta, c.data(), &ldc);
            }
            const int bad = triangle_mismatches(
                c, c0, n, ldc, uplo, true, beta, [&](int i, int j) {
                  if (!two) return rank_k_term(a, a, lda, trans, i, j, k, ralpha, true);
                  const Term x = rank_k_term(a, b, lda, trans, i, j, k, widen(alpha), true);
                  const Term y =
                      rank_k_term(b, a, lda, trans, i, j, k, std::conj(widen(alpha)), true);
                  return Term{x.sum + y.sum, x.mag + y.mag};
                });
            CHECK_MESSAGE(bad == 0, (two ? "zher2k" : "zherk"), " n ", n, " uplo ", uplo,
                          " trans ", trans, " beta ", beta);
          }
        }
      }
    }
  }
}

TEST_CASE("zsyrk and zherk deep enough for several depth chunks of the prepared 1m operands") {
  // level3.cc prepares 1m's operands for at most 32 MiB at a time: for
  // n = 40 that is 17476 steps of depth (trans 'N', op(A)^T copied) or
  // 26214 ('C', A read in place), so these k take two chunks each, the
  // second adding to what the first wrote (beta applied once).
  const int n = 40;
  const c64 sentinel(-777, 5);
  for (char trans : {'N', 'C'}) {
    const bool herk = trans == 'C';
    const int k = herk ? 26227 : 20011, lda = (trans == 'N' ? n : k) + 1, ldc = n + 2;
    const char uplo = herk ? 'L' : 'U';
    const std::size_t cols = static_cast<std::size_t>(trans == 'N' ? k : n);
    const std::vector<c64> a = complex_values(static_cast<std::size_t>(lda) * cols, 11);
    std::vector<c64> c0 = complex_values(static_cast<std::size_t>(ldc) * n, 12);
    for (int j = 0; j < n; ++j) {
      for (int i = 0; i < n; ++i) {
        if (!(uplo == 'U' ? i <= j : i >= j)) c0[static_cast<std::size_t>(i + j * ldc)] = sentinel;
      }
    }
    std::vector<c64> c = c0;
    // zsyrk with a complex alpha and beta (folded into the expansion, and
    // C scaled first); zherk's are real.
    const c64 alpha(0.5, -0.25), beta(0.75, 0.5);
    const double ralpha = 0.625, rbeta = -1.25;
    if (herk) {
      zherk_(&uplo, &trans, &n, &k, &ralpha, a.data(), &lda, &rbeta, c.data(), &ldc);
    } else {
      zsyrk_(&uplo, &trans, &n, &k, &alpha, a.data(), &lda, &beta, c.data(), &ldc);
    }
    const int bad = triangle_mismatches(
        c, c0, n, ldc, uplo, herk, herk ? cl(rbeta) : widen(beta), [&](int i, int j) {
          return rank_k_term(a, a, lda, trans, i, j, k, herk ? cl(ralpha) : widen(alpha), herk);
        });
    CHECK_MESSAGE(bad == 0, (herk ? "zherk" : "zsyrk"), " trans ", trans, " k ", k);
  }
}

TEST_CASE("zher2k deep enough for several depth chunks: both terms' prepared operands") {
  // Two terms of 1m operands (op(A) expanded and op(B)^H copied, then the
  // roles swapped with conj(alpha)): at n = 40 and trans 'N' a chunk holds
  // 8738 steps of depth, so k = 9001 takes two.
  const int n = 40, k = 9001, lda = n + 1, ldc = n + 3;
  const char uplo = 'U', trans = 'N';
  const std::vector<c64> a = complex_values(static_cast<std::size_t>(lda) * k, 21);
  const std::vector<c64> b = complex_values(static_cast<std::size_t>(lda) * k, 22);
  const std::vector<c64> c0 = complex_values(static_cast<std::size_t>(ldc) * n, 23);
  std::vector<c64> c = c0;
  const c64 alpha(-0.375, 0.625);
  const double beta = 0.5;
  zher2k_(&uplo, &trans, &n, &k, &alpha, a.data(), &lda, b.data(), &lda, &beta, c.data(), &ldc);
  const int bad = triangle_mismatches(c, c0, n, ldc, uplo, true, beta, [&](int i, int j) {
    const Term x = rank_k_term(a, b, lda, trans, i, j, k, widen(alpha), true);
    const Term y = rank_k_term(b, a, lda, trans, i, j, k, std::conj(widen(alpha)), true);
    return Term{x.sum + y.sum, x.mag + y.mag};
  });
  CHECK(bad == 0);
}

TEST_CASE("zsyrk and zsyr2k as triangle GEMMs: a complex beta scales the triangle only") {
  // From order 256 the rank-k updates are triangle GEMMs on 1m's reals
  // (level3.cc); a beta with an imaginary part scales C's triangle first,
  // which must leave the other triangle as it was.
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const c64 sentinel(-777, 5);
  const int n = 300, k = 37;
  for (char uplo : {'U', 'L'}) {
    for (char trans : {'N', 'T'}) {
      for (c64 beta : {c64(0.75, 0.5), c64(0, 0)}) {
        for (bool two : {false, true}) {
          const int lda = (trans == 'N' ? n : k) + 1, ldc = n + 2;
          const std::size_t cols = static_cast<std::size_t>(trans == 'N' ? k : n);
          const std::vector<c64> a = complex_values(static_cast<std::size_t>(lda) * cols, 31);
          const std::vector<c64> b = complex_values(static_cast<std::size_t>(lda) * cols, 32);
          std::vector<c64> c0 = complex_values(static_cast<std::size_t>(ldc) * n, 33);
          for (int j = 0; j < n; ++j) {
            for (int i = 0; i < n; ++i) {
              c64& e = c0[static_cast<std::size_t>(i + j * ldc)];
              if (!(uplo == 'U' ? i <= j : i >= j)) e = sentinel;
              else if (beta == c64(0)) e = c64(nan, nan);
            }
          }
          std::vector<c64> c = c0;
          const c64 alpha(0.5, -0.25);
          if (two) {
            zsyr2k_(&uplo, &trans, &n, &k, &alpha, a.data(), &lda, b.data(), &lda, &beta,
                    c.data(), &ldc);
          } else {
            zsyrk_(&uplo, &trans, &n, &k, &alpha, a.data(), &lda, &beta, c.data(), &ldc);
          }
          const int bad = triangle_mismatches(c, c0, n, ldc, uplo, false, beta, [&](int i, int j) {
            if (!two) return rank_k_term(a, a, lda, trans, i, j, k, alpha, false);
            const Term x = rank_k_term(a, b, lda, trans, i, j, k, alpha, false);
            const Term y = rank_k_term(b, a, lda, trans, i, j, k, alpha, false);
            return Term{x.sum + y.sum, x.mag + y.mag};
          });
          CHECK_MESSAGE(bad == 0, (two ? "zsyr2k" : "zsyrk"), " uplo ", uplo, " trans ", trans,
                        " beta ", beta.real(), "+", beta.imag(), "i");
        }
      }
    }
  }
}

TEST_CASE("dsyrk as a triangle GEMM against a double reference, the other triangle untouched") {
  const int n = 300, k = 29;
  for (char uplo : {'U', 'L'}) {
    for (char trans : {'N', 'T'}) {
      const int lda = (trans == 'N' ? n : k) + 3, ldc = n + 1;
      const std::size_t cols = static_cast<std::size_t>(trans == 'N' ? k : n);
      std::vector<double> a(static_cast<std::size_t>(lda) * cols);
      for (std::size_t i = 0; i < a.size(); ++i) {
        a[i] = static_cast<double>((i * 41) % 103) / 51.0 - 1.0;
      }
      std::vector<double> c(static_cast<std::size_t>(ldc) * n, -0.5);
      const double alpha = 0.75, beta = -1.5;
      dsyrk_(&uplo, &trans, &n, &k, &alpha, a.data(), &lda, &beta, c.data(), &ldc);
      const auto at = [&](int i, int p) -> double {
        return trans == 'N' ? a[static_cast<std::size_t>(i + p * lda)]
                            : a[static_cast<std::size_t>(p + i * lda)];
      };
      int bad = 0;
      for (int j = 0; j < n; ++j) {
        for (int i = 0; i < n; ++i) {
          const double got = c[static_cast<std::size_t>(i + j * ldc)];
          if (uplo == 'U' ? i > j : i < j) {
            bad += got != -0.5;
            continue;
          }
          double sum = 0, mag = 0;
          for (int p = 0; p < k; ++p) {
            sum += at(i, p) * at(j, p);
            mag += std::fabs(at(i, p) * at(j, p));
          }
          const double want = alpha * sum + beta * -0.5;
          bad += !(std::fabs(got - want) <=
                   64 * std::numeric_limits<double>::epsilon() * (std::fabs(alpha) * mag + 1));
        }
      }
      CHECK_MESSAGE(bad == 0, "uplo ", uplo, " trans ", trans);
    }
  }
}

TEST_CASE("dsyr2k across diagonal blocks against a double reference") {
  for (int n : {193, 390}) {
    for (char uplo : {'U', 'L'}) {
      for (char trans : {'N', 'T'}) {
        const int k = 23, lda = (trans == 'N' ? n : k) + 1, ldc = n;
        const std::size_t cols = static_cast<std::size_t>(trans == 'N' ? k : n);
        std::vector<double> a(static_cast<std::size_t>(lda) * cols), b(a.size());
        for (std::size_t i = 0; i < a.size(); ++i) {
          a[i] = static_cast<double>((i * 37) % 101) / 50.0 - 1.0;
          b[i] = static_cast<double>((i * 53) % 97) / 48.0 - 1.0;
        }
        std::vector<double> c(static_cast<std::size_t>(ldc) * n, 0.25);
        const double alpha = -0.5, beta = 2.0;
        dsyr2k_(&uplo, &trans, &n, &k, &alpha, a.data(), &lda, b.data(), &lda, &beta, c.data(),
                &ldc);
        const auto at = [&](const std::vector<double>& x, int i, int p) -> double {
          return trans == 'N' ? x[static_cast<std::size_t>(i + p * lda)]
                              : x[static_cast<std::size_t>(p + i * lda)];
        };
        int bad = 0;
        for (int j = 0; j < n; ++j) {
          for (int i = 0; i < n; ++i) {
            const double got = c[static_cast<std::size_t>(i + j * ldc)];
            if (uplo == 'U' ? i > j : i < j) {
              bad += got != 0.25;
              continue;
            }
            double sum = 0, mag = 0;
            for (int p = 0; p < k; ++p) {
              const double v = at(a, i, p) * at(b, j, p) + at(b, i, p) * at(a, j, p);
              sum += v;
              mag += std::fabs(at(a, i, p) * at(b, j, p)) + std::fabs(at(b, i, p) * at(a, j, p));
            }
            const double want = alpha * sum + beta * 0.25;
            bad += !(std::fabs(got - want) <= 64 * std::numeric_limits<double>::epsilon() *
                                                 (std::fabs(alpha) * mag + 1));
          }
        }
        CHECK_MESSAGE(bad == 0, "n ", n, " uplo ", uplo, " trans ", trans);
      }
    }
  }
}

TEST_CASE("ztrmm and dtrmm across recursion levels, every side, triangle, op and diagonal") {
  // 150 x 77: recursion levels above the diagonal blocks; 9 x 7: small
  // enough for the product straight on B (trsm.cc's small_triangle).
  for (const auto& [m, n] : {std::pair<int, int>{150, 77}, std::pair<int, int>{9, 7}}) {
    for (char side : {'L', 'R'}) {
      for (char uplo : {'U', 'L'}) {
        for (char trans : {'N', 'T', 'C'}) {
          for (char diag : {'N', 'U'}) {
            const int na = side == 'L' ? m : n, lda = na + 2, ldb = m + 1;
            const std::vector<c64> a = complex_values(static_cast<std::size_t>(lda) * na, 3);
            const std::vector<c64> b0 = complex_values(static_cast<std::size_t>(ldb) * n, 4);
            std::vector<c64> b = b0;
            // A real alpha half the time: the left side's one GEMM folds a
            // complex one into its expansion, and then leaves unit
            // diagonals to the recursion.
            const c64 alpha = uplo == 'L' ? c64(-1.5, 0) : c64(1.25, 0.5);
            ztrmm_(&side, &uplo, &trans, &diag, &m, &n, &alpha, a.data(), &lda, b.data(), &ldb);
            // op(A)(i, p) with the triangle and the diagonal applied.
            const auto opa = [&](int i, int p) -> cl {
              const int r = trans == 'N' ? i : p, col = trans == 'N' ? p : i;
              if (uplo == 'U' ? r > col : r < col) return 0;
              if (r == col && diag == 'U') return 1;
              const cl v = widen(a[static_cast<std::size_t>(r + col * lda)]);
              return trans == 'C' ? std::conj(v) : v;
            };
            int bad = 0;
            for (int j = 0; j < n; ++j) {
              for (int i = 0; i < m; ++i) {
                cl sum = 0;
                double mag = 0;
                if (side == 'L') {
                  for (int p = 0; p < m; ++p) {
                    const cl v = opa(i, p) * widen(b0[static_cast<std::size_t>(p + j * ldb)]);
                    sum += v;
                    mag += std::abs(v);
                  }
                } else {
                  for (int p = 0; p < n; ++p) {
                    const cl v = widen(b0[static_cast<std::size_t>(i + p * ldb)]) * opa(p, j);
                    sum += v;
                    mag += std::abs(v);
                  }
                }
                const cl want = widen(alpha) * sum;
                bad += !close(widen(b[static_cast<std::size_t>(i + j * ldb)]), want, 2 * mag);
              }
            }
            // The row of padding below each column of B is left alone.
            for (int j = 0; j < n; ++j) {
              const std::size_t pad = static_cast<std::size_t>(m + j * ldb);
              bad += b[pad] != b0[pad];
            }
            CHECK_MESSAGE(bad == 0, m, " x ", n, " side ", side, " uplo ", uplo, " trans ", trans,
                          " diag ", diag);
          }
        }
      }
    }
    // The real routine on one shape per side (the same driver as ztrmm).
    for (char side : {'L', 'R'}) {
      const int na = side == 'L' ? m : n;
      std::vector<double> a(static_cast<std::size_t>(na) * na), b(static_cast<std::size_t>(m) * n);
      for (std::size_t i = 0; i < a.size(); ++i) a[i] = static_cast<double>(i % 7) - 3.0;
      for (std::size_t i = 0; i < b.size(); ++i) b[i] = static_cast<double>(i % 5) - 2.0;
      const std::vector<double> b0 = b;
      const double alpha = 1.0;
      const char uplo = 'L', trans = 'N', diag = 'N';
      dtrmm_(&side, &uplo, &trans, &diag, &m, &n, &alpha, a.data(), &na, b.data(), &m);
      int bad = 0;
      for (int j = 0; j < n; ++j) {
        for (int i = 0; i < m; ++i) {
          double want = 0;
          if (side == 'L') {
            for (int p = 0; p <= i; ++p) {
              want += static_cast<double>(a[static_cast<std::size_t>(i + p * na)]) *
                      b0[static_cast<std::size_t>(p + j * m)];
            }
          } else {
            for (int p = j; p < n; ++p) {
              want += static_cast<double>(b0[static_cast<std::size_t>(i + p * m)]) *
                      a[static_cast<std::size_t>(p + j * na)];
            }
          }
          // Small integers: every sum is exact in double.
          bad += b[static_cast<std::size_t>(i + j * m)] != static_cast<double>(want);
        }
      }
      CHECK_MESSAGE(bad == 0, "dtrmm side ", side, " ", m, " x ", n);
    }
  }
}

TEST_CASE("ztrmm and ztrsm with B in several chunks (the triangle's block packed once), both sides") {
  // Order 200, B's long side 300: two chunks of 150, so each step of the
  // recursion is a batched product with the triangle's block shared (on
  // the left side as the left operand, on the right as the right one);
  // sampled columns (rows, on the right) of X, both chunks' edges among
  // them. Order 70 (a few blocks: the triangle read from a copy, B one
  // chunk written in place), 600 wide: a recursion level above the
  // diagonal blocks (64 and 32). Order 9, 20 wide: substitution straight
  // on B. The last two checked whole.
  struct Shape {
    int order, wide;
    bool sampled;
  };
  for (const Shape& shape : {Shape{200, 300, true}, Shape{70, 600, false}, Shape{9, 20, false}}) {
    const int order = shape.order, wide = shape.wide;
    const auto checked = [&](int v) {
      return !shape.sampled || v == 0 || v == 1 || v == 148 || v == 149 || v == 150 || v == 151 ||
             v == wide - 1;
    };
    for (char side : {'L', 'R'}) {
      for (char trans : {'N', 'C'}) {
        for (bool solve : {false, true}) {
          const int m = side == 'L' ? order : wide, n = side == 'L' ? wide : order;
          const int lda = order + 3, ldb = m + 2;
          std::vector<c64> a = complex_values(static_cast<std::size_t>(lda) * order, 11);
          for (int i = 0; i < order; ++i) a[static_cast<std::size_t>(i + i * lda)] += c64(4, 0);
          const std::vector<c64> b0 = complex_values(static_cast<std::size_t>(ldb) * n, 12);
          std::vector<c64> b = b0;
          const c64 alpha(0.75, -0.5);
          const char uplo = 'U', diag = 'N';
          (solve ? ztrsm_ : ztrmm_)(&side, &uplo, &trans, &diag, &m, &n, &alpha, a.data(), &lda,
                                    b.data(), &ldb);
          // op(A)(i, p) from the upper triangle.
          const auto opa = [&](int i, int p) -> cl {
            const int r = trans == 'N' ? i : p, col = trans == 'N' ? p : i;
            if (r > col) return 0;
            const cl v = widen(a[static_cast<std::size_t>(r + col * lda)]);
            return trans == 'C' ? std::conj(v) : v;
          };
          // TRMM: B must be alpha op(A) B0 (or alpha B0 op(A)). TRSM: B is X,
          // and op(A) X (or X op(A)) must give back alpha B0.
          const std::vector<c64>& y = solve ? b : b0;
          int bad = 0;
          for (int j = 0; j < n; ++j) {
            for (int i = 0; i < m; ++i) {
              if (!checked(side == 'L' ? j : i)) continue;
              cl sum = 0;
              double mag = 0;
              for (int p = 0; p < order; ++p) {
                const cl v = side == 'L'
                                 ? opa(i, p) * widen(y[static_cast<std::size_t>(p + j * ldb)])
                                 : widen(y[static_cast<std::size_t>(i + p * ldb)]) * opa(p, j);
                sum += v;
                mag += std::abs(v);
              }
              const std::size_t at = static_cast<std::size_t>(i + j * ldb);
              const cl got = solve ? sum : widen(b[at]);
              const cl want = solve ? widen(alpha) * widen(b0[at]) : widen(alpha) * sum;
              bad += !close(got, want, 2 * mag);
            }
          }
          for (int j = 0; j < n; ++j) {
            for (int i = m; i < ldb; ++i) {
              const std::size_t pad = static_cast<std::size_t>(i + j * ldb);
              bad += b[pad] != b0[pad];
            }
          }
          CHECK_MESSAGE(bad == 0, "order ", order, " side ", side, " trans ", trans,
                        solve ? " ztrsm" : " ztrmm");
        }
      }
    }
  }
}
