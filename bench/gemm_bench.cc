// bench-gemm: tessera's sgemm/dgemm against OpenBLAS, oneDNN and Eigen,
// measured side by side in one process, plus the machine's FMA peak measured
// here by a register-only FMA loop per ISA.
//
//   bench-gemm [--quick] [--csv FILE] [--threads 1,2] [--dtype f32|f64|both]
//              [--shapes N|MxNxK,...] [--rounds R] [--timing-ms MS]
//   bench-gemm --sweep-blocking [--dtype ...] [--shapes 1024,2048] [--rounds R]
//
// --check-scaling: exit status 3 when any wider run of tessera is below 0.8x
// its own one-thread median (the rows marked '!'): the check, on a quiet
// machine, that the automatic path never picks a width slower than one
// worker (e.g. bench-gemm --check-scaling --shapes 1024x1024x32,2048x2048x8).
//
// Fairness: every peer runs its best kernel for the host. OpenBLAS's core is
// chosen by select_openblas_core() (peer_openblas.hpp: the detected and the
// used core are printed), Eigen is compiled with the host's ISA flags
// (peer_eigen.hpp), oneDNN dispatches its JIT kernels itself (f32 only: it
// has no f64 GEMM). The libraries take turns in rounds (the starting one
// rotates every round, odd rounds reversed), each after the others' worker
// threads went quiet, so that no library's spinning workers steal the next
// one's cores; a library's figure is the median of
// its round medians, with the range of the round medians, so a noisy
// neighbour hits every side. Ratios: tessera over the best peer of the row.
// Writes the CSV (next to the executable unless --csv says otherwise) and,
// per dtype and thread count, an SVG of the square sizes next to it.
//
// --sweep-blocking: tessera alone at one thread over a grid of kc x mc
// around its cache-model blocking (set through the bench-only override of
// core/src/gemm/gemm_blocking.hpp), printing the model's choice and the
// sweep's best side by side; then nc alone at the model's kc and mc.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "bench_plot.hpp"
#include "bench_support.hpp"
#include "fma_peak.hpp"
#include "core/src/gemm/gemm_blocking.hpp"
#include "peer_eigen.hpp"
#include "peer_onednn.hpp"
#include "peer_openblas.hpp"
#include "tessera/tessera.hpp"

#if defined(TESSERA_BENCH_HAVE_OPENBLAS)
#include <cblas.h>
#endif
#if defined(__linux__)
#include <unistd.h>
#endif

namespace {

using Clock = std::chrono::steady_clock;
using tessera::bench::summarize;
using tessera::bench::Library;
using tessera::bench::Summary;
using tessera::bench::FmaPeak;
using tessera::bench::measure_fma_peaks;


// ---- problems ---------------------------------------------------------------

struct Shape {
  const char* kind;  // tiny, square, tall-skinny, small-k
  int m, n, k;
};

std::vector<Shape> shapes(bool quick) {
  std::vector<Shape> s;
  // The fixed cost of one call: a product this small is all set-up.
  s.push_back({"tiny", 8, 32, 1});
  s.push_back({"tiny", 8, 8, 8});
  const std::vector<int> square = quick ? std::vector<int>{32, 64, 128, 256, 1024}
                                        : std::vector<int>{32, 64, 128, 256, 512, 1024, 2048};
  for (int n : square) s.push_back({"square", n, n, n});
  s.push_back({"tall-skinny", 8192, 32, 256});
  s.push_back({"tall-skinny", 4096, 64, 64});
  if (!quick) s.push_back({"tall-skinny", 16384, 16, 512});
  s.push_back({"small-k", 1024, 1024, 32});
  if (!quick) s.push_back({"small-k", 1024, 1024, 16});
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
  Operands(const Shape& s)
      : a(static_cast<std::size_t>(s.m) * s.k),
        b(static_cast<std::size_t>(s.k) * s.n),
        c(static_cast<std::size_t>(s.m) * s.n) {
    fill_operand(a, 1);
    fill_operand(b, 2);
  }
};

struct Measured {
  std::string name;
  Summary gflops;  // over the round medians
};

// --affinity: the measuring context's affinity policy (unset: the
// platform default), to compare pinned and unpinned workers.
std::optional<tessera::AffinityPolicy> g_affinity;
// Work per timing, in seconds at 100 GFLOP/s per thread (--timing-ms).
double g_timing_seconds = 2e-3;

// --auto-width: tessera's rows of more than one thread call with the
// automatic width (Parallelism{}: the resolver picks the workers, up to the
// context's width) instead of exactly that many threads, as a caller that
// passes no Parallelism gets; the peers still run the row's thread count.
bool g_auto_width = false;

// --profile: a tuned profile (tessera-tune) whose context runs beside the
// default one, alternated in the same rounds ("tuned" rows).
std::optional<tessera::Profile> g_profile;

tessera::ContextOptions bench_context_options() {
  tessera::ContextOptions options;
  options.policy.affinity_policy = g_affinity;
  return options;
}

struct Result {
  std::vector<Measured> libs;  // tessera first, then the peers measured
  std::string plan;            // workers / path of tessera's call

  const Measured* best_peer() const {
    const Measured* best = nullptr;
    for (std::size_t i = 1; i < libs.size(); ++i) {
      if (libs[i].name == "tuned") continue;  // tessera itself, not a peer
      if (best == nullptr || libs[i].gflops.median > best->gflops.median) best = &libs[i];
    }
    return best;
  }
  const Measured* find(const std::string& name) const {
    for (const Measured& m : libs) {
      if (m.name == name) return &m;
    }
    return nullptr;
  }
};

template <class T>
bool run_tessera(const tessera::Context& context, const Shape& s, Operands<T>& o,
                 tessera::Parallelism par) {
  const tessera::Status st = tessera::try_gemm(
      context, tessera::Layout::kRowMajor, tessera::Transpose::kNo, tessera::Transpose::kNo, s.m,
      s.n, s.k, T(1), o.a.data(), s.k, o.b.data(), s.n, T(0), o.c.data(), s.n, par);
  if (!st.ok()) std::fprintf(stderr, "bench-gemm: tessera: %s\n", st.to_string().c_str());
  return st.ok();
}

// GFLOP/s of every library (tessera::bench::alternate), each timing
// covering >= ~2 ms of work per thread (--timing-ms) at 100 GFLOP/s a
// thread.
std::vector<Summary> alternate(const std::vector<Library>& libs, double flops, int threads,
                               int rounds, int per_round) {
  const int inner = static_cast<int>(g_timing_seconds * 100e9 * threads / flops);
  return tessera::bench::alternate(libs, flops, inner, rounds, per_round, "bench-gemm");
}

template <class T>
Result measure(const Shape& s, int threads, int rounds, int per_round) {
  Operands<T> o(s);
  const tessera::Context context(bench_context_options());
  const tessera::Parallelism par =
      threads == 1   ? tessera::Parallelism::serial()
      : g_auto_width ? tessera::Parallelism{}
                     : tessera::Parallelism::threads(threads);
  std::vector<Library> libs;
  libs.push_back({"tessera", [&] { return run_tessera(context, s, o, par); }});
  tessera::Context tuned;
  if (g_profile) {
    tessera::ContextOptions options = bench_context_options();
    options.profile = g_profile;
    if (!tessera::Context::create(options, &tuned).ok()) tuned = tessera::Context();
    libs.push_back({"tuned", [&] { return run_tessera(tuned, s, o, par); }});
  }
#if defined(TESSERA_BENCH_HAVE_OPENBLAS)
  libs.push_back({"OpenBLAS", [&] {
                    openblas_set_num_threads(threads);
                    if constexpr (sizeof(T) == 4) {
                      cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, s.m, s.n, s.k, 1.0f,
                                  o.a.data(), s.k, o.b.data(), s.n, 0.0f, o.c.data(), s.n);
                    } else {
                      cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, s.m, s.n, s.k, 1.0,
                                  o.a.data(), s.k, o.b.data(), s.n, 0.0, o.c.data(), s.n);
                    }
                    return true;
                  }});
#endif
  if constexpr (sizeof(T) == 4) {
    if (tessera::bench::onednn_peer::available()) {
      libs.push_back({"oneDNN", [&] {
                        return tessera::bench::onednn_peer::sgemm(
                            o.a.data(), o.b.data(), o.c.data(), s.m, s.n, s.k, threads);
                      }});
    }
  }
  if (tessera::bench::eigen_peer::available()) {
    libs.push_back({"Eigen", [&] {
                      tessera::bench::eigen_peer::gemm(o.a.data(), o.b.data(), o.c.data(), s.m, s.n,
                                                       s.k, threads);
                      return true;
                    }});
  }
  const std::vector<Summary> g = alternate(libs, 2.0 * s.m * s.n * s.k, threads, rounds, per_round);
  Result r;
  for (std::size_t i = 0; i < libs.size(); ++i) r.libs.push_back({libs[i].name, g[i]});
  tessera::GemmPlan plan;
  if (tessera::try_plan_gemm(context, sizeof(T) == 4 ? tessera::Dtype::kF32 : tessera::Dtype::kF64,
                             tessera::Layout::kRowMajor, s.m, s.n, s.k, par, &plan)
          .ok()) {
    r.plan = std::to_string(plan.workers) + "w" + (plan.direct ? " direct" : " packed");
  }
  return r;
}

// ---- the blocking sweep ----------------------------------------------------

template <class T>
void sweep_blocking(const std::vector<Shape>& shapes, int rounds) {
  const tessera::Context context;
  const tessera::Dtype dtype = sizeof(T) == 4 ? tessera::Dtype::kF32 : tessera::Dtype::kF64;
  const int bytes = sizeof(T);
  for (const Shape& s : shapes) {
    tessera::GemmPlan model;
    if (!tessera::try_plan_gemm(context, dtype, tessera::Layout::kRowMajor, s.m, s.n, s.k,
                                tessera::Parallelism::serial(), &model)
             .ok()) {
      continue;
    }
    std::printf("\n%s %dx%dx%d, one thread, tile %d x %d, %s\n", bytes == 4 ? "sgemm" : "dgemm",
                s.m, s.n, s.k, model.mr, model.nr, model.cache_facts.c_str());
    if (model.direct) {
      std::printf("  the direct path runs this shape (no packing, no mc/kc): nothing to sweep\n");
      continue;
    }
    std::vector<std::int64_t> kcs = {128, 192, 256, 384, 512, 640, 768, 1024};
    std::vector<std::int64_t> mcs;
    for (int rows : {24, 48, 96, 144, 192, 288})
      mcs.push_back(std::max(1, rows / model.mr) * model.mr);
    if (std::find(kcs.begin(), kcs.end(), model.kc) == kcs.end()) kcs.push_back(model.kc);
    if (std::find(mcs.begin(), mcs.end(), model.mc) == mcs.end()) mcs.push_back(model.mc);
    std::sort(kcs.begin(), kcs.end());
    std::sort(mcs.begin(), mcs.end());
    Operands<T> o(s);
    std::vector<Library> libs;
    std::vector<tessera::core::GemmBlocking> settings;
    for (std::int64_t kc : kcs) {
      for (std::int64_t mc : mcs) {
        tessera::core::GemmBlocking b;
        b.kc = kc, b.mc = mc, b.nc = model.nc;
        settings.push_back(b);
      }
    }
    for (const auto& b : settings) {
      libs.push_back({"", [&, b] {
                        tessera::core::set_gemm_blocking_override(bytes, &b);
                        const bool ok = run_tessera(context, s, o, tessera::Parallelism::serial());
                        tessera::core::set_gemm_blocking_override(bytes, nullptr);
                        return ok;
                      }});
    }
    // The direct path is chosen when m x kc fits L2, so a small kc can
    // switch it on: those cells measure that path, not the blocking.
    std::vector<bool> direct;
    for (const auto& b : settings) {
      tessera::core::set_gemm_blocking_override(bytes, &b);
      tessera::GemmPlan p;
      direct.push_back(tessera::try_plan_gemm(context, dtype, tessera::Layout::kRowMajor, s.m, s.n,
                                              s.k, tessera::Parallelism::serial(), &p)
                           .ok() &&
                       p.direct);
      tessera::core::set_gemm_blocking_override(bytes, nullptr);
    }
    const std::vector<Summary> g = alternate(libs, 2.0 * s.m * s.n * s.k, 1, rounds, 1);
    std::printf(
        "  GFLOP/s, median of %d rounds; rows kc, columns mc; * the model's choice, + the "
        "best, d the direct path (no packing)\n  %6s",
        rounds, "kc\\mc");
    for (std::int64_t mc : mcs) std::printf(" %8lld", static_cast<long long>(mc));
    std::printf("\n");
    std::size_t best = 0, chosen = 0;
    for (std::size_t i = 0; i < settings.size(); ++i) {
      if (g[i].median > g[best].median) best = i;
      if (settings[i].kc == model.kc && settings[i].mc == model.mc) chosen = i;
    }
    for (std::size_t r = 0; r < kcs.size(); ++r) {
      std::printf("  %6lld", static_cast<long long>(kcs[r]));
      for (std::size_t c = 0; c < mcs.size(); ++c) {
        const std::size_t i = r * mcs.size() + c;
        std::printf(" %6.1f%s%s", g[i].median,
                    i == chosen ? "*"
                    : i == best ? "+"
                                : " ",
                    direct[i] ? "d" : " ");
      }
      std::printf("\n");
    }
    std::printf("  model (*): kc %lld, mc %lld, nc %lld: %.1f GFLOP/s (rounds %.1f..%.1f)\n",
                static_cast<long long>(model.kc), static_cast<long long>(model.mc),
                static_cast<long long>(model.nc), g[chosen].median, g[chosen].min, g[chosen].max);
    std::printf(
        "  sweep best (+): kc %lld, mc %lld: %.1f GFLOP/s (rounds %.1f..%.1f); "
        "model / best = %.3f\n",
        static_cast<long long>(settings[best].kc), static_cast<long long>(settings[best].mc),
        g[best].median, g[best].min, g[best].max, g[chosen].median / g[best].median);
    std::fflush(stdout);

    // nc alone (the packed B block kc x nc), at the model's kc and mc: nc
    // changes no bit, only how much of B each row block streams from L3.
    std::vector<std::int64_t> ncs;
    for (std::int64_t nc : {512, 768, 1024, 1536, 2048, 3072, 4096}) {
      const std::int64_t rounded = std::max<std::int64_t>(1, nc / model.nr) * model.nr;
      if (rounded < s.n) ncs.push_back(rounded);
    }
    if (std::find(ncs.begin(), ncs.end(), model.nc) == ncs.end()) ncs.push_back(model.nc);
    std::sort(ncs.begin(), ncs.end());
    std::vector<Library> nc_libs;
    for (std::int64_t nc : ncs) {
      tessera::core::GemmBlocking b;
      b.kc = model.kc, b.mc = model.mc, b.nc = nc;
      nc_libs.push_back({"", [&, b] {
                           tessera::core::set_gemm_blocking_override(bytes, &b);
                           const bool ok =
                               run_tessera(context, s, o, tessera::Parallelism::serial());
                           tessera::core::set_gemm_blocking_override(bytes, nullptr);
                           return ok;
                         }});
    }
    const std::vector<Summary> gn = alternate(nc_libs, 2.0 * s.m * s.n * s.k, 1, rounds, 1);
    std::size_t nc_best = 0;
    for (std::size_t i = 0; i < ncs.size(); ++i) {
      if (gn[i].median > gn[nc_best].median) nc_best = i;
    }
    std::printf("  nc at kc %lld, mc %lld (B block MiB): GFLOP/s, median of %d rounds (min..max)\n",
                static_cast<long long>(model.kc), static_cast<long long>(model.mc), rounds);
    for (std::size_t i = 0; i < ncs.size(); ++i) {
      std::printf("  %6lld (%5.2f) %6.1f (%.1f..%.1f)%s\n", static_cast<long long>(ncs[i]),
                  static_cast<double>(ncs[i] * model.kc * bytes) / (1 << 20), gn[i].median,
                  gn[i].min, gn[i].max,
                  ncs[i] == model.nc ? "  * model" : i == nc_best ? "  + best" : "");
    }
    std::fflush(stdout);
  }
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

// One SVG per dtype and thread count: the square sizes, one line per
// library, the FMA peak (times the thread count) dashed.
struct Row {
  int dtype_index;
  Shape shape;
  int threads;
  Result result;
};

void write_plots(const std::vector<Row>& rows, const std::string& csv_path, double peak_f32,
                 double peak_f64, const std::string& isa) {
  const std::string stem = csv_path.size() > 4 && csv_path.substr(csv_path.size() - 4) == ".csv"
                               ? csv_path.substr(0, csv_path.size() - 4)
                               : csv_path;
  std::vector<int> thread_counts;
  for (const Row& row : rows) {
    if (std::find(thread_counts.begin(), thread_counts.end(), row.threads) == thread_counts.end()) {
      thread_counts.push_back(row.threads);
    }
  }
  for (int dt = 0; dt < 2; ++dt) {
    for (int threads : thread_counts) {
      tessera::bench::Plot plot;
      std::vector<std::string> names;
      for (const Row& row : rows) {
        if (row.dtype_index != dt || row.threads != threads || row.shape.m != row.shape.n ||
            row.shape.n != row.shape.k) {
          continue;
        }
        for (const Measured& m : row.result.libs) {
          auto it = std::find(names.begin(), names.end(), m.name);
          if (it == names.end()) {
            names.push_back(m.name);
            tessera::bench::PlotSeries series;
            series.label = m.name == "OpenBLAS"
                               ? "OpenBLAS (" + tessera::bench::openblas_core() + ")"
                               : m.name;
            plot.series.push_back(series);
            it = names.end() - 1;
          }
          auto& series = plot.series[static_cast<std::size_t>(it - names.begin())];
          series.x.push_back(row.shape.n);
          series.y.push_back(m.gflops.median);
        }
      }
      if (plot.series.empty()) continue;
      const double peak = (dt == 0 ? peak_f32 : peak_f64) * threads;
      if (peak > 0) {
        tessera::bench::PlotSeries line;
        line.label = "FMA peak (" + isa + ")";
        line.dashed = true;
        for (double x : plot.series.front().x) line.x.push_back(x), line.y.push_back(peak);
        plot.series.push_back(line);
      }
      plot.title = std::string(dt == 0 ? "sgemm" : "dgemm") + ", " + std::to_string(threads) +
                   (threads == 1 ? " thread" : " threads") + ", tessera on " + isa;
      const std::string path =
          stem + "_" + (dt == 0 ? "f32" : "f64") + "_" + std::to_string(threads) + "t.svg";
      std::string error;
      if (tessera::bench::write_svg(path, plot, &error)) {
        std::printf("SVG written to %s\n", path.c_str());
      } else {
        std::printf("no SVG: %s\n", error.c_str());
      }
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  tessera::bench::select_openblas_core(argv, "bench-gemm");
  bool quick = false, sweep = false, check_scaling = false;
  int slow_rows = 0;  // wider runs below 0.8x one worker
  int rounds = 0;
  // Default CSV next to the executable (build/<dir>/bench/), not in the
  // source tree.
  std::string csv_path = argv[0];
  const std::size_t slash = csv_path.find_last_of('/');
  csv_path = (slash == std::string::npos ? std::string(".") : csv_path.substr(0, slash)) +
             "/gemm_bench.csv";
  std::vector<int> thread_counts = {1, 2};
  bool do_f32 = true, do_f64 = true;
  std::vector<Shape> chosen_shapes;
  const char* usage =
      "usage: bench-gemm [--quick] [--csv FILE] [--threads 1,2] [--dtype f32|f64|both] "
      "[--shapes N|MxNxK,...] [--rounds R] [--affinity POLICY] [--sweep-blocking] "
      "[--check-scaling] [--timing-ms MS] [--profile PROFILE.json] [--auto-width]\n";
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--quick") {
      quick = true;
    } else if (a == "--sweep-blocking") {
      sweep = true;
    } else if (a == "--check-scaling") {
      check_scaling = true;
    } else if (a == "--affinity" && i + 1 < argc) {
      tessera::AffinityPolicy policy;
      if (!tessera::platform::parse_affinity_policy(argv[++i], &policy)) {
        std::fprintf(stderr, "bench-gemm: --affinity takes none, physical_cores, ...\n");
        return 2;
      }
      g_affinity = policy;
    } else if (a == "--auto-width") {
      g_auto_width = true;
    } else if (a == "--profile" && i + 1 < argc) {
      tessera::Profile profile;
      const tessera::Status read = tessera::read_profile_file(argv[++i], &profile);
      if (!read.ok()) {
        std::fprintf(stderr, "bench-gemm: %s\n", read.to_string().c_str());
        return 2;
      }
      g_profile = profile;
      // The "tessera" rows are the defaults: a profile in the environment
      // would make them the profile's too.
      unsetenv("TESSERA_PROFILE");
    } else if (a == "--csv" && i + 1 < argc) {
      csv_path = argv[++i];
    } else if (a == "--rounds" && i + 1 < argc) {
      rounds = std::atoi(argv[++i]);
      if (rounds < 1 || rounds > 101) {
        std::fprintf(stderr, "bench-gemm: --rounds must be 1..101\n");
        return 2;
      }
    } else if (a == "--timing-ms" && i + 1 < argc) {
      const double ms = std::atof(argv[++i]);
      if (!(ms >= 0.1 && ms <= 1000)) {
        std::fprintf(stderr, "bench-gemm: --timing-ms must be 0.1..1000\n");
        return 2;
      }
      g_timing_seconds = ms * 1e-3;
    } else if (a == "--threads" && i + 1 < argc) {
      thread_counts = tessera::bench::parse_count_list(argv[++i]);
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
      std::fputs(usage, stderr);
      return 2;
    }
  }
  const tessera::Context context(bench_context_options());
  if (!context.status().ok()) {
    std::fprintf(stderr, "bench-gemm: %s\n", context.status().to_string().c_str());
    return 1;
  }
  const std::string isa = tessera::isa_name(context.isa());
  std::printf("tessera %s, isa %s, context width %d\n", TESSERA_VERSION_STRING, isa.c_str(),
              context.resolved_policy().effective_threads);
  if (sweep) {
    std::vector<Shape> sweep_shapes = chosen_shapes;
    if (sweep_shapes.empty()) {
      sweep_shapes.push_back({"square", 1024, 1024, 1024});
      if (!quick) sweep_shapes.push_back({"square", 2048, 2048, 2048});
    }
    if (do_f32) sweep_blocking<float>(sweep_shapes, rounds > 0 ? rounds : 3);
    if (do_f64) sweep_blocking<double>(sweep_shapes, rounds > 0 ? rounds : 3);
    return 0;
  }
  if (g_profile) {
    tessera::ContextOptions options = bench_context_options();
    options.profile = g_profile;
    tessera::Context tuned;
    const tessera::Status made = tessera::Context::create(options, &tuned);
    std::printf("tuned rows: %s\n", made.ok() ? tuned.resolved_policy().profile.c_str()
                                               : made.to_string().c_str());
    for (const std::string& f : tuned.resolved_policy().fallbacks) {
      if (f.rfind("profile", 0) == 0) std::printf("  %s\n", f.c_str());
    }
  }
  std::printf("%s\n", tessera::bench::openblas_report().c_str());
  std::printf("%s\n", tessera::bench::onednn_peer::describe().c_str());
  std::printf("%s\n", tessera::bench::eigen_peer::describe().c_str());
  const std::vector<FmaPeak> peaks = measure_fma_peaks();
  double peak_f32 = 0, peak_f64 = 0;
  for (const FmaPeak& p : peaks) {
    std::printf("FMA peak, one core, %-6s: f32 %.1f GFLOP/s, f64 %.1f GFLOP/s\n", p.isa.c_str(),
                p.f32, p.f64);
    if (p.isa == isa) peak_f32 = p.f32, peak_f64 = p.f64;
  }
  if (rounds == 0) rounds = quick ? 5 : 7;
  const int per_round = 3;

  std::FILE* csv = std::fopen(csv_path.c_str(), "w");
  if (csv != nullptr) {
    std::fprintf(csv,
                 "dtype,kind,m,n,k,threads,library,gflops_median,gflops_min,gflops_max,"
                 "tessera_over_library,tessera_peak_share,tessera_speedup_over_1t,plan\n");
  }
  std::printf(
      "\nGFLOP/s: median of %d round medians (min..max of the rounds); t/best: tessera "
      "over the best peer of the row\n",
      rounds);
  std::printf("%-4s %-11s %16s %3s | %-19s %-19s %-19s %-19s | %6s %-8s %6s %6s  %s\n", "type",
              "kind", "m x n x k", "thr", "tessera", "OpenBLAS", "oneDNN", "Eigen", "t/best",
              "best", "%peak", "vs 1T", "plan");
  std::vector<Row> rows;
  for (int dt = 0; dt < 2; ++dt) {
    if ((dt == 0 && !do_f32) || (dt == 1 && !do_f64)) continue;
    for (const Shape& s : chosen_shapes.empty() ? shapes(quick) : chosen_shapes) {
      double one_thread = 0;
      for (int threads : thread_counts) {
        const Result r = dt == 0 ? measure<float>(s, threads, rounds, per_round)
                                 : measure<double>(s, threads, rounds, per_round);
        const double t = r.libs.front().gflops.median;
        if (threads == 1) one_thread = t;
        const double peak = (dt == 0 ? peak_f32 : peak_f64) * threads;
        char dims[32];
        std::snprintf(dims, sizeof dims, "%dx%dx%d", s.m, s.n, s.k);
        auto cell = [&](const char* name) {
          const Measured* m = r.find(name);
          if (m == nullptr) return std::string("-");
          char buf[64];
          std::snprintf(buf, sizeof buf, "%.1f (%.1f..%.1f)", m->gflops.median, m->gflops.min,
                        m->gflops.max);
          return std::string(buf);
        };
        const Measured* best = r.best_peer();
        const double vs_best = best != nullptr ? t / best->gflops.median : 0;
        const double share = peak > 0 ? t / peak : 0;
        const double speedup = threads > 1 && one_thread > 0 ? t / one_thread : 0;
        // A wider run slower than 0.8x one worker is flagged ("!"): the
        // automatic path must never pick such a width on a quiet machine.
        char speed[16] = "-";
        if (speedup > 0)
          std::snprintf(speed, sizeof speed, "%.2fx%s", speedup, speedup < 0.8 ? "!" : "");
        if (speedup > 0 && speedup < 0.8) ++slow_rows;
        std::printf("%-4s %-11s %16s %3d | %-19s %-19s %-19s %-19s | %6.3f %-8s %5.1f%% %6s  %s\n",
                    dt == 0 ? "f32" : "f64", s.kind, dims, threads, cell("tessera").c_str(),
                    cell("OpenBLAS").c_str(), cell("oneDNN").c_str(), cell("Eigen").c_str(),
                    vs_best, best != nullptr ? best->name.c_str() : "-", 100 * share, speed,
                    r.plan.c_str());
        if (const Measured* tuned = r.find("tuned")) {
          std::printf("%-4s %-11s %16s %3d | tuned profile %.1f (%.1f..%.1f) = %.3fx the "
                      "defaults\n",
                      "", "", "", threads, tuned->gflops.median, tuned->gflops.min,
                      tuned->gflops.max, tuned->gflops.median / t);
        }
        std::fflush(stdout);
        if (csv != nullptr) {
          for (const Measured& m : r.libs) {
            std::fprintf(csv, "%s,%s,%d,%d,%d,%d,%s,%.3f,%.3f,%.3f,%.4f,%.4f,%.4f,%s\n",
                         dt == 0 ? "f32" : "f64", s.kind, s.m, s.n, s.k, threads, m.name.c_str(),
                         m.gflops.median, m.gflops.min, m.gflops.max, t / m.gflops.median, share,
                         speedup, r.plan.c_str());
          }
        }
        rows.push_back({dt, s, threads, r});
      }
    }
  }
  if (csv != nullptr) {
    std::fclose(csv);
    std::printf("\nCSV written to %s\n", csv_path.c_str());
  }
  write_plots(rows, csv_path, peak_f32, peak_f64, isa);
  std::printf(
      "%%peak: tessera's median over the measured %s FMA peak times the thread count.\n"
      "vs 1T: tessera over its own one-thread median; '!' marks a run below 0.8x.\n"
      "Operands: std::vectors, as a caller's would be, the same for every library; their\n"
      "offset from a 64-byte line is the allocator's (glibc maps large ones 16 bytes past\n"
      "a page).\n",
      isa.c_str());
  if (check_scaling && slow_rows > 0) {
    std::fprintf(stderr, "bench-gemm: %d wider run(s) below 0.8x one worker (rows marked '!')\n",
                 slow_rows);
    return 3;
  }
  return 0;
}
