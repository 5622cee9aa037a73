// libtessera_blas's level 3 against OpenBLAS's, every routine in every
// type (gemm, symm, hemm, syrk, herk, syr2k, her2k, trmm, trsm in s, d, c,
// z), through the CBLAS interface (column-major), side by side: each round
// runs every (routine, library) pair once, in an order rotated per round;
// reported are the median GFLOP/s with its spread and the per-round time
// ratio OpenBLAS / tessera (above 1: tessera faster). Both libraries use
// the thread count of --threads (TESSERA_NUM_THREADS and OpenBLAS's
// openblas_set_num_threads), else their defaults, and every timed call
// starts after a pause that lets the other library's threads go idle.
// libtessera_blas is dlopen()ed RTLD_LOCAL, so the OpenBLAS linked here
// cannot stand in for it; each tessera function has the type of OpenBLAS's
// cblas.h declaration of the same name.
//
// Flops: gemm, symm, hemm, syr2k, her2k 2n^3; syrk, herk, trmm, trsm n^3;
// four times that for complex types (a complex multiply-add is 8 flops).
//
//   ./dev bench blas_level3
//   TESSERA_BENCH_ARGS="--n 256,1000,2000 --threads 2 --types dz --routines gemm,trsm"
// --routines trmm_right,trsm_right adds the right side (X L^T = B, as
// LAPACK's lower Cholesky calls it); the default table has the left only.
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "bench_support.hpp"
#include "blas_side_by_side.hpp"
#include "peer_openblas.hpp"

#if defined(TESSERA_BENCH_HAVE_OPENBLAS)
#include <cblas.h>
#endif

namespace {

// Milliseconds of quiet before each timed call (run_side_by_side).
constexpr int kQuietMs = 200;

using tessera::bench::BlasCase;

#if defined(TESSERA_BENCH_HAVE_OPENBLAS)

template <class T>
inline constexpr bool kComplex = !std::is_floating_point_v<T>;

// The operands of one size: A (general and, in `tri`, with a dominant
// diagonal for trsm), B, C, and X (trmm/trsm's B, refreshed per run).
template <class T>
struct Operands {
  std::vector<T> a, b, c, tri, x;
  T alpha, beta;
  Operands(int n, unsigned seed) {
    const std::size_t nn = static_cast<std::size_t>(n) * n;
    const auto fill = [&](std::vector<T>& v) {
      v.resize(nn);
      for (auto& e : v) {
        const auto next = [&] {
          seed = seed * 1664525u + 1013904223u;
          return static_cast<double>(static_cast<int>(seed >> 9) % 2001 - 1000) / 1000.0;
        };
        if constexpr (kComplex<T>) {
          const double re = next();
          e = T(re, next());
        } else {
          e = static_cast<T>(next());
        }
      }
    };
    fill(a), fill(b), fill(c);
    tri = a;
    for (int i = 0; i < n; ++i) tri[static_cast<std::size_t>(i) * n + i] = T(n);
    x = b;
    alpha = T(1);
    beta = T(0);
  }
};

// A scalar as CBLAS takes it: real by value, complex by address.
template <class T>
auto scalar(const T& v) {
  if constexpr (kComplex<T>) {
    return static_cast<const void*>(&v);
  } else {
    return v;
  }
}
// herk's alpha and beta, her2k's beta: real for every type.
template <class T>
auto real_scalar(const T& v) {
  if constexpr (kComplex<T>) {
    return v.real();
  } else {
    return v;
  }
}

constexpr auto kCol = CblasColMajor;

// One case per routine of type T at size n; `o` is OpenBLAS's function, and
// tessera's of the same name has its type. Each adder calls `call(f)`.
template <class T>
struct Adder {
  std::vector<BlasCase>& cases;
  void* lib;
  int n;
  std::shared_ptr<Operands<T>> d;
  double scale = kComplex<T> ? 4.0 : 1.0;

  template <class F, class Call>
  void add(const char* name, F o, double flops_per_n3, Call call, const char* suffix = "") {
    const F t = tessera::bench::blas_symbol<F>(lib, name, "bench-blas_level3");
    const double dn = n;
    cases.push_back({std::string(name) + suffix, n, scale * flops_per_n3 * dn * dn * dn,
                     [=] { call(t); }, [=] { call(o); }});
  }
  template <class F>
  void gemm(const char* name, F o) {
    auto d = this->d;
    const int n = this->n;
    add(name, o, 2, [d, n](F f) {
      f(kCol, CblasNoTrans, CblasNoTrans, n, n, n, scalar(d->alpha), d->a.data(), n, d->b.data(),
        n, scalar(d->beta), d->c.data(), n);
    });
  }
  template <class F>
  void symm(const char* name, F o) {
    auto d = this->d;
    const int n = this->n;
    add(name, o, 2, [d, n](F f) {
      f(kCol, CblasLeft, CblasUpper, n, n, scalar(d->alpha), d->a.data(), n, d->b.data(), n,
        scalar(d->beta), d->c.data(), n);
    });
  }
  template <class F>
  void syrk(const char* name, F o) {
    auto d = this->d;
    const int n = this->n;
    add(name, o, 1, [d, n](F f) {
      f(kCol, CblasUpper, CblasNoTrans, n, n, scalar(d->alpha), d->a.data(), n, scalar(d->beta),
        d->c.data(), n);
    });
  }
  // herk: alpha and beta real.
  template <class F>
  void herk(const char* name, F o) {
    auto d = this->d;
    const int n = this->n;
    add(name, o, 1, [d, n](F f) {
      f(kCol, CblasUpper, CblasNoTrans, n, n, real_scalar(d->alpha), d->a.data(), n,
        real_scalar(d->beta), d->c.data(), n);
    });
  }
  template <class F>
  void syr2k(const char* name, F o) {
    auto d = this->d;
    const int n = this->n;
    add(name, o, 2, [d, n](F f) {
      f(kCol, CblasUpper, CblasNoTrans, n, n, scalar(d->alpha), d->a.data(), n, d->b.data(), n,
        scalar(d->beta), d->c.data(), n);
    });
  }
  // her2k: beta real.
  template <class F>
  void her2k(const char* name, F o) {
    auto d = this->d;
    const int n = this->n;
    add(name, o, 2, [d, n](F f) {
      f(kCol, CblasUpper, CblasNoTrans, n, n, scalar(d->alpha), d->a.data(), n, d->b.data(), n,
        real_scalar(d->beta), d->c.data(), n);
    });
  }
  // trmm and trsm overwrite B: each run starts from a fresh copy (timed for
  // both libraries alike, n^2 elements next to n^3 flops). Left: L X = B;
  // right (the `trmm_right` and `trsm_right` rows), as LAPACK's lower
  // Cholesky calls it: X L^T = B.
  template <class F>
  void triangular(const char* name, F o, bool right = false) {
    auto d = this->d;
    const int n = this->n;
    const CBLAS_SIDE side = right ? CblasRight : CblasLeft;
    const CBLAS_TRANSPOSE trans = right ? CblasTrans : CblasNoTrans;
    add(name, o, 1, [d, n, side, trans](F f) {
      d->x = d->b;
      f(kCol, side, CblasLower, trans, CblasNonUnit, n, n, scalar(d->alpha), d->tri.data(), n,
        d->x.data(), n);
    }, right ? " right" : "");
  }
};

template <class T, class Add>
void add_type(std::vector<BlasCase>& cases, void* lib, int n, const std::string& routines,
              unsigned seed, Add&& add_all) {
  Adder<T> adder{cases, lib, n, std::make_shared<Operands<T>>(n, seed)};
  add_all(adder, [&](const char* r) { return tessera::bench::blas_bench_wants(routines, r); });
}

#endif  // TESSERA_BENCH_HAVE_OPENBLAS

}  // namespace

int main(int argc, char** argv) {
  using namespace tessera::bench;
#if !defined(TESSERA_BENCH_HAVE_OPENBLAS)
  (void)argc, (void)argv;
  std::printf("bench-blas_level3: OpenBLAS not found (libopenblas-dev): nothing to compare\n");
  return 0;
#else
  select_openblas_core(argv, "bench-blas_level3");
  BlasBenchArgs args;
  args.sizes = {1000};
  args.rounds = 5;
  args.types = "sdcz";
  parse_blas_bench_args(argc, argv, &args);
  set_blas_bench_threads(args.threads);
  std::printf("%s\n", openblas_report().c_str());
  void* lib = open_tessera_blas(TESSERA_BLAS_LIBRARY, "bench-blas_level3");
  std::vector<BlasCase> cases;
  for (int n : args.sizes) {
    for (char p : args.types) {
      const std::string& routines = args.routines;
      const auto add_real = [&routines](auto& a, auto want, auto gemm, auto symm, auto syrk, auto syr2k,
                               auto trmm, auto trsm, const char* const names[6]) {
        if (want("gemm")) a.gemm(names[0], gemm);
        if (want("symm")) a.symm(names[1], symm);
        if (want("syrk")) a.syrk(names[2], syrk);
        if (want("syr2k")) a.syr2k(names[3], syr2k);
        if (want("trmm")) a.triangular(names[4], trmm);
        if (want("trsm")) a.triangular(names[5], trsm);
        // Only where asked for (not in the default table).
        if (!routines.empty() && want("trmm_right")) a.triangular(names[4], trmm, true);
        if (!routines.empty() && want("trsm_right")) a.triangular(names[5], trsm, true);
      };
      if (p == 's') {
        const char* const names[6] = {"cblas_sgemm",  "cblas_ssymm", "cblas_ssyrk",
                                             "cblas_ssyr2k", "cblas_strmm", "cblas_strsm"};
        add_type<float>(cases, lib, n, args.routines, 1, [&](auto& a, auto want) {
          add_real(a, want, &cblas_sgemm, &cblas_ssymm, &cblas_ssyrk, &cblas_ssyr2k, &cblas_strmm,
                   &cblas_strsm, names);
        });
      } else if (p == 'd') {
        const char* const names[6] = {"cblas_dgemm",  "cblas_dsymm", "cblas_dsyrk",
                                             "cblas_dsyr2k", "cblas_dtrmm", "cblas_dtrsm"};
        add_type<double>(cases, lib, n, args.routines, 2, [&](auto& a, auto want) {
          add_real(a, want, &cblas_dgemm, &cblas_dsymm, &cblas_dsyrk, &cblas_dsyr2k, &cblas_dtrmm,
                   &cblas_dtrsm, names);
        });
      } else if (p == 'c') {
        const char* const names[6] = {"cblas_cgemm",  "cblas_csymm", "cblas_csyrk",
                                             "cblas_csyr2k", "cblas_ctrmm", "cblas_ctrsm"};
        add_type<std::complex<float>>(cases, lib, n, args.routines, 3, [&](auto& a, auto want) {
          add_real(a, want, &cblas_cgemm, &cblas_csymm, &cblas_csyrk, &cblas_csyr2k, &cblas_ctrmm,
                   &cblas_ctrsm, names);
          if (want("hemm")) a.symm("cblas_chemm", &cblas_chemm);
          if (want("herk")) a.herk("cblas_cherk", &cblas_cherk);
          if (want("her2k")) a.her2k("cblas_cher2k", &cblas_cher2k);
        });
      } else if (p == 'z') {
        const char* const names[6] = {"cblas_zgemm",  "cblas_zsymm", "cblas_zsyrk",
                                             "cblas_zsyr2k", "cblas_ztrmm", "cblas_ztrsm"};
        add_type<std::complex<double>>(cases, lib, n, args.routines, 4, [&](auto& a, auto want) {
          add_real(a, want, &cblas_zgemm, &cblas_zsymm, &cblas_zsyrk, &cblas_zsyr2k, &cblas_ztrmm,
                   &cblas_ztrsm, names);
          if (want("hemm")) a.symm("cblas_zhemm", &cblas_zhemm);
          if (want("herk")) a.herk("cblas_zherk", &cblas_zherk);
          if (want("her2k")) a.her2k("cblas_zher2k", &cblas_zher2k);
        });
      }
    }
  }
  const SideBySide times = run_side_by_side(cases, args.rounds, kQuietMs);
  print_side_by_side("blas_level3", "GFLOP/s", args, cases, times);
  dlclose(lib);
  return 0;
#endif
}
