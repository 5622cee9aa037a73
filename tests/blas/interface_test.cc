// The parts of libtessera_blas's interface no reference tester calls: the
// *SUB subroutines the reference CBLAS builds on (each checked against a
// naive long double computation, so a wrapper forwarding to the wrong
// routine or argument fails), LSAME, XERBLA_ARRAY (through this program's
// own XERBLA, which replaces the library's weak default as a tester's
// does), SCABS1/DCABS1, and the level-2 bodies past the testers' n = 9 on
// a Hermitian band with every storage scheme agreeing.
#include <doctest/doctest.h>

#include <complex>
#include <cstddef>
#include <string>
#include <vector>

using c32 = std::complex<float>;
using c64 = std::complex<double>;

namespace {
std::string last_xerbla_name;
int last_xerbla_info = 0;
}  // namespace

extern "C" {
void xerbla_(const char* name, const int* info, std::size_t length) {
  last_xerbla_name.assign(name, length);
  last_xerbla_info = *info;
}
void sdotsub_(const int*, const float*, const int*, const float*, const int*, float*);
void ddotsub_(const int*, const double*, const int*, const double*, const int*, double*);
void sdsdotsub_(const int*, const float*, const float*, const int*, const float*, const int*,
                float*);
void dsdotsub_(const int*, const float*, const int*, const float*, const int*, double*);
void cdotusub_(const int*, const c32*, const int*, const c32*, const int*, c32*);
void cdotcsub_(const int*, const c32*, const int*, const c32*, const int*, c32*);
void zdotusub_(const int*, const c64*, const int*, const c64*, const int*, c64*);
void zdotcsub_(const int*, const c64*, const int*, const c64*, const int*, c64*);
void sasumsub_(const int*, const float*, const int*, float*);
void dzasumsub_(const int*, const c64*, const int*, double*);
void scnrm2sub_(const int*, const c32*, const int*, float*);
void dnrm2sub_(const int*, const double*, const int*, double*);
void icamaxsub_(const int*, const c32*, const int*, int*);
void idamaxsub_(const int*, const double*, const int*, int*);
void scabs1sub_(const c32*, float*);
void dcabs1sub_(const c64*, double*);
float scabs1_(const c32*);
int lsame_(const char*, const char*);
void xerbla_array_(const char*, const int*, const int*);
void zhbmv_(const char*, const int*, const int*, const c64*, const c64*, const int*, const c64*,
            const int*, const c64*, c64*, const int*);
void zhpmv_(const char*, const int*, const c64*, const c64*, const c64*, const int*, const c64*,
            c64*, const int*);
void dgemm_(const char*, const char*, const int*, const int*, const int*, const double*,
            const double*, const int*, const double*, const int*, const double*, double*,
            const int*);
void dgemv_(const char*, const int*, const int*, const double*, const double*, const int*,
            const double*, const int*, const double*, double*, const int*);
void zhemv_(const char*, const int*, const c64*, const c64*, const int*, const c64*, const int*,
            const c64*, c64*, const int*);
}

namespace {

// Small exact values, distinct per position.
double value(int i, int seed) { return ((i * 7 + seed * 13) % 23 - 11) / 4.0; }

}  // namespace

TEST_CASE("the *SUB subroutines store their function's value") {
  const int n = 37, one = 1, two = 2;
  std::vector<float> xs(2 * n), ys(2 * n);
  std::vector<double> xd(2 * n);
  std::vector<c32> xc(n), yc(n);
  std::vector<c64> xz(n), yz(n);
  for (int i = 0; i < 2 * n; ++i) {
    xs[i] = static_cast<float>(value(i, 1));
    ys[i] = static_cast<float>(value(i, 2));
    xd[i] = value(i, 3);
  }
  for (int i = 0; i < n; ++i) {
    xc[i] = c32(static_cast<float>(value(i, 4)), static_cast<float>(value(i, 5)));
    yc[i] = c32(static_cast<float>(value(i, 6)), static_cast<float>(value(i, 7)));
    xz[i] = c64(value(i, 8), value(i, 9));
    yz[i] = c64(value(i, 10), value(i, 11));
  }
  long double dot_s = 0, asum_s = 0, sq_d = 0;
  std::complex<long double> dotu_c = 0, dotc_c = 0, dotu_z = 0, dotc_z = 0;
  long double asum_z = 0, sq_c = 0;
  int amax_c = 0, amax_d = 0;
  double best_c = -1, best_d = -1;
  for (int i = 0; i < n; ++i) {
    dot_s += static_cast<long double>(xs[2 * i]) * ys[2 * i];  // increment 2
    asum_s += std::fabs(xs[i]);
    sq_d += static_cast<long double>(xd[i]) * xd[i];
    using cl = std::complex<long double>;
    const cl xci(xc[i].real(), xc[i].imag()), yci(yc[i].real(), yc[i].imag());
    const cl xzi(xz[i].real(), xz[i].imag()), yzi(yz[i].real(), yz[i].imag());
    dotu_c += xci * yci;
    dotc_c += std::conj(xci) * yci;
    dotu_z += xzi * yzi;
    dotc_z += std::conj(xzi) * yzi;
    asum_z += std::fabs(xz[i].real()) + std::fabs(xz[i].imag());
    sq_c += std::norm(xci);
    const double ac = std::fabs(xc[i].real()) + std::fabs(xc[i].imag());
    if (ac > best_c) best_c = ac, amax_c = i + 1;
    if (std::fabs(xd[i]) > best_d) best_d = std::fabs(xd[i]), amax_d = i + 1;
  }
  float rs = 0;
  double rd = 0;
  c32 rc;
  c64 rz;
  int ri = 0;
  sdotsub_(&n, xs.data(), &two, ys.data(), &two, &rs);
  CHECK(rs == doctest::Approx(static_cast<double>(dot_s)).epsilon(1e-6));
  ddotsub_(&n, xd.data(), &one, xd.data(), &one, &rd);
  CHECK(rd == doctest::Approx(static_cast<double>(sq_d)).epsilon(1e-14));
  const float sb = 0.5f;
  sdsdotsub_(&n, &sb, xs.data(), &two, ys.data(), &two, &rs);
  CHECK(rs == doctest::Approx(static_cast<double>(dot_s) + 0.5).epsilon(1e-6));
  dsdotsub_(&n, xs.data(), &two, ys.data(), &two, &rd);
  CHECK(rd == doctest::Approx(static_cast<double>(dot_s)).epsilon(1e-14));
  cdotusub_(&n, xc.data(), &one, yc.data(), &one, &rc);
  CHECK(rc.real() == doctest::Approx(static_cast<double>(dotu_c.real())).epsilon(1e-6));
  CHECK(rc.imag() == doctest::Approx(static_cast<double>(dotu_c.imag())).epsilon(1e-6));
  cdotcsub_(&n, xc.data(), &one, yc.data(), &one, &rc);
  CHECK(rc.real() == doctest::Approx(static_cast<double>(dotc_c.real())).epsilon(1e-6));
  CHECK(rc.imag() == doctest::Approx(static_cast<double>(dotc_c.imag())).epsilon(1e-6));
  zdotusub_(&n, xz.data(), &one, yz.data(), &one, &rz);
  CHECK(rz.real() == doctest::Approx(static_cast<double>(dotu_z.real())).epsilon(1e-14));
  CHECK(rz.imag() == doctest::Approx(static_cast<double>(dotu_z.imag())).epsilon(1e-14));
  zdotcsub_(&n, xz.data(), &one, yz.data(), &one, &rz);
  CHECK(rz.real() == doctest::Approx(static_cast<double>(dotc_z.real())).epsilon(1e-14));
  CHECK(rz.imag() == doctest::Approx(static_cast<double>(dotc_z.imag())).epsilon(1e-14));
  sasumsub_(&n, xs.data(), &one, &rs);
  CHECK(rs == doctest::Approx(static_cast<double>(asum_s)).epsilon(1e-6));
  dzasumsub_(&n, xz.data(), &one, &rd);
  CHECK(rd == doctest::Approx(static_cast<double>(asum_z)).epsilon(1e-14));
  scnrm2sub_(&n, xc.data(), &one, &rs);
  CHECK(rs == doctest::Approx(std::sqrt(static_cast<double>(sq_c))).epsilon(1e-6));
  dnrm2sub_(&n, xd.data(), &one, &rd);
  CHECK(rd == doctest::Approx(std::sqrt(static_cast<double>(sq_d))).epsilon(1e-14));
  icamaxsub_(&n, xc.data(), &one, &ri);
  CHECK(ri == amax_c);
  idamaxsub_(&n, xd.data(), &one, &ri);
  CHECK(ri == amax_d);
  const c32 zc(-1.5f, 2.25f);
  const c64 zz(3.0, -0.5);
  scabs1sub_(&zc, &rs);
  CHECK(rs == 3.75f);
  CHECK(scabs1_(&zc) == 3.75f);
  dcabs1sub_(&zz, &rd);
  CHECK(rd == 3.5);
}

TEST_CASE("lsame compares letters in either case") {
  CHECK(lsame_("a", "A") != 0);
  CHECK(lsame_("U", "u") != 0);
  CHECK(lsame_("N", "N") != 0);
  CHECK(lsame_("N", "T") == 0);
  CHECK(lsame_("1", "!") == 0);
}

TEST_CASE("xerbla_array passes the name's first 32 characters, blank-padded, to xerbla") {
  const char name[] = {'Z', 'G', 'E', 'M', 'M'};
  const int length = 5, info = 7;
  xerbla_array_(name, &length, &info);
  CHECK(last_xerbla_name == "ZGEMM" + std::string(27, ' '));
  CHECK(last_xerbla_info == 7);
  const std::string long_name(40, 'X');
  const int long_length = 40;
  xerbla_array_(long_name.data(), &long_length, &info);
  CHECK(last_xerbla_name == std::string(32, 'X'));
}

TEST_CASE("zhemv, zhbmv (k = n-1) and zhpmv agree past the testers' sizes, both triangles") {
  for (const char* uplo : {"U", "L"}) {
    for (int n : {1, 17, 64, 101}) {
      CAPTURE(n);
      CAPTURE(uplo);
      const bool upper = uplo[0] == 'U';
      // A Hermitian matrix, full storage (both triangles filled), its band
      // form with k = n - 1 and its packed form.
      std::vector<c64> full(static_cast<std::size_t>(n) * n), band(full.size()), packed;
      for (int j = 0; j < n; ++j) {
        for (int i = 0; i < n; ++i) {
          const c64 v = i == j ? c64(value(i, 1), 0.0)
                               : (i < j ? c64(value(i + 3 * j, 2), value(i + 5 * j, 3))
                                        : std::conj(c64(value(j + 3 * i, 2), value(j + 5 * i, 3))));
          full[i + static_cast<std::size_t>(j) * n] = v;
        }
      }
      for (int j = 0; j < n; ++j) {
        const int first = upper ? 0 : j, last = upper ? j : n - 1;
        for (int i = first; i <= last; ++i) {
          const int row = upper ? n - 1 + i - j : i - j;
          band[row + static_cast<std::size_t>(j) * n] = full[i + static_cast<std::size_t>(j) * n];
          packed.push_back(full[i + static_cast<std::size_t>(j) * n]);
        }
      }
      std::vector<c64> x(n);
      for (int i = 0; i < n; ++i) x[i] = c64(value(i, 4), value(i, 5));
      // The naive product on the full matrix.
      std::vector<c64> want(n);
      for (int i = 0; i < n; ++i) {
        std::complex<long double> s = 0;
        for (int j = 0; j < n; ++j) {
          const c64 a = full[i + static_cast<std::size_t>(j) * n];
          s += std::complex<long double>(a.real(), a.imag()) *
               std::complex<long double>(x[j].real(), x[j].imag());
        }
        want[i] = c64(static_cast<double>(s.real()), static_cast<double>(s.imag()));
      }
      const c64 alpha(1.0, 0.0), beta(0.0, 0.0);
      const int one = 1, k = n - 1;
      std::vector<c64> y1(n), y2(n), y3(n);
      zhemv_(uplo, &n, &alpha, full.data(), &n, x.data(), &one, &beta, y1.data(), &one);
      zhbmv_(uplo, &n, &k, &alpha, band.data(), &n, x.data(), &one, &beta, y2.data(), &one);
      zhpmv_(uplo, &n, &alpha, packed.data(), x.data(), &one, &beta, y3.data(), &one);
      for (int i = 0; i < n; ++i) {
        CHECK(y1[i].real() == doctest::Approx(want[i].real()).epsilon(1e-12));
        CHECK(y1[i].imag() == doctest::Approx(want[i].imag()).epsilon(1e-12));
        // The same order of operations on every storage: the same bits.
        CHECK(y2[i] == y1[i]);
        CHECK(y3[i] == y1[i]);
      }
    }
  }
}

TEST_CASE("dgemm and dgemv take blocks of one array whose address ranges interleave") {
  // C, A and B are row blocks of the same columns (ld 8), as LAPACK passes
  // them: disjoint elements, interleaved address ranges; alpha 0 and 1.
  for (const double alpha : {0.0, 1.0}) {
    CAPTURE(alpha);
    std::vector<double> w(64);
    for (int i = 0; i < 64; ++i) w[i] = i;
    const std::vector<double> w0 = w;
    const int m = 2, n = 2, k = 2, ld = 8, one = 1;
    const double beta = 0.5;
    dgemm_("N", "N", &m, &n, &k, &alpha, w.data() + 2, &ld, w.data() + 4, &ld, &beta, w.data(),
           &ld);
    for (int j = 0; j < n; ++j) {
      for (int i = 0; i < m; ++i) {
        double want = beta * w0[i + j * ld];
        for (int p = 0; p < k; ++p) want += alpha * w0[2 + i + p * ld] * w0[4 + p + j * ld];
        CHECK(w[i + j * ld] == want);  // small integers and halves: exact
      }
    }
    // y = rows 0-1 of column 3, A = rows 2-3 of columns 0-1: interleaved.
    dgemv_("N", &m, &n, &alpha, w.data() + 2, &ld, w.data() + 16, &one, &beta, w.data() + 24,
           &one);
    for (int i = 0; i < m; ++i) {
      double want = beta * w0[24 + i];
      for (int p = 0; p < n; ++p) want += alpha * w0[2 + i + p * ld] * w0[16 + p];
      CHECK(w[24 + i] == want);
    }
  }
}
