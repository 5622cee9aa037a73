// libtessera_blas's level 2 against OpenBLAS's: the routines that move
// O(n^2) data (gemv, symv, trmv, trsv, ger, syr2) in s and d, through the
// CBLAS interface (column-major), side by side (blas_side_by_side.hpp: each
// round runs every (routine, library) pair once, in an order rotated per
// round). Reported: the median rate of the matrix's traffic with its spread
// and the per-round time ratio OpenBLAS / tessera (above 1: tessera
// faster). Both libraries use the thread count of --threads, else their
// defaults.
//
// Bytes counted: gemv n^2 elements read; symv, trmv, trsv a triangle read
// (n^2 / 2); ger n^2 read and written (2 n^2); syr2 a triangle read and
// written (n^2). At n = 1000 (f64: 8 MB) the matrix stays in a large L3;
// n = 4000 (128 MB) streams from memory.
//
//   ./dev bench blas_level2
//   TESSERA_BENCH_ARGS="--n 1000,4000 --threads 2 --types d --routines symv,trsv"
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "bench_support.hpp"
#include "blas_side_by_side.hpp"
#include "peer_openblas.hpp"

#if defined(TESSERA_BENCH_HAVE_OPENBLAS)
#include <cblas.h>
#endif

namespace {

constexpr const char* kBench = "bench-blas_level2";
// The pause blas_level3 takes: OpenBLAS's idle threads spin for up to
// about 0.1 s after a call (50 ms left tessera's two-thread ger slower
// than its one-thread one on a 2-vCPU machine).
constexpr int kQuietMs = 200;

#if defined(TESSERA_BENCH_HAVE_OPENBLAS)

using tessera::bench::BlasCase;

// A general matrix, one with a dominant diagonal (trsv stays bounded), the
// vectors, and x's master copy (trmv and trsv overwrite x).
template <class T>
struct Operands {
  std::vector<T> a, tri, x, x0, y;
  explicit Operands(int n, unsigned seed) {
    const auto next = [&] {
      seed = seed * 1664525u + 1013904223u;
      return static_cast<T>(static_cast<int>(seed >> 9) % 2001 - 1000) / T(1000);
    };
    const std::size_t nn = static_cast<std::size_t>(n) * n;
    a.resize(nn);
    for (T& e : a) e = next();
    tri = a;
    for (int i = 0; i < n; ++i) tri[static_cast<std::size_t>(i) * n + i] = T(n);
    x0.resize(static_cast<std::size_t>(n));
    for (T& e : x0) e = next();
    x = x0;
    y.assign(static_cast<std::size_t>(n), T(0));
  }
};

constexpr auto kCol = CblasColMajor;

// The six routines of one type; names[i] is the CBLAS name, o[i] OpenBLAS's.
template <class T, class Gemv, class Symv, class Trmv, class Trsv, class Ger, class Syr2>
void add_type(std::vector<BlasCase>& cases, void* lib, int n, const std::string& routines,
              unsigned seed, const char* const names[6], Gemv gemv, Symv symv, Trmv trmv,
              Trsv trsv, Ger ger, Syr2 syr2) {
  auto d = std::make_shared<Operands<T>>(n, seed);
  const double nn = static_cast<double>(n) * n * sizeof(T);
  const auto add = [&](const char* routine, const char* name, auto o, double bytes, auto call) {
    if (!tessera::bench::blas_bench_wants(routines, routine)) return;
    using F = decltype(o);
    const F t = tessera::bench::blas_symbol<F>(lib, name, kBench);
    cases.push_back({name, n, bytes, [=] { call(t); }, [=] { call(o); }});
  };
  add("gemv", names[0], gemv, nn, [d, n](auto f) {
    f(kCol, CblasNoTrans, n, n, T(1), d->a.data(), n, d->x.data(), 1, T(0), d->y.data(), 1);
  });
  add("symv", names[1], symv, nn / 2, [d, n](auto f) {
    f(kCol, CblasUpper, n, T(1), d->a.data(), n, d->x.data(), 1, T(0), d->y.data(), 1);
  });
  add("trmv", names[2], trmv, nn / 2, [d, n](auto f) {
    d->x = d->x0;
    f(kCol, CblasLower, CblasNoTrans, CblasNonUnit, n, d->a.data(), n, d->x.data(), 1);
  });
  add("trsv", names[3], trsv, nn / 2, [d, n](auto f) {
    d->x = d->x0;
    f(kCol, CblasLower, CblasNoTrans, CblasNonUnit, n, d->tri.data(), n, d->x.data(), 1);
  });
  // ger and syr2 update A in place: a small alpha keeps it bounded over the
  // rounds.
  add("ger", names[4], ger, 2 * nn, [d, n](auto f) {
    f(kCol, n, n, T(1e-6), d->x0.data(), 1, d->y.data(), 1, d->a.data(), n);
  });
  add("syr2", names[5], syr2, nn, [d, n](auto f) {
    f(kCol, CblasUpper, n, T(1e-6), d->x0.data(), 1, d->y.data(), 1, d->a.data(), n);
  });
}

#endif  // TESSERA_BENCH_HAVE_OPENBLAS

}  // namespace

int main(int argc, char** argv) {
  using namespace tessera::bench;
#if !defined(TESSERA_BENCH_HAVE_OPENBLAS)
  (void)argc, (void)argv;
  std::printf("%s: OpenBLAS not found (libopenblas-dev): nothing to compare\n", kBench);
  return 0;
#else
  select_openblas_core(argv, kBench);
  BlasBenchArgs args;
  args.sizes = {1000, 4000};
  args.rounds = 9;
  args.types = "sd";
  parse_blas_bench_args(argc, argv, &args);
  if (args.rounds < 3) {
    std::fprintf(stderr, "%s: --rounds must be at least 3\n", kBench);
    return 2;
  }
  set_blas_bench_threads(args.threads);
  std::printf("%s\n", openblas_report().c_str());
  void* lib = open_tessera_blas(TESSERA_BLAS_LIBRARY, kBench);
  std::vector<BlasCase> cases;
  for (int n : args.sizes) {
    for (char p : args.types) {
      if (p == 's') {
        const char* const names[6] = {"cblas_sgemv", "cblas_ssymv", "cblas_strmv",
                                      "cblas_strsv", "cblas_sger",  "cblas_ssyr2"};
        add_type<float>(cases, lib, n, args.routines, 1, names, &cblas_sgemv, &cblas_ssymv,
                        &cblas_strmv, &cblas_strsv, &cblas_sger, &cblas_ssyr2);
      } else if (p == 'd') {
        const char* const names[6] = {"cblas_dgemv", "cblas_dsymv", "cblas_dtrmv",
                                      "cblas_dtrsv", "cblas_dger",  "cblas_dsyr2"};
        add_type<double>(cases, lib, n, args.routines, 2, names, &cblas_dgemv, &cblas_dsymv,
                         &cblas_dtrmv, &cblas_dtrsv, &cblas_dger, &cblas_dsyr2);
      }
    }
  }
  const SideBySide times = run_side_by_side(cases, args.rounds, kQuietMs);
  print_side_by_side("blas_level2", "GB/s", args, cases, times);
  dlclose(lib);
  return 0;
#endif
}
