// bench-gemm: tessera's sgemm/dgemm against OpenBLAS and Eigen, measured
// side by side in one process (the libraries take turns within every
// repetition, so machine noise hits them alike), plus the machine's FMA peak
// measured here by a register-only FMA loop per ISA.
//
//   bench-gemm [--quick] [--csv FILE] [--threads 1,2] [--dtype f32|f64|both]
//              [--shapes N|MxNxK,...]
//
// (--shapes replaces the standard shape list, e.g. --shapes 32,64,1024x1024x32.)
// (the CSV goes next to the executable unless --csv says otherwise).
// Shapes: square 32..2048, tall-skinny and small-k. Reports the median
// GFLOP/s of each library with its spread ((p75 - p25) / median), the ratios
// tessera / OpenBLAS and tessera / Eigen, tessera's share of the FMA peak
// and, for more than one thread, tessera's speedup over its own one-thread
// median. OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE are removed from this
// process's environment before OpenBLAS initialises (by re-executing the
// bench without them: OpenBLAS picks its kernels in a load-time
// constructor), and the kernel OpenBLAS reports is printed.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "bench_support.hpp"
#include "tessera/tessera.hpp"

#if defined(TESSERA_BENCH_HAVE_OPENBLAS)
#include <cblas.h>
#endif
#if defined(TESSERA_BENCH_HAVE_EIGEN)
#include <Eigen/Core>
#endif
#if defined(__x86_64__) || defined(_M_X64)
#include <immintrin.h>
#endif
#if defined(__linux__)
#include <unistd.h>
#endif

namespace {

using Clock = std::chrono::steady_clock;
using tessera::bench::Summary;
using tessera::bench::summarize;

// ---- FMA peak: independent register-only FMA chains ----------------------
// 16 chains of zmm, 12 of ymm (16 would spill with the two operands in the
// 16 ymm registers): enough for two FMA pipes of latency 4-5 either way.

#if defined(__x86_64__) || defined(_M_X64)
__attribute__((target("avx512f"))) double peak_avx512(bool f64) {
  const long iters = 2'000'000;
  const auto t0 = Clock::now();
  double sink = 0;
  if (!f64) {
    __m512 acc[16];
    for (int i = 0; i < 16; ++i) acc[i] = _mm512_set1_ps(0.001f * i);
    const __m512 x = _mm512_set1_ps(0.9999f), y = _mm512_set1_ps(1e-6f);
    for (long it = 0; it < iters; ++it) {
      for (int i = 0; i < 16; ++i) acc[i] = _mm512_fmadd_ps(acc[i], x, y);
    }
    float out[16];
    for (int i = 0; i < 16; ++i) {
      _mm512_storeu_ps(out, acc[i]);
      sink += out[0];
    }
  } else {
    __m512d acc[16];
    for (int i = 0; i < 16; ++i) acc[i] = _mm512_set1_pd(0.001 * i);
    const __m512d x = _mm512_set1_pd(0.9999), y = _mm512_set1_pd(1e-6);
    for (long it = 0; it < iters; ++it) {
      for (int i = 0; i < 16; ++i) acc[i] = _mm512_fmadd_pd(acc[i], x, y);
    }
    double out[8];
    for (int i = 0; i < 16; ++i) {
      _mm512_storeu_pd(out, acc[i]);
      sink += out[0];
    }
  }
  const double s = std::chrono::duration<double>(Clock::now() - t0).count();
  if (sink == 12345.678) std::puts("");
  return static_cast<double>(iters) * 16 * (f64 ? 8 : 16) * 2 / s / 1e9;
}

__attribute__((target("avx2,fma"))) double peak_avx2(bool f64) {
  const long iters = 2'000'000;
  const auto t0 = Clock::now();
  double sink = 0;
  if (!f64) {
    __m256 acc[12];
    for (int i = 0; i < 12; ++i) acc[i] = _mm256_set1_ps(0.001f * i);
    const __m256 x = _mm256_set1_ps(0.9999f), y = _mm256_set1_ps(1e-6f);
    for (long it = 0; it < iters; ++it) {
      for (int i = 0; i < 12; ++i) acc[i] = _mm256_fmadd_ps(acc[i], x, y);
    }
    float out[8];
    for (int i = 0; i < 12; ++i) {
      _mm256_storeu_ps(out, acc[i]);
      sink += out[0];
    }
  } else {
    __m256d acc[12];
    for (int i = 0; i < 12; ++i) acc[i] = _mm256_set1_pd(0.001 * i);
    const __m256d x = _mm256_set1_pd(0.9999), y = _mm256_set1_pd(1e-6);
    for (long it = 0; it < iters; ++it) {
      for (int i = 0; i < 12; ++i) acc[i] = _mm256_fmadd_pd(acc[i], x, y);
    }
    double out[4];
    for (int i = 0; i < 12; ++i) {
      _mm256_storeu_pd(out, acc[i]);
      sink += out[0];
    }
  }
  const double s = std::chrono::duration<double>(Clock::now() - t0).count();
  if (sink == 12345.678) std::puts("");
  return static_cast<double>(iters) * 12 * (f64 ? 4 : 8) * 2 / s / 1e9;
}
#endif

struct Peak {
  std::string isa;
  double f32 = 0, f64 = 0;
};

std::vector<Peak> measure_peaks() {
  std::vector<Peak> peaks;
  const auto isas = tessera::supported_isas();
  auto has = [&](tessera::Isa isa) {
    return std::find(isas.begin(), isas.end(), isa) != isas.end();
  };
#if defined(__x86_64__) || defined(_M_X64)
  // Best of 15 short runs: the peak is what the core can do, not what a
  // busy machine let it do once.
  auto best = [](double (*fn)(bool), bool f64) {
    double b = 0;
    for (int i = 0; i < 15; ++i) b = std::max(b, fn(f64));
    return b;
  };
  if (has(tessera::Isa::kAvx512)) peaks.push_back({"avx512", best(peak_avx512, false), best(peak_avx512, true)});
  if (has(tessera::Isa::kAvx2)) peaks.push_back({"avx2", best(peak_avx2, false), best(peak_avx2, true)});
#else
  (void)has;
#endif
  return peaks;
}

// ---- problems ---------------------------------------------------------------

struct Shape {
  const char* kind;  // square, tall-skinny, small-k
  int m, n, k;
};

std::vector<Shape> shapes(bool quick) {
  std::vector<Shape> s;
  const std::vector<int> square = quick ? std::vector<int>{32, 64, 128, 256, 1024}
                                        : std::vector<int>{32, 64, 128, 256, 512, 1024, 2048};
  for (int n : square) s.push_back({"square", n, n, n});
  s.push_back({"tall-skinny", 8192, 32, 256});
  s.push_back({"tall-skinny", 4096, 64, 64});
  if (!quick) s.push_back({"tall-skinny", 16384, 16, 512});
  s.push_back({"small-k", 1024, 1024, 32});
  if (!quick) s.push_back({"small-k", 2048, 2048, 8});
  return s;
}

// Deterministic operands in [-1, 1).
template <class T>
void fill_operand(std::vector<T>& v, std::uint64_t seed) {
  std::uint64_t x = seed * 0x9E3779B97F4A7C15ull + 1;
  for (T& e : v) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    e = static_cast<T>(static_cast<double>(x >> 40) / 8388608.0 - 1.0);
  }
}

template <class T>
struct Operands {
  std::vector<T> a, b, c;
  Operands(const Shape& s) : a(static_cast<std::size_t>(s.m) * s.k), b(static_cast<std::size_t>(s.k) * s.n),
                             c(static_cast<std::size_t>(s.m) * s.n) {
    fill_operand(a, 1);
    fill_operand(b, 2);
  }
};


struct Result {
  Summary tessera, openblas, eigen;
  bool has_openblas = false, has_eigen = false;
  std::string plan;  // workers / path of tessera's call
};

// Times every library `samples` times; each timing covers `inner` calls
// (>= ~2 ms of work).
template <class T>
Result measure(const Shape& s, int threads, int samples) {
  Operands<T> o(s);
  const tessera::Context context;
  const tessera::Parallelism par =
      threads == 1 ? tessera::Parallelism::serial() : tessera::Parallelism::threads(threads);
  std::vector<std::pair<std::string, std::function<void()>>> libs;
  libs.push_back({"tessera", [&] {
                    const tessera::Status st = tessera::try_gemm(
                        context, tessera::Layout::kRowMajor, tessera::Transpose::kNo,
                        tessera::Transpose::kNo, s.m, s.n, s.k, T(1), o.a.data(), s.k, o.b.data(),
                        s.n, T(0), o.c.data(), s.n, par);
                    if (!st.ok()) {
                      std::fprintf(stderr, "bench-gemm: %s\n", st.to_string().c_str());
                      std::exit(1);
                    }
                  }});
  Result r;
#if defined(TESSERA_BENCH_HAVE_OPENBLAS)
  r.has_openblas = true;
  libs.push_back({"openblas", [&] {
                    openblas_set_num_threads(threads);
                    if constexpr (sizeof(T) == 4) {
                      cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, s.m, s.n, s.k, 1.0f,
                                  o.a.data(), s.k, o.b.data(), s.n, 0.0f, o.c.data(), s.n);
                    } else {
                      cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, s.m, s.n, s.k, 1.0,
                                  o.a.data(), s.k, o.b.data(), s.n, 0.0, o.c.data(), s.n);
                    }
                  }});
#endif
#if defined(TESSERA_BENCH_HAVE_EIGEN)
  r.has_eigen = true;
  using Mat = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  libs.push_back({"eigen", [&] {
                    Eigen::setNbThreads(threads);
                    Eigen::Map<const Mat> a(o.a.data(), s.m, s.k);
                    Eigen::Map<const Mat> b(o.b.data(), s.k, s.n);
                    Eigen::Map<Mat> c(o.c.data(), s.m, s.n);
                    c.noalias() = a * b;
                  }});
#endif
  const double flops = 2.0 * s.m * s.n * s.k;
  // Calls per timing: ~2 ms at ~100 GFLOP/s, at least 1.
  const int inner = std::max(1, static_cast<int>(2e-3 * 100e9 / flops));
  std::vector<std::vector<double>> gflops(libs.size());
  // Each library runs its samples as a block after a 30 ms pause, in three
  // rounds: a multi-threaded library's workers spin for a while after each
  // call, and interleaving calls would let one library's spinning workers
  // steal the cores of the next (OpenBLAS, libgomp and tessera's pool all
  // spin before parking). Rounds spread slow machine drift over all.
  const int rounds = 3;
  for (int round = 0; round < rounds; ++round) {
    for (std::size_t l = 0; l < libs.size(); ++l) {
      std::this_thread::sleep_for(std::chrono::milliseconds(30));
      libs[l].second();  // warm-up: pools, pages, caches
      const int n = (samples + rounds - 1 - round) / rounds;
      for (int rep = 0; rep < n; ++rep) {
        const auto t0 = Clock::now();
        for (int i = 0; i < inner; ++i) libs[l].second();
        const double sec = std::chrono::duration<double>(Clock::now() - t0).count() / inner;
        gflops[l].push_back(flops / sec / 1e9);
      }
    }
  }
  r.tessera = summarize(gflops[0]);
  std::size_t next = 1;
  if (r.has_openblas) r.openblas = summarize(gflops[next++]);
  if (r.has_eigen) r.eigen = summarize(gflops[next++]);
  tessera::GemmPlan plan;
  if (tessera::try_plan_gemm(context, sizeof(T) == 4 ? tessera::Dtype::kF32 : tessera::Dtype::kF64,
                             tessera::Layout::kRowMajor, s.m, s.n, s.k, par, &plan)
          .ok()) {
    r.plan = std::to_string(plan.workers) + "w" + (plan.direct ? " direct" : " packed");
  }
  return r;
}

// "32,64,1024x1024x32": squares and MxNxK triples; empty on a syntax error.
std::vector<Shape> parse_shapes(const char* text) {
  std::vector<Shape> out;
  for (const char* p = text; *p;) {
    int dims[3] = {0, 0, 0};
    int count = 0;
    for (;;) {
      char* end = nullptr;
      const long v = std::strtol(p, &end, 10);
      if (end == p || v < 1 || v > 65536 || count == 3) return {};
      dims[count++] = static_cast<int>(v);
      p = end;
      if (*p != 'x') break;
      ++p;
    }
    if (count == 2) return {};
    if (count == 1) dims[1] = dims[2] = dims[0];
    out.push_back({count == 1 ? "square" : "custom", dims[0], dims[1], dims[2]});
    if (*p == ',') {
      ++p;
    } else if (*p != '\0') {
      return {};
    }
  }
  return out;
}

std::vector<int> parse_list(const char* text) {
  std::vector<int> out;
  for (const char* p = text; *p;) {
    char* end = nullptr;
    const long v = std::strtol(p, &end, 10);
    if (end == p || v < 1 || v > 1024) return {};
    out.push_back(static_cast<int>(v));
    p = *end == ',' ? end + 1 : end;
    if (*end != ',' && *end != '\0') return {};
  }
  return out;
}


}  // namespace

int main(int argc, char** argv) {
  tessera::bench::reexec_without_openblas_overrides(argv, "bench-gemm");
  bool quick = false;
  // Default CSV next to the executable (build/<dir>/bench/), not in the
  // source tree.
  std::string csv_path = argv[0];
  const std::size_t slash = csv_path.find_last_of('/');
  csv_path = (slash == std::string::npos ? std::string(".") : csv_path.substr(0, slash)) +
             "/gemm_bench.csv";
  std::vector<int> thread_counts = {1, 2};
  bool do_f32 = true, do_f64 = true;
  std::vector<Shape> chosen_shapes;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--quick") {
      quick = true;
    } else if (a == "--csv" && i + 1 < argc) {
      csv_path = argv[++i];
    } else if (a == "--threads" && i + 1 < argc) {
      thread_counts = parse_list(argv[++i]);
      if (thread_counts.empty()) {
        std::fprintf(stderr, "bench-gemm: --threads needs a list like 1,2\n");
        return 2;
      }
    } else if (a == "--shapes" && i + 1 < argc) {
      chosen_shapes = parse_shapes(argv[++i]);
      if (chosen_shapes.empty()) {
        std::fprintf(stderr, "bench-gemm: --shapes needs a list like 32,64,1024x1024x32\n");
        return 2;
      }
    } else if (a == "--dtype" && i + 1 < argc) {
      const std::string d = argv[++i];
      do_f32 = d == "f32" || d == "both";
      do_f64 = d == "f64" || d == "both";
      if (!do_f32 && !do_f64) {
        std::fprintf(stderr, "bench-gemm: --dtype must be f32, f64 or both\n");
        return 2;
      }
    } else {
      std::fprintf(stderr,
                   "usage: bench-gemm [--quick] [--csv FILE] [--threads 1,2] [--dtype f32|f64|both] "
                   "[--shapes N|MxNxK,...]\n");
      return 2;
    }
  }
  const tessera::Context context;
  if (!context.status().ok()) {
    std::fprintf(stderr, "bench-gemm: %s\n", context.status().to_string().c_str());
    return 1;
  }
  std::printf("tessera %s, isa %s, context width %d\n", TESSERA_VERSION_STRING,
              tessera::isa_name(context.isa()), context.resolved_policy().effective_threads);
  if (const char* removed = tessera::bench::openblas_overrides_removed()) {
    std::printf("removed for this process (OpenBLAS runs at half speed with them): %s\n", removed);
  }
#if defined(TESSERA_BENCH_HAVE_OPENBLAS)
  std::printf("OpenBLAS %s, core %s\n", openblas_get_config(), openblas_get_corename());
#else
  std::printf("OpenBLAS: not found at configure time (not measured)\n");
#endif
#if defined(TESSERA_BENCH_HAVE_EIGEN)
  std::printf("Eigen %d.%d.%d%s\n", EIGEN_WORLD_VERSION, EIGEN_MAJOR_VERSION, EIGEN_MINOR_VERSION,
#if defined(TESSERA_BENCH_HAVE_OPENMP)
              " (OpenMP threads)"
#else
              " (single-threaded: no OpenMP)"
#endif
  );
#else
  std::printf("Eigen: not found at configure time (not measured)\n");
#endif
  const std::vector<Peak> peaks = measure_peaks();
  double peak_f32 = 0, peak_f64 = 0;
  for (const Peak& p : peaks) {
    std::printf("FMA peak, one core, %-6s: f32 %.1f GFLOP/s, f64 %.1f GFLOP/s\n", p.isa.c_str(),
                p.f32, p.f64);
    if (p.isa == tessera::isa_name(context.isa())) peak_f32 = p.f32, peak_f64 = p.f64;
  }

  std::FILE* csv = std::fopen(csv_path.c_str(), "w");
  if (csv != nullptr) {
    std::fprintf(csv,
                 "dtype,kind,m,n,k,threads,tessera_gflops,tessera_spread,openblas_gflops,"
                 "openblas_spread,eigen_gflops,eigen_spread,tessera_over_openblas,"
                 "tessera_over_eigen,tessera_peak_share,tessera_speedup_over_1t,plan\n");
  }
  std::printf("\n%-4s %-11s %17s %3s | %15s %15s %15s | %7s %7s %6s %7s  %s\n", "type", "kind",
              "m x n x k", "thr", "tessera GF/s", "OpenBLAS GF/s", "Eigen GF/s", "t/OB", "t/Eig",
              "%peak", "vs 1T", "plan");
  const int samples = quick ? 7 : 15;
  for (int dt = 0; dt < 2; ++dt) {
    if ((dt == 0 && !do_f32) || (dt == 1 && !do_f64)) continue;
    for (const Shape& s : chosen_shapes.empty() ? shapes(quick) : chosen_shapes) {
      double one_thread = 0;
      for (int threads : thread_counts) {
        const Result r = dt == 0 ? measure<float>(s, threads, samples)
                                 : measure<double>(s, threads, samples);
        if (threads == 1) one_thread = r.tessera.median;
        const double peak = (dt == 0 ? peak_f32 : peak_f64) * threads;
        char dims[32];
        std::snprintf(dims, sizeof dims, "%dx%dx%d", s.m, s.n, s.k);
        auto cell = [](const Summary& x, bool have) {
          char buf[32];
          if (!have) return std::string("-");
          std::snprintf(buf, sizeof buf, "%6.1f ±%4.1f%%", x.median, 100 * x.spread);
          return std::string(buf);
        };
        const double vs_ob = r.has_openblas ? r.tessera.median / r.openblas.median : 0;
        const double vs_eig = r.has_eigen ? r.tessera.median / r.eigen.median : 0;
        const double share = peak > 0 ? r.tessera.median / peak : 0;
        const double speedup = threads > 1 && one_thread > 0 ? r.tessera.median / one_thread : 0;
        std::printf("%-4s %-11s %17s %3d | %15s %15s %15s | %7.3f %7.3f %5.1f%% %7s  %s\n",
                    dt == 0 ? "f32" : "f64", s.kind, dims, threads,
                    cell(r.tessera, true).c_str(), cell(r.openblas, r.has_openblas).c_str(),
                    cell(r.eigen, r.has_eigen).c_str(), vs_ob, vs_eig, 100 * share,
                    speedup > 0 ? (std::to_string(speedup).substr(0, 4) + "x").c_str() : "-",
                    r.plan.c_str());
        std::fflush(stdout);
        if (csv != nullptr) {
          std::fprintf(csv, "%s,%s,%d,%d,%d,%d,%.3f,%.4f,%.3f,%.4f,%.3f,%.4f,%.4f,%.4f,%.4f,%.4f,%s\n",
                       dt == 0 ? "f32" : "f64", s.kind, s.m, s.n, s.k, threads, r.tessera.median,
                       r.tessera.spread, r.openblas.median, r.openblas.spread, r.eigen.median,
                       r.eigen.spread, vs_ob, vs_eig, share, speedup, r.plan.c_str());
        }
      }
    }
  }
  if (csv != nullptr) {
    std::fclose(csv);
    std::printf("\nCSV written to %s\n", csv_path.c_str());
  }
  std::printf("%%peak: tessera's median over the measured %s FMA peak times the thread count.\n",
              tessera::isa_name(context.isa()));
  return 0;
}
