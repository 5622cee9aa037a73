// The cost of the drop-in BLAS's interface: the same small product (sgemm
// 64^3 by default, f32, one thread of work: below the parallel gate) called
// 1000 times through tessera's C API (tsr_sgemm, row-major), through
// libtessera_blas's cblas_sgemm (row-major) and through its Fortran sgemm_
// (column-major, the transposed problem). The library is dlopen()ed with
// RTLD_LOCAL so that the OpenBLAS this bench build links for other benches
// cannot stand in for it. Rounds alternate the order of the three; each
// reports the median time of a 1000-call batch, its spread, and the ratio
// to the C API measured in the same rounds.
//
//   ./dev bench blas_overhead            (TESSERA_BENCH_ARGS="--n 32 --rounds 31")
#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "bench_support.hpp"
#include "tessera/tessera.h"

namespace {

using CblasSgemm = void (*)(int, int, int, int, int, int, float, const float*, int, const float*,
                            int, float, float*, int);
using FortranSgemm = void (*)(const char*, const char*, const int*, const int*, const int*,
                              const float*, const float*, const int*, const float*, const int*,
                              const float*, float*, const int*, std::size_t, std::size_t);

}  // namespace

int main(int argc, char** argv) {
  using namespace tessera::bench;
  int n = 64, rounds = 21, calls = 1000;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--n") == 0) n = std::atoi(argv[i + 1]);
    if (std::strcmp(argv[i], "--rounds") == 0) rounds = std::atoi(argv[i + 1]);
    if (std::strcmp(argv[i], "--calls") == 0) calls = std::atoi(argv[i + 1]);
  }
  void* lib = dlopen(TESSERA_BLAS_LIBRARY, RTLD_NOW | RTLD_LOCAL);
  if (lib == nullptr) {
    std::fprintf(stderr, "bench-blas_overhead: cannot load %s: %s\n", TESSERA_BLAS_LIBRARY,
                 dlerror());
    return 1;
  }
  const auto cblas = reinterpret_cast<CblasSgemm>(dlsym(lib, "cblas_sgemm"));
  const auto fortran = reinterpret_cast<FortranSgemm>(dlsym(lib, "sgemm_"));
  if (cblas == nullptr || fortran == nullptr) {
    std::fprintf(stderr, "bench-blas_overhead: %s lacks cblas_sgemm or sgemm_\n",
                 TESSERA_BLAS_LIBRARY);
    return 1;
  }
  std::vector<float> a(n * n), b(n * n), c1(n * n), c2(n * n), c3(n * n);
  for (int i = 0; i < n * n; ++i) {
    a[i] = static_cast<float>((i * 7) % 13) / 13.0f - 0.5f;
    b[i] = static_cast<float>((i * 5) % 11) / 11.0f - 0.5f;
  }
  const float one = 1.0f, zero = 0.0f;
  auto batch_capi = [&] {
    for (int r = 0; r < calls; ++r) {
      tsr_sgemm(nullptr, TSR_ROW_MAJOR, TSR_NO_TRANS, TSR_NO_TRANS, n, n, n, 1.0f, a.data(), n,
                b.data(), n, 0.0f, c1.data(), n, 0);
    }
  };
  auto batch_cblas = [&] {
    for (int r = 0; r < calls; ++r) {
      cblas(101, 111, 111, n, n, n, 1.0f, a.data(), n, b.data(), n, 0.0f, c2.data(), n);
    }
  };
  auto batch_fortran = [&] {
    // Column-major: C^T = B^T A^T on the same row-major arrays.
    for (int r = 0; r < calls; ++r) {
      fortran("N", "N", &n, &n, &n, &one, b.data(), &n, a.data(), &n, &zero, c3.data(), &n, 1, 1);
    }
  };
  std::vector<double> t_capi, t_cblas, t_fortran, r_cblas, r_fortran;
  batch_capi(), batch_cblas(), batch_fortran();  // warm-up: contexts, caches
  for (int round = 0; round < rounds; ++round) {
    double tc = 0, tb = 0, tf = 0;
    auto timed = [](auto&& f) { return time_runs(1, f)[0]; };
    switch (round % 3) {
      case 0: tc = timed(batch_capi), tb = timed(batch_cblas), tf = timed(batch_fortran); break;
      case 1: tb = timed(batch_cblas), tf = timed(batch_fortran), tc = timed(batch_capi); break;
      default: tf = timed(batch_fortran), tc = timed(batch_capi), tb = timed(batch_cblas); break;
    }
    t_capi.push_back(tc), t_cblas.push_back(tb), t_fortran.push_back(tf);
    r_cblas.push_back(tb / tc), r_fortran.push_back(tf / tc);
  }
  const bool same = std::memcmp(c1.data(), c2.data(), c1.size() * sizeof(float)) == 0;
  std::printf("blas_overhead: sgemm %dx%dx%d, %d calls per batch, %d rounds (orders alternated)\n",
              n, n, n, calls, rounds);
  std::printf("library: %s\n", TESSERA_BLAS_LIBRARY);
  auto row = [](const char* name, const std::vector<double>& t, const std::vector<double>* r) {
    const Summary s = summarize(t);
    std::printf("  %-22s median %8.3f ms per batch (min %.3f, max %.3f, spread %.1f%%)", name,
                s.median * 1e3, s.min * 1e3, s.max * 1e3, s.spread * 100);
    if (r != nullptr) {
      const Summary q = summarize(*r);
      std::printf("  / C API: %.3f (min %.3f, max %.3f)", q.median, q.min, q.max);
    }
    std::printf("\n");
  };
  row("tsr_sgemm (C API)", t_capi, nullptr);
  row("cblas_sgemm", t_cblas, &r_cblas);
  row("sgemm_ (Fortran)", t_fortran, &r_fortran);
  std::printf("cblas_sgemm result %s tsr_sgemm's bit for bit\n", same ? "equals" : "DIFFERS FROM");
  dlclose(lib);
  return same ? 0 : 1;
}
