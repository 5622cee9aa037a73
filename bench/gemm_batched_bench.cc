// Batched sgemm, 1000 x 64^3 (row-major, alpha 1, beta 0, entries packed
// tightly), side by side in one run:
//   tessera  try_gemm_strided_batched on a context of 1 and of 2 threads
//   OpenBLAS a loop of cblas_sgemm calls, 1 thread
//   OpenBLAS cblas_sgemm (1 thread each) inside an OpenMP loop over the
//            batch at 2 threads
// Reported: median ms per batch with min..max and the relative spread
// ((p75 - p25) / median) of the reps, GFLOP/s, and tessera / peer ratios
// (time ratio peer / tessera: above 1 means tessera is faster).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "bench_support.hpp"
#include "peer_openblas.hpp"
#include "tessera/tessera.hpp"

#if defined(TESSERA_BENCH_HAVE_OPENBLAS)
#include <cblas.h>
#endif
#if defined(TESSERA_BENCH_HAVE_OPENMP)
#include <omp.h>
#endif

namespace {

using tessera::bench::Summary;
using tessera::bench::summarize;

constexpr int kBatch = 1000, kM = 64, kN = 64, kK = 64;

tessera::Context context_of(int threads) {
  tessera::ContextOptions options;
  options.policy.num_threads = threads;
  tessera::Context context;
  const tessera::Status st = tessera::Context::create(options, &context);
  if (!st.ok()) {
    std::fprintf(stderr, "bench-gemm_batched: %s\n", st.to_string().c_str());
    std::exit(1);
  }
  return context;
}

}  // namespace

int main(int argc, char** argv) {
  tessera::bench::select_openblas_core(argv, "bench-gemm_batched");
  const int reps = argc > 1 ? std::atoi(argv[1]) : 21;
  if (reps < 3) {
    std::fprintf(stderr, "bench-gemm_batched: reps must be >= 3\n");
    return 2;
  }
  const std::int64_t sa = kM * kK, sb = kK * kN, sc = kM * kN;
  std::vector<float> a(static_cast<std::size_t>(sa * kBatch)),
      b(static_cast<std::size_t>(sb * kBatch)), c(static_cast<std::size_t>(sc * kBatch));
  // Deterministic values in [-1, 1): a fixed LCG, no dependence on tessera.
  std::uint32_t state = 12345;
  auto next = [&] {
    state = state * 1664525u + 1013904223u;
    return static_cast<float>(state >> 8) / static_cast<float>(1u << 23) - 1.0f;
  };
  for (float& x : a) x = next();
  for (float& x : b) x = next();

  std::printf("%s\n", tessera::bench::openblas_report().c_str());
  std::vector<std::pair<std::string, std::function<void()>>> runs;
  for (int threads : {1, 2}) {
    auto context = std::make_shared<tessera::Context>(context_of(threads));
    runs.push_back({"tessera " + std::to_string(threads) + "T", [&, context, threads] {
                      const tessera::Status st = tessera::try_gemm_strided_batched(
                          *context, tessera::Layout::kRowMajor, tessera::Transpose::kNo,
                          tessera::Transpose::kNo, kM, kN, kK, 1.0f, a.data(), kK, sa, b.data(),
                          kN, sb, 0.0f, c.data(), kN, sc, kBatch,
                          tessera::Parallelism::threads(threads));
                      if (!st.ok()) {
                        std::fprintf(stderr, "bench-gemm_batched: %s\n", st.to_string().c_str());
                        std::exit(1);
                      }
                    }});
  }
#if defined(TESSERA_BENCH_HAVE_OPENBLAS)
  auto one_openblas = [&](int i) {
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, kM, kN, kK, 1.0f, a.data() + i * sa, kK,
                b.data() + i * sb, kN, 0.0f, c.data() + i * sc, kN);
  };
  runs.push_back({"openblas loop 1T", [&] {
                    openblas_set_num_threads(1);
                    for (int i = 0; i < kBatch; ++i) one_openblas(i);
                  }});
#if defined(TESSERA_BENCH_HAVE_OPENMP)
  runs.push_back({"openblas omp 2T", [&] {
                    openblas_set_num_threads(1);
#pragma omp parallel for num_threads(2) schedule(static)
                    for (int i = 0; i < kBatch; ++i) one_openblas(i);
                  }});
#endif
#endif
  // Interleaved rounds so drift in clock or load hits every entry alike.
  std::vector<std::vector<double>> ms(runs.size());
  for (auto& r : runs) r.second();  // warm-up
  for (int rep = 0; rep < reps; ++rep) {
    for (std::size_t i = 0; i < runs.size(); ++i) {
      for (double s : tessera::bench::time_runs(1, runs[i].second)) ms[i].push_back(s * 1e3);
    }
  }
  const double gflop = 2.0 * kBatch * kM * kN * kK / 1e9;
  std::printf("batched sgemm %d x %dx%dx%d, %d reps (ms per batch: median (min..max) spread)\n",
              kBatch, kM, kN, kK, reps);
  std::vector<Summary> sums;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const Summary s = summarize(ms[i]);
    sums.push_back(s);
    std::printf("  %-18s %8.3f (%7.3f..%7.3f) %5.1f%%  %6.1f GFLOP/s\n", runs[i].first.c_str(),
                s.median, s.min, s.max, 100.0 * s.spread, gflop / (s.median / 1e3));
  }
  for (std::size_t i = 2; i < runs.size(); ++i) {
    const std::size_t t = runs[i].first.find("2T") != std::string::npos ? 1 : 0;
    std::printf("  %s vs %s: %.2fx\n", runs[t].first.c_str(), runs[i].first.c_str(),
                sums[i].median / sums[t].median);
  }
#if !defined(TESSERA_BENCH_HAVE_OPENBLAS)
  std::printf("  (OpenBLAS not found: no peer measured)\n");
#endif
  return 0;
}
