// libtessera_blas's SYMM, SYRK, TRSM and the complex GEMMs (CGEMM, ZGEMM,
// 8 n^3 flops each) against OpenBLAS's, through the
// CBLAS interface (column-major), side by side: each round runs every
// (routine, library) pair once, in an order rotated per round; reported
// are the median GFLOP/s with its spread and the per-round time ratio
// OpenBLAS / tessera (above 1: tessera faster). Both libraries use their
// default thread count (the machine's cores; tessera: TESSERA_NUM_THREADS,
// OpenBLAS: OPENBLAS_NUM_THREADS), and every timed call starts after a
// pause that lets the other library's threads go idle. libtessera_blas is
// dlopen()ed RTLD_LOCAL, so the OpenBLAS linked here cannot stand in for it.
//
//   ./dev bench blas_level3         (TESSERA_BENCH_ARGS="--n 500 --rounds 9")
#include <dlfcn.h>

#include <chrono>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "bench_support.hpp"
#include "peer_openblas.hpp"

#if defined(TESSERA_BENCH_HAVE_OPENBLAS)
#include <cblas.h>
#endif

namespace {

using Symm = void (*)(int, int, int, int, int, double, const double*, int, const double*, int,
                      double, double*, int);
using Syrk = void (*)(int, int, int, int, int, double, const double*, int, double, double*, int);
using Trsm = void (*)(int, int, int, int, int, int, int, double, const double*, int, double*, int);
using SymmF = void (*)(int, int, int, int, int, float, const float*, int, const float*, int, float,
                       float*, int);
using SyrkF = void (*)(int, int, int, int, int, float, const float*, int, float, float*, int);
using TrsmF = void (*)(int, int, int, int, int, int, int, float, const float*, int, float*, int);
// cblas_cgemm / cblas_zgemm: complex scalars and arrays by address.
using GemmC = void (*)(int, int, int, int, int, int, const void*, const void*, int, const void*,
                       int, const void*, void*, int);

// Milliseconds of quiet before each timed call (see the round loop).
constexpr int kQuietMs = 200;

// The CBLAS enum values (identical in every cblas.h).
constexpr int kCol = 102, kLeft = 141, kUpper = 121, kLower = 122, kNoTrans = 111, kNonUnit = 131;

template <class T>
std::vector<T> values(std::size_t n, unsigned seed) {
  std::vector<T> v(n);
  for (auto& e : v) {
    seed = seed * 1664525u + 1013904223u;
    e = static_cast<T>(static_cast<int>(seed >> 9) % 2001 - 1000) / T(1000);
  }
  return v;
}

struct Case {
  std::string name;
  double flops;
  std::function<void()> tessera, openblas;
};

template <class T, class SymmT, class SyrkT, class TrsmT>
void add_cases(std::vector<Case>& cases, const char* p, int n, void* lib, SymmT o_symm,
               SyrkT o_syrk, TrsmT o_trsm) {
  const std::string pre = std::string("cblas_") + p;
  const auto t_symm = reinterpret_cast<SymmT>(dlsym(lib, (pre + "symm").c_str()));
  const auto t_syrk = reinterpret_cast<SyrkT>(dlsym(lib, (pre + "syrk").c_str()));
  const auto t_trsm = reinterpret_cast<TrsmT>(dlsym(lib, (pre + "trsm").c_str()));
  if (t_symm == nullptr || t_syrk == nullptr || t_trsm == nullptr) {
    std::fprintf(stderr, "bench-blas_level3: %s lacks %s{symm,syrk,trsm}\n", TESSERA_BLAS_LIBRARY,
                 pre.c_str());
    std::exit(1);
  }
  const std::size_t nn = static_cast<std::size_t>(n) * n;
  auto a = std::make_shared<std::vector<T>>(values<T>(nn, 1));
  auto b = std::make_shared<std::vector<T>>(values<T>(nn, 2));
  auto c = std::make_shared<std::vector<T>>(nn);
  // A well-conditioned triangle for TRSM: a dominant diagonal.
  auto tri = std::make_shared<std::vector<T>>(*a);
  for (int i = 0; i < n; ++i) (*tri)[static_cast<std::size_t>(i) * n + i] = T(n);
  auto x = std::make_shared<std::vector<T>>(nn);
  const double dn = n;
  cases.push_back(
      {pre + "symm L U", 2 * dn * dn * dn,
       [=] {
         t_symm(kCol, kLeft, kUpper, n, n, T(1), a->data(), n, b->data(), n, T(0), c->data(), n);
       },
       [=] {
         o_symm(kCol, kLeft, kUpper, n, n, T(1), a->data(), n, b->data(), n, T(0), c->data(), n);
       }});
  cases.push_back(
      {pre + "syrk U N", dn * dn * dn,
       [=] { t_syrk(kCol, kUpper, kNoTrans, n, n, T(1), a->data(), n, T(0), c->data(), n); },
       [=] { o_syrk(kCol, kUpper, kNoTrans, n, n, T(1), a->data(), n, T(0), c->data(), n); }});
  // TRSM overwrites B: each run solves a fresh copy (the copy is timed for
  // both libraries alike, n^2 elements next to n^3 flops).
  cases.push_back(
      {pre + "trsm L L N", dn * dn * dn,
       [=] {
         *x = *b;
         t_trsm(kCol, kLeft, kLower, kNoTrans, kNonUnit, n, n, T(1), tri->data(), n, x->data(), n);
       },
       [=] {
         *x = *b;
         o_trsm(kCol, kLeft, kLower, kNoTrans, kNonUnit, n, n, T(1), tri->data(), n, x->data(), n);
       }});
}

template <class R>
void add_complex_gemm(std::vector<Case>& cases, const char* p, int n, void* lib, GemmC o_gemm) {
  using C = std::complex<R>;
  const std::string name = std::string("cblas_") + p + "gemm";
  const auto t_gemm = reinterpret_cast<GemmC>(dlsym(lib, name.c_str()));
  if (t_gemm == nullptr) {
    std::fprintf(stderr, "bench-blas_level3: %s lacks %s\n", TESSERA_BLAS_LIBRARY, name.c_str());
    std::exit(1);
  }
  const std::size_t nn = static_cast<std::size_t>(n) * n;
  auto parts = std::make_shared<std::vector<R>>(values<R>(4 * nn, 3));
  auto a = std::make_shared<std::vector<C>>(nn), b = std::make_shared<std::vector<C>>(nn);
  for (std::size_t i = 0; i < nn; ++i) {
    (*a)[i] = C((*parts)[4 * i], (*parts)[4 * i + 1]);
    (*b)[i] = C((*parts)[4 * i + 2], (*parts)[4 * i + 3]);
  }
  auto c = std::make_shared<std::vector<C>>(nn);
  const auto alpha = std::make_shared<C>(R(1), R(0)), beta = std::make_shared<C>(R(0), R(0));
  const double dn = n;
  cases.push_back({name + " N N", 8 * dn * dn * dn,
                   [=] {
                     t_gemm(kCol, kNoTrans, kNoTrans, n, n, n, alpha.get(), a->data(), n,
                            b->data(), n, beta.get(), c->data(), n);
                   },
                   [=] {
                     o_gemm(kCol, kNoTrans, kNoTrans, n, n, n, alpha.get(), a->data(), n,
                            b->data(), n, beta.get(), c->data(), n);
                   }});
}

}  // namespace

int main(int argc, char** argv) {
  using namespace tessera::bench;
#if !defined(TESSERA_BENCH_HAVE_OPENBLAS)
  (void)argc, (void)argv;
  std::printf("bench-blas_level3: OpenBLAS not found (libopenblas-dev): nothing to compare\n");
  return 0;
#else
  select_openblas_core(argv, "bench-blas_level3");
  std::printf("%s\n", openblas_report().c_str());
  int n = 1000, rounds = 7;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--n") == 0) n = std::atoi(argv[i + 1]);
    if (std::strcmp(argv[i], "--rounds") == 0) rounds = std::atoi(argv[i + 1]);
  }
  void* lib = dlopen(TESSERA_BLAS_LIBRARY, RTLD_NOW | RTLD_LOCAL);
  if (lib == nullptr) {
    std::fprintf(stderr, "bench-blas_level3: cannot load %s: %s\n", TESSERA_BLAS_LIBRARY,
                 dlerror());
    return 1;
  }
  std::vector<Case> cases;
  // OpenBLAS's functions behind the same int-typed signatures (its enums
  // converted explicitly).
  const Symm o_dsymm = [](int o, int s, int u, int m, int nn, double al, const double* a, int lda,
                          const double* b, int ldb, double be, double* c, int ldc) {
    cblas_dsymm(CBLAS_ORDER(o), CBLAS_SIDE(s), CBLAS_UPLO(u), m, nn, al, a, lda, b, ldb, be, c,
                ldc);
  };
  const Syrk o_dsyrk = [](int o, int u, int t, int nn, int k, double al, const double* a, int lda,
                          double be, double* c, int ldc) {
    cblas_dsyrk(CBLAS_ORDER(o), CBLAS_UPLO(u), CBLAS_TRANSPOSE(t), nn, k, al, a, lda, be, c, ldc);
  };
  const Trsm o_dtrsm = [](int o, int s, int u, int t, int d, int m, int nn, double al,
                          const double* a, int lda, double* b, int ldb) {
    cblas_dtrsm(CBLAS_ORDER(o), CBLAS_SIDE(s), CBLAS_UPLO(u), CBLAS_TRANSPOSE(t), CBLAS_DIAG(d), m,
                nn, al, a, lda, b, ldb);
  };
  const SymmF o_ssymm = [](int o, int s, int u, int m, int nn, float al, const float* a, int lda,
                           const float* b, int ldb, float be, float* c, int ldc) {
    cblas_ssymm(CBLAS_ORDER(o), CBLAS_SIDE(s), CBLAS_UPLO(u), m, nn, al, a, lda, b, ldb, be, c,
                ldc);
  };
  const SyrkF o_ssyrk = [](int o, int u, int t, int nn, int k, float al, const float* a, int lda,
                           float be, float* c, int ldc) {
    cblas_ssyrk(CBLAS_ORDER(o), CBLAS_UPLO(u), CBLAS_TRANSPOSE(t), nn, k, al, a, lda, be, c, ldc);
  };
  const TrsmF o_strsm = [](int o, int s, int u, int t, int d, int m, int nn, float al,
                           const float* a, int lda, float* b, int ldb) {
    cblas_strsm(CBLAS_ORDER(o), CBLAS_SIDE(s), CBLAS_UPLO(u), CBLAS_TRANSPOSE(t), CBLAS_DIAG(d), m,
                nn, al, a, lda, b, ldb);
  };
  add_cases<double>(cases, "d", n, lib, o_dsymm, o_dsyrk, o_dtrsm);
  add_cases<float>(cases, "s", n, lib, o_ssymm, o_ssyrk, o_strsm);
  const GemmC o_cgemm = [](int o, int ta, int tb, int m, int nn, int k, const void* al,
                           const void* a, int lda, const void* b, int ldb, const void* be, void* c,
                           int ldc) {
    cblas_cgemm(CBLAS_ORDER(o), CBLAS_TRANSPOSE(ta), CBLAS_TRANSPOSE(tb), m, nn, k, al, a, lda, b,
                ldb, be, c, ldc);
  };
  const GemmC o_zgemm = [](int o, int ta, int tb, int m, int nn, int k, const void* al,
                           const void* a, int lda, const void* b, int ldb, const void* be, void* c,
                           int ldc) {
    cblas_zgemm(CBLAS_ORDER(o), CBLAS_TRANSPOSE(ta), CBLAS_TRANSPOSE(tb), m, nn, k, al, a, lda, b,
                ldb, be, c, ldc);
  };
  add_complex_gemm<float>(cases, "c", n, lib, o_cgemm);
  add_complex_gemm<double>(cases, "z", n, lib, o_zgemm);
  std::vector<std::vector<double>> t_tessera(cases.size()), t_openblas(cases.size()),
      ratio(cases.size());
  for (auto& k : cases) k.tessera(), k.openblas();  // warm-up: pools, pages
  for (int round = 0; round < rounds; ++round) {
    for (std::size_t i = 0; i < cases.size(); ++i) {
      const std::size_t k = (i + static_cast<std::size_t>(round)) % cases.size();
      // A pause before each timed call: OpenBLAS's idle threads keep
      // spinning (sched_yield) for a while after a call, and would take a
      // core from whichever library runs next on a small machine.
      const auto timed = [](const std::function<void()>& f) {
        std::this_thread::sleep_for(std::chrono::milliseconds(kQuietMs));
        return time_runs(1, f)[0];
      };
      double tt, to;
      if (round % 2 == 0) {
        tt = timed(cases[k].tessera), to = timed(cases[k].openblas);
      } else {
        to = timed(cases[k].openblas), tt = timed(cases[k].tessera);
      }
      t_tessera[k].push_back(tt), t_openblas[k].push_back(to), ratio[k].push_back(to / tt);
    }
  }
  std::printf("blas_level3: n = %d, column-major, %d rounds (order rotated), default threads\n", n,
              rounds);
  std::printf("  %-22s %22s %22s %24s\n", "routine", "tessera GFLOP/s", "OpenBLAS GFLOP/s",
              "OpenBLAS/tessera time");
  for (std::size_t k = 0; k < cases.size(); ++k) {
    const Summary st = summarize(t_tessera[k]), so = summarize(t_openblas[k]),
                  r = summarize(ratio[k]);
    std::printf("  %-22s %14.1f (%4.1f%%) %14.1f (%4.1f%%) %10.2fx (%.2f..%.2f)\n",
                cases[k].name.c_str(), cases[k].flops / st.median * 1e-9, st.spread * 100,
                cases[k].flops / so.median * 1e-9, so.spread * 100, r.median, r.min, r.max);
  }
  dlclose(lib);
  return 0;
#endif
}
