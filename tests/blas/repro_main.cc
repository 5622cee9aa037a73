// The reproducibility contract for the BLAS routines built on tessera's
// GEMM and GEMV: the same bits for every worker count. This program runs
// a fixed set of calls (complex GEMM, TRSM, TRMM, HERK, SYR2K, SYMM, in
// several types, large enough that the GEMM splits across workers; DSYMV
// and STRSV, whose panels are GEMVs; DSYR2, a SYR2K of depth 1) on fixed
// inputs and prints one FNV-1a hash of every output's bytes;
// tests/blas/check_repro.sh runs it under several TESSERA_NUM_THREADS and
// requires one hash.
#include <complex>
#include <cstdint>
#include <cstdio>
#include <type_traits>
#include <vector>

using c32 = std::complex<float>;
using c64 = std::complex<double>;

extern "C" {
void zgemm_(const char*, const char*, const int*, const int*, const int*, const c64*,
            const c64*, const int*, const c64*, const int*, const c64*, c64*, const int*);
void cgemm_(const char*, const char*, const int*, const int*, const int*, const c32*,
            const c32*, const int*, const c32*, const int*, const c32*, c32*, const int*);
void ztrsm_(const char*, const char*, const char*, const char*, const int*, const int*,
            const c64*, const c64*, const int*, c64*, const int*);
void dtrmm_(const char*, const char*, const char*, const char*, const int*, const int*,
            const double*, const double*, const int*, double*, const int*);
void zherk_(const char*, const char*, const int*, const int*, const double*, const c64*,
            const int*, const double*, c64*, const int*);
void ssyr2k_(const char*, const char*, const int*, const int*, const float*, const float*,
             const int*, const float*, const int*, const float*, float*, const int*);
void dsymv_(const char*, const int*, const double*, const double*, const int*, const double*,
            const int*, const double*, double*, const int*);
void strsv_(const char*, const char*, const char*, const int*, const float*, const int*, float*,
            const int*);
void dsyr2_(const char*, const int*, const double*, const double*, const int*, const double*,
            const int*, double*, const int*);
void chemm_(const char*, const char*, const int*, const int*, const c32*, const c32*,
            const int*, const c32*, const int*, const c32*, c32*, const int*);
}

namespace {

std::uint64_t hash = 1469598103934665603ull;
template <class T>
void mix(const std::vector<T>& v) {
  const auto* p = reinterpret_cast<const unsigned char*>(v.data());
  for (std::size_t i = 0; i < v.size() * sizeof(T); ++i) {
    hash = (hash ^ p[i]) * 1099511628211ull;
  }
}

template <class T>
std::vector<T> values(std::size_t n, unsigned seed) {
  std::vector<T> v(n);
  for (auto& e : v) {
    seed = seed * 1664525u + 1013904223u;
    const double x = static_cast<int>(seed >> 9) % 2001 / 1000.0 - 1.0;
    seed = seed * 1664525u + 1013904223u;
    const double y = static_cast<int>(seed >> 9) % 2001 / 1000.0 - 1.0;
    if constexpr (std::is_floating_point_v<T>) {
      e = static_cast<T>(x);
    } else {
      e = T(static_cast<typename T::value_type>(x), static_cast<typename T::value_type>(y));
    }
  }
  return v;
}

// A triangular matrix with a dominant diagonal, for the solve.
template <class T>
std::vector<T> dominant(int n, unsigned seed) {
  std::vector<T> a = values<T>(static_cast<std::size_t>(n) * n, seed);
  for (int i = 0; i < n; ++i) a[static_cast<std::size_t>(i) * n + i] += T(n);
  return a;
}

}  // namespace

int main() {
  const int n = 161, k = 131;
  const std::size_t nn = static_cast<std::size_t>(n) * n, nk = static_cast<std::size_t>(n) * k;
  {
    const auto a = values<c64>(nk, 1), b = values<c64>(nk, 2);
    auto c = values<c64>(nn, 3);
    const c64 alpha(0.5, -1.25), beta(-0.75, 0.5);
    zgemm_("N", "C", &n, &n, &k, &alpha, a.data(), &n, b.data(), &n, &beta, c.data(), &n);
    mix(c);
  }
  {
    const auto a = values<c32>(nk, 4), b = values<c32>(nk, 5);
    auto c = values<c32>(nn, 6);
    const c32 alpha(1.5f, 0.25f), beta(0.0f, 0.0f);
    cgemm_("T", "N", &n, &n, &k, &alpha, a.data(), &k, b.data(), &k, &beta, c.data(), &n);
    mix(c);
  }
  {
    const auto a = dominant<c64>(n, 7);
    auto b = values<c64>(nk, 8);
    const c64 alpha(1.0, 0.5);
    ztrsm_("L", "U", "C", "N", &n, &k, &alpha, a.data(), &n, b.data(), &n);
    mix(b);
    ztrsm_("R", "L", "N", "U", &k, &n, &alpha, a.data(), &n, b.data(), &k);
    mix(b);
  }
  {
    const auto a = values<double>(nn, 9);
    auto b = values<double>(nk, 10);
    const double alpha = 0.75;
    dtrmm_("L", "L", "T", "N", &n, &k, &alpha, a.data(), &n, b.data(), &n);
    mix(b);
  }
  {
    const auto a = values<c64>(nk, 11);
    auto c = values<c64>(nn, 12);
    const double alpha = 1.5, beta = 0.5;
    zherk_("L", "N", &n, &k, &alpha, a.data(), &n, &beta, c.data(), &n);
    mix(c);
  }
  {
    // Order 300: the triangle GEMM (level3.cc), on 1m's reals.
    const int big = 300;
    const auto a = values<c64>(static_cast<std::size_t>(big) * k, 22);
    auto c = values<c64>(static_cast<std::size_t>(big) * big, 23);
    const double alpha = -0.5, beta = 1.25;
    zherk_("U", "N", &big, &k, &alpha, a.data(), &big, &beta, c.data(), &big);
    mix(c);
  }
  {
    const auto a = values<float>(nk, 13), b = values<float>(nk, 14);
    auto c = values<float>(nn, 15);
    const float alpha = -0.5f, beta = 1.0f;
    ssyr2k_("U", "T", &n, &k, &alpha, a.data(), &k, b.data(), &k, &beta, c.data(), &n);
    mix(c);
    // Order 300: two triangle GEMMs.
    const int big = 300;
    const auto x = values<float>(static_cast<std::size_t>(big) * k, 24),
               y = values<float>(static_cast<std::size_t>(big) * k, 25);
    auto d = values<float>(static_cast<std::size_t>(big) * big, 26);
    ssyr2k_("L", "N", &big, &k, &alpha, x.data(), &big, y.data(), &big, &beta, d.data(), &big);
    mix(d);
  }
  {
    const auto a = values<c32>(nn, 16), b = values<c32>(nk, 17);
    auto c = values<c32>(nk, 18);
    const c32 alpha(0.5f, 0.5f), beta(1.0f, -1.0f);
    chemm_("L", "U", &n, &k, &alpha, a.data(), &n, b.data(), &n, &beta, c.data(), &n);
    mix(c);
  }
  {
    // Several blocks of columns, each panel two GEMVs.
    const int m = 1200, inc = 1;
    const auto a = values<double>(static_cast<std::size_t>(m) * m, 19),
               x = values<double>(static_cast<std::size_t>(m), 20);
    auto y = values<double>(static_cast<std::size_t>(m), 21);
    const double alpha = 0.75, beta = -0.5;
    dsymv_("L", &m, &alpha, a.data(), &m, x.data(), &inc, &beta, y.data(), &inc);
    mix(y);
  }
  {
    const int m = 1100, inc = -2;
    const auto a = dominant<float>(m, 22);
    auto x = values<float>(static_cast<std::size_t>(2 * m), 23);
    strsv_("U", "T", "N", &m, a.data(), &m, x.data(), &inc);
    mix(x);
  }
  {
    const int m = 1000, incx = 1, incy = 2;
    auto a = values<double>(static_cast<std::size_t>(m) * m, 24);
    const auto x = values<double>(static_cast<std::size_t>(m), 25),
               y = values<double>(static_cast<std::size_t>(2 * m), 26);
    const double alpha = -1.5;
    dsyr2_("U", &m, &alpha, x.data(), &incx, y.data(), &incy, a.data(), &m);
    mix(a);
  }
  std::printf("%016llx\n", static_cast<unsigned long long>(hash));
  return 0;
}
