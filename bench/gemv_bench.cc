// bench-gemv: tessera's sgemv/dgemv (4096^2, 1024^2, row-major, no
// transpose) and sdot (10^7) against OpenBLAS and Eigen, measured side by
// side in one process, in GB/s next to the machine's read bandwidth over the
// same bytes, measured here by plain streaming sums (per thread count: each
// thread over its own slice; the best of 1, 2, 4 and 8 side-by-side
// streams). The same bytes, because a 64 MiB matrix on a 32 MiB L3 is
// partly served by the L3 on every repeat: against DRAM's rate (also
// printed, over 512 MiB) a gemv read "190%".
//
//   bench-gemv [--quick] [--threads 1,2]
//
// A second table gives the fixed cost of small calls (sdot 16 and 256,
// sgemv 8x8 and 32x32, dgemv 8x8) in ns per call: tessera on a default
// context with automatic parallelism, as a user calls it, against the
// peers at one thread. Work is a few nanoseconds there; the rest is what a
// call costs (validation, the resolver's decision).
//
// Each library runs its samples as a block after a 30 ms pause, in three
// rounds that alternate the libraries (as bench-gemm: a library's spinning
// workers must not steal the next one's cores; rounds spread slow drift).
// Reported: median GB/s with min..max, tessera / OpenBLAS, tessera / Eigen
// and tessera's share of the read bandwidth ("read (str)": GB/s and the
// stream count that gave it; "%read"). Bytes counted: A once, x once,
// y read and written (gemv) or x and y once (dot).
// OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE are removed from the environment
// before OpenBLAS initialises (re-exec, as bench-gemm), so OpenBLAS runs the
// kernel it picks for this CPU. Eigen is built with this bench's flags (the
// project's baseline, no -march=native), as in bench-gemm.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "bench_support.hpp"
#include "read_bandwidth.hpp"
#include "peer_eigen.hpp"
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
using tessera::bench::Summary;
using tessera::bench::summarize;
using tessera::bench::Bandwidth;
using tessera::bench::read_bandwidth;

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

struct Case {
  const char* name;  // "sgemv", "dgemv", "sdot"
  long m, n;         // gemv: m x n; dot: n elements (m = 0)
};

struct Result {
  Summary lib[3];
  bool has[3] = {true, false, false};
  double bytes = 0;  // counted per call
};

const char* const kLibNames[3] = {"tessera", "openblas", "eigen"};

template <class T>
Result measure(const Case& c, int threads, int samples) {
  const bool is_dot = c.m == 0;
  const std::size_t a_len = is_dot ? 0 : static_cast<std::size_t>(c.m) * c.n;
  const std::size_t x_len = static_cast<std::size_t>(c.n);
  const std::size_t y_len = is_dot ? x_len : static_cast<std::size_t>(c.m);
  std::vector<T> a(a_len), x(x_len), y(y_len);
  for (std::size_t i = 0; i < a_len; ++i) a[i] = static_cast<T>((i * 7 % 2003) / 2003.0 - 0.5);
  for (std::size_t i = 0; i < x_len; ++i) x[i] = static_cast<T>((i * 13 % 1009) / 1009.0 - 0.5);
  for (std::size_t i = 0; i < y_len; ++i) y[i] = T(0);
  const double bytes =
      sizeof(T) * (is_dot ? 2.0 * x_len : static_cast<double>(a_len) + x_len + 2.0 * y_len);
  const tessera::Context context;
  // threads = 0: automatic (the small-call table), the peers at one thread.
  const tessera::Parallelism par = threads == 0   ? tessera::Parallelism()
                                   : threads == 1 ? tessera::Parallelism::serial()
                                                  : tessera::Parallelism::threads(threads);
  const int peer_threads = std::max(1, threads);
  volatile T sink = 0;
  std::vector<std::function<void()>> libs;
  Result r;
  libs.push_back([&] {
    tessera::Status st;
    if (is_dot) {
      T out = 0;
      st = tessera::try_dot(context, c.n, x.data(), 1, y.data(), 1, &out, par);
      sink = out;
    } else {
      st = tessera::try_gemv(context, tessera::Layout::kRowMajor, tessera::Transpose::kNo, c.m,
                             c.n, T(1), a.data(), c.n, x.data(), 1, T(0), y.data(), 1, par);
    }
    if (!st.ok()) {
      std::fprintf(stderr, "bench-gemv: %s\n", st.to_string().c_str());
      std::exit(1);
    }
  });
#if defined(TESSERA_BENCH_HAVE_OPENBLAS)
  r.has[1] = true;
  libs.push_back([&] {
    openblas_set_num_threads(peer_threads);
    if constexpr (sizeof(T) == 4) {
      if (is_dot) {
        sink = cblas_sdot(static_cast<int>(c.n), x.data(), 1, y.data(), 1);
      } else {
        cblas_sgemv(CblasRowMajor, CblasNoTrans, c.m, c.n, 1.0f, a.data(), c.n, x.data(), 1, 0.0f,
                    y.data(), 1);
      }
    } else {
      if (is_dot) {
        sink = cblas_ddot(static_cast<int>(c.n), x.data(), 1, y.data(), 1);
      } else {
        cblas_dgemv(CblasRowMajor, CblasNoTrans, c.m, c.n, 1.0, a.data(), c.n, x.data(), 1, 0.0,
                    y.data(), 1);
      }
    }
  });
#endif
  if (tessera::bench::eigen_peer::available()) {
    r.has[2] = true;
    libs.push_back([&] {
      namespace eigen = tessera::bench::eigen_peer;
      if (is_dot) {
        sink = static_cast<T>(eigen::dot(x.data(), y.data(), static_cast<std::int64_t>(x_len),
                                         peer_threads));
      } else {
        eigen::gemv(a.data(), x.data(), y.data(), static_cast<int>(c.m), static_cast<int>(c.n),
                    peer_threads);
      }
    });
  }
  // Calls per timing: >= ~2 ms of traffic at ~20 GB/s, at most 20000
  // (small calls: ~2 ms at 100 ns a call).
  const int inner = std::clamp(static_cast<int>(2e-3 * 20e9 / bytes), 1, 20000);
  std::vector<std::vector<double>> gbs(libs.size());
  const int rounds = 3;
  for (int round = 0; round < rounds; ++round) {
    for (std::size_t l = 0; l < libs.size(); ++l) {
      std::this_thread::sleep_for(std::chrono::milliseconds(30));
      libs[l]();  // warm-up
      const int count = (samples + rounds - 1 - round) / rounds;
      for (int rep = 0; rep < count; ++rep) {
        const auto t0 = Clock::now();
        for (int i = 0; i < inner; ++i) libs[l]();
        gbs[l].push_back(bytes / (seconds_since(t0) / inner) / 1e9);
      }
    }
  }
  std::size_t next = 0;
  for (int l = 0; l < 3; ++l) {
    if (r.has[l]) r.lib[l] = summarize(gbs[next++]);
  }
  r.bytes = bytes;
  return r;
}

void print_row(const Case& c, int threads, const Result& r, const Bandwidth& bw) {
  char shape[32];
  if (c.m == 0) {
    std::snprintf(shape, sizeof shape, "%ld", c.n);
  } else {
    std::snprintf(shape, sizeof shape, "%ldx%ld", c.m, c.n);
  }
  std::printf("%-6s %-10s %2d ", c.name, shape, threads);
  for (int l = 0; l < 3; ++l) {
    if (r.has[l]) {
      std::printf(" %7.2f (%6.2f..%6.2f)", r.lib[l].median, r.lib[l].min, r.lib[l].max);
    } else {
      std::printf(" %24s", "-");
    }
  }
  const double t = r.lib[0].median;
  std::printf("  %5.2fx  %5.2fx  %7.2f (%d)  %5.1f%%\n", r.has[1] ? t / r.lib[1].median : 0.0,
              r.has[2] ? t / r.lib[2].median : 0.0, bw.gbs.median, bw.streams,
              100.0 * t / bw.gbs.median);
}

// The small-call table: ns per call (bytes / GB/s), and the speed ratios
// as in print_row (above 1: tessera is faster).
void print_small_row(const Case& c, const Result& r) {
  char shape[32];
  if (c.m == 0) {
    std::snprintf(shape, sizeof shape, "%ld", c.n);
  } else {
    std::snprintf(shape, sizeof shape, "%ldx%ld", c.m, c.n);
  }
  std::printf("%-6s %-10s", c.name, shape);
  for (int l = 0; l < 3; ++l) {
    if (r.has[l]) {
      std::printf(" %7.1f (%6.1f..%6.1f)", r.bytes / r.lib[l].median, r.bytes / r.lib[l].max,
                  r.bytes / r.lib[l].min);
    } else {
      std::printf(" %24s", "-");
    }
  }
  const double t = r.lib[0].median;
  std::printf("  %5.2fx  %5.2fx\n", r.has[1] ? t / r.lib[1].median : 0.0,
              r.has[2] ? t / r.lib[2].median : 0.0);
}

}  // namespace

int main(int argc, char** argv) {
  tessera::bench::select_openblas_core(argv, "bench-gemv");
  bool quick = false;
  std::vector<int> thread_counts = {1, 2};
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--quick") {
      quick = true;
    } else if (a == "--threads" && i + 1 < argc) {
      thread_counts = tessera::bench::parse_count_list(argv[++i]);
      if (thread_counts.empty()) {
        std::fprintf(stderr, "bench-gemv: --threads needs a list like 1,2\n");
        return 2;
      }
    } else {
      std::fprintf(stderr, "usage: bench-gemv [--quick] [--threads 1,2]\n");
      return 2;
    }
  }
  std::printf("%s\n%s\n", tessera::bench::openblas_report().c_str(),
              tessera::bench::eigen_peer::describe().c_str());
  const tessera::Context context;
  std::printf("tessera ISA: %s\n", tessera::isa_name(context.isa()));
  const int samples = quick ? 6 : 15;
  const Case cases[] = {
      {"sgemv", 4096, 4096}, {"sgemv", 1024, 1024}, {"dgemv", 4096, 4096},
      {"dgemv", 1024, 1024}, {"sdot", 0, 10000000},
  };
  for (int threads : thread_counts) {
    const Bandwidth dram = read_bandwidth(std::size_t{512} << 20, threads, quick ? 3 : 7);
    std::printf(
        "\n%d thread%s: DRAM read bandwidth (streaming sums over 512 MiB, best of 1-8 "
        "streams) %.2f GB/s (%.2f..%.2f, %d streams)\n",
        threads, threads == 1 ? "" : "s", dram.gbs.median, dram.gbs.min, dram.gbs.max,
        dram.streams);
    std::printf("%-6s %-10s %2s  %24s %24s %24s  %6s  %6s  %11s  %6s\n", "op", "shape", "th",
                "tessera GB/s (min..max)", "openblas", "eigen", "/oblas", "/eigen", "read (str)",
                "%read");
    for (const Case& c : cases) {
      const Result r = c.name[0] == 'd' ? measure<double>(c, threads, samples)
                                        : measure<float>(c, threads, samples);
      const Bandwidth bw =
          read_bandwidth(static_cast<std::size_t>(r.bytes), threads, quick ? 3 : 5);
      print_row(c, threads, r, bw);
      std::fflush(stdout);
    }
  }
  const Case small[] = {
      {"sdot", 0, 16}, {"sdot", 0, 256}, {"sgemv", 8, 8}, {"sgemv", 32, 32}, {"dgemv", 8, 8},
  };
  std::printf("\nsmall calls, ns per call (tessera: default context, automatic parallelism; "
              "peers: 1 thread)\n");
  std::printf("%-6s %-10s %24s %24s %24s  %6s  %6s\n", "op", "shape", "tessera ns (min..max)",
              "openblas", "eigen", "/oblas", "/eigen");
  for (const Case& c : small) {
    const Result r =
        c.name[0] == 'd' ? measure<double>(c, 0, samples) : measure<float>(c, 0, samples);
    print_small_row(c, r);
    std::fflush(stdout);
  }
  return 0;
}
