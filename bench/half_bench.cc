// bench-half: tessera's f32 <-> f16 and f32 <-> bf16 conversions on every
// level this CPU runs, against the machine's read-plus-write rate over the
// same bytes (memcpy of half the bytes: as many read as written, the C
// library's best streaming copy; at 2 threads each copies half, on OpenMP's
// threads where the bench has OpenMP), at 1 and 2 threads, in cache (64 Ki
// elements, 384 KiB) and from memory (16 Mi elements, 96 MiB).
//
// Rounds alternate every candidate once, so drift affects all alike;
// reported: GB/s (6 bytes an element: 4 read and 2 written, or the
// reverse) as medians with min..max over the rounds, and each as a share
// of memcpy's median in the same rounds.
//
// Then gemv with A in f16 and bf16 next to sgemv on the same shapes (A
// rows x cols, row-major, y = A x: 4096 x 4096, and 11008 x 4096, one
// token's projection in a 7B model), as GB/s of A read against the
// machine's read rate over A's bytes (read_bandwidth.hpp), and each half
// gemv's speed-up over sgemv in the same rounds.
//
// Then dot of two f16 / bf16 vectors (16 Mi elements) next to sdot.
//
// Then GEMM, square 1024 and 2048 row-major, A and B in f16 and in bf16
// (exact mode: widened as packed, f32 kernels), next to tessera's sgemm and
// oneDNN's bf16 matmul (its own kernel choice, printed) on the same values,
// at 1 and 2 threads, as GFLOP/s medians with min..max and ratios to sgemm
// and to oneDNN; and bf16 in fast mode (the CPU's bf16 dot product) where
// the context's level and the CPU run it, else the reason it cannot, once.
//
//   bench-half [--rounds R] [--threads LIST] [--only convert|gemv|dot|gemm]
#include <algorithm>
#include <utility>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "bench_support.hpp"
#include "peer_onednn.hpp"
#include "read_bandwidth.hpp"
#include "tessera/tessera.hpp"

namespace {

// memcpy of `bytes` split over `threads` threads, a slice each.
void parallel_copy(unsigned char* to, const unsigned char* from, std::size_t bytes, int threads) {
  const auto slice = [&](int t) {
    const std::size_t begin = bytes * static_cast<std::size_t>(t) / static_cast<std::size_t>(threads);
    const std::size_t end = bytes * static_cast<std::size_t>(t + 1) / static_cast<std::size_t>(threads);
    std::memcpy(to + begin, from + begin, end - begin);
  };
  if (threads <= 1) {
    slice(0);
    return;
  }
#if TESSERA_BENCH_HAVE_OPENMP
#pragma omp parallel for num_threads(threads) schedule(static, 1)
  for (int t = 0; t < threads; ++t) slice(t);
#else
  std::vector<std::thread> helpers;
  for (int t = 1; t < threads; ++t) helpers.emplace_back(slice, t);
  slice(0);
  for (std::thread& h : helpers) h.join();
#endif
}

using tessera::bench::Summary;
using tessera::bench::summarize;
using tessera::bench::time_runs;

struct Candidate {
  std::string name;
  std::function<void()> run;
  std::vector<double> seconds;
};

void print(const Candidate& c, double bytes, double copy_median) {
  const Summary s = summarize(c.seconds);
  std::printf("  %-30s %8.2f GB/s (%.2f..%.2f)  %4.0f%% of memcpy\n", c.name.c_str(),
              bytes / s.median / 1e9, bytes / s.max / 1e9, bytes / s.min / 1e9,
              100.0 * copy_median / s.median);
}

// dot of two f16 / bf16 vectors of 16 Mi elements (from memory) next to
// sdot on the same values, as GB/s of x and y read and the speed-up.
void run_dot_part(int rounds, const std::vector<int>& thread_counts) {
  constexpr std::size_t n = std::size_t{1} << 24;
  const tessera::Context context;
  std::vector<float> x(n), y(n);
  std::uint64_t state = 5;
  for (std::vector<float>* v : {&x, &y}) {
    for (float& e : *v) {
      state = state * 6364136223846793005ull + 1442695040888963407ull;
      e = static_cast<float>(static_cast<double>(state >> 40) / double(1 << 24) - 0.5);
    }
  }
  std::vector<tessera::f16> xh(n), yh(n);
  std::vector<tessera::bf16> xb(n), yb(n);
  (void)tessera::try_convert(context, std::span<const float>(x), std::span<tessera::f16>(xh));
  (void)tessera::try_convert(context, std::span<const float>(y), std::span<tessera::f16>(yh));
  (void)tessera::try_convert(context, std::span<const float>(x), std::span<tessera::bf16>(xb));
  (void)tessera::try_convert(context, std::span<const float>(y), std::span<tessera::bf16>(yb));
  const auto nn = static_cast<std::int64_t>(n);
  for (int threads : thread_counts) {
    const tessera::Parallelism p = tessera::Parallelism::threads(threads);
    float r = 0.0f;
    std::vector<Candidate> candidates;
    candidates.push_back({"sdot (f32)", [&] { (void)tessera::try_dot(context, nn, x.data(), 1, y.data(), 1, &r, p); }, {}});
    candidates.push_back({"dot f16", [&] { (void)tessera::try_dot(context, nn, xh.data(), 1, yh.data(), 1, &r, p); }, {}});
    candidates.push_back({"dot bf16", [&] { (void)tessera::try_dot(context, nn, xb.data(), 1, yb.data(), 1, &r, p); }, {}});
    for (int round = 0; round < rounds; ++round) {
      for (std::size_t i = 0; i < candidates.size(); ++i) {
        Candidate& c = candidates[(i + static_cast<std::size_t>(round)) % candidates.size()];
        c.seconds.push_back(summarize(time_runs(3, c.run)).median);
      }
    }
    std::printf("dot n = %zu, %d thread(s), %d rounds, on %s\n", n, threads, rounds,
                tessera::isa_name(context.isa()));
    const double sdot = summarize(candidates[0].seconds).median;
    for (std::size_t i = 0; i < candidates.size(); ++i) {
      const Summary s = summarize(candidates[i].seconds);
      const double bytes = 2.0 * static_cast<double>(n) * (i == 0 ? 4 : 2);
      std::printf("  %-12s %8.1f us (%.1f..%.1f)  %6.2f GB/s of x and y  %.2fx sdot\n",
                  candidates[i].name.c_str(), s.median * 1e6, s.min * 1e6, s.max * 1e6,
                  bytes / s.median / 1e9, sdot / s.median);
    }
  }
}

// GEMM n x n x n on f16 and bf16 operands against sgemm and oneDNN's bf16
// matmul on the same values (bf16-representable, so every candidate
// multiplies the same numbers).
void run_gemm_part(int rounds, const std::vector<int>& thread_counts) {
  using tessera::Layout;
  using tessera::Transpose;
  std::printf("peer: %s\n", tessera::bench::onednn_peer::describe().c_str());
  const tessera::Context context;
  for (int n : {1024, 2048}) {
    const auto count = static_cast<std::size_t>(n) * static_cast<std::size_t>(n);
    std::vector<float> a(count), b(count), c(count);
    std::uint64_t state = 11;
    for (std::vector<float>* m : {&a, &b}) {
      for (float& v : *m) {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        v = static_cast<float>(static_cast<double>(state >> 40) / double(1 << 24) - 0.5);
      }
    }
    std::vector<tessera::bf16> a_bf(count), b_bf(count);
    std::vector<tessera::f16> a_h(count), b_h(count);
    // Round to bf16 first: those values are exact in f16 too (8 significant
    // bits, exponents well inside f16's range), so every candidate gets the
    // same numbers.
    (void)tessera::try_convert(context, std::span<const float>(a), std::span<tessera::bf16>(a_bf));
    (void)tessera::try_convert(context, std::span<const float>(b), std::span<tessera::bf16>(b_bf));
    (void)tessera::try_convert(context, std::span<const tessera::bf16>(a_bf), std::span<float>(a));
    (void)tessera::try_convert(context, std::span<const tessera::bf16>(b_bf), std::span<float>(b));
    (void)tessera::try_convert(context, std::span<const float>(a), std::span<tessera::f16>(a_h));
    (void)tessera::try_convert(context, std::span<const float>(b), std::span<tessera::f16>(b_h));
    tessera::bench::onednn_peer::Bf16Matmul peer(n, n, n);
    for (int threads : thread_counts) {
      const tessera::Parallelism p = tessera::Parallelism::threads(threads);
      std::vector<Candidate> candidates;
      candidates.push_back({"tessera sgemm (f32)", [&] {
                              (void)tessera::try_gemm(context, Layout::kRowMajor, Transpose::kNo, Transpose::kNo,
                                                      n, n, n, 1.0f, a.data(), n, b.data(), n, 0.0f, c.data(), n, p);
                            }, {}});
      candidates.push_back({"tessera f16 exact", [&] {
                              (void)tessera::try_gemm(context, Layout::kRowMajor, Transpose::kNo, Transpose::kNo,
                                                      n, n, n, 1.0f, {a_h.data(), n}, {b_h.data(), n}, 0.0f,
                                                      {c.data(), n}, {}, p);
                            }, {}});
      candidates.push_back({"tessera bf16 exact", [&] {
                              (void)tessera::try_gemm(context, Layout::kRowMajor, Transpose::kNo, Transpose::kNo,
                                                      n, n, n, 1.0f, {a_bf.data(), n}, {b_bf.data(), n}, 0.0f,
                                                      {c.data(), n}, {}, p);
                            }, {}});
      tessera::HalfGemmOptions fast;
      fast.mode = tessera::HalfGemmMode::kFast;
      const auto run_fast = [&] {
        return tessera::try_gemm(context, Layout::kRowMajor, Transpose::kNo, Transpose::kNo, n, n,
                                 n, 1.0f, {a_bf.data(), n}, {b_bf.data(), n}, 0.0f,
                                 {c.data(), n}, fast, p);
      };
      if (const tessera::Status status = run_fast(); status.ok()) {
        candidates.push_back({"tessera bf16 fast", [&] { (void)run_fast(); }, {}});
      } else if (threads == thread_counts.front() && n == 1024) {
        std::printf("bf16 fast mode: %s\n", status.message().c_str());
      }
      if (peer.ok()) {
        candidates.push_back({"oneDNN bf16 matmul", [&] {
                                if (!peer.run(&a_bf[0].bits, &b_bf[0].bits, c.data(), threads)) {
                                  std::fprintf(stderr, "bench-half: oneDNN's matmul failed\n");
                                  std::exit(1);
                                }
                              }, {}});
      }
      for (Candidate& cand : candidates) cand.run();  // warm: pages, pools, JIT
      for (int r = 0; r < rounds; ++r) {
        for (std::size_t i = 0; i < candidates.size(); ++i) {
          const std::size_t index = (i + static_cast<std::size_t>(r)) % candidates.size();
          Candidate& cand = candidates[index];
          cand.seconds.push_back(summarize(time_runs(1, cand.run)).median);
          if (cand.name.rfind("oneDNN", 0) == 0 && threads > 1) tessera::bench::wait_for_quiet_threads();
        }
      }
      const double flops = 2.0 * n * static_cast<double>(n) * n;
      std::printf("gemm %d x %d x %d, %d thread(s), %d rounds, tessera on %s%s%s\n", n, n, n, threads,
                  rounds, tessera::isa_name(context.isa()), peer.ok() ? "; oneDNN: " : "",
                  peer.ok() ? peer.implementation().c_str() : "");
      const double sgemm = summarize(candidates[0].seconds).median;
      const double onednn = peer.ok() ? summarize(candidates.back().seconds).median : 0.0;
      for (const Candidate& cand : candidates) {
        const Summary s = summarize(cand.seconds);
        std::printf("  %-22s %8.1f GFLOP/s (%.1f..%.1f)  %.2fx sgemm", cand.name.c_str(),
                    flops / s.median / 1e9, flops / s.max / 1e9, flops / s.min / 1e9, sgemm / s.median);
        if (onednn > 0) std::printf("  %.2fx oneDNN bf16", onednn / s.median);
        std::printf("\n");
      }
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  int rounds = 15;
  std::vector<int> thread_counts = {1, 2};
  std::string only;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--rounds" && i + 1 < argc) {
      rounds = std::max(1, std::atoi(argv[++i]));
    } else if (a == "--threads" && i + 1 < argc) {
      thread_counts = tessera::bench::parse_count_list(argv[++i]);
      if (thread_counts.empty()) {
        std::fprintf(stderr, "bench-half: --threads takes a list like 1,2\n");
        return 2;
      }
    } else if (a == "--only" && i + 1 < argc) {
      only = argv[++i];
      if (only != "convert" && only != "gemv" && only != "dot" && only != "gemm") {
        std::fprintf(stderr, "bench-half: --only takes convert, gemv, dot or gemm\n");
        return 2;
      }
    } else {
      std::fprintf(stderr, "usage: bench-half [--rounds R] [--threads LIST] [--only convert|gemv|dot|gemm]\n");
      return 2;
    }
  }
  const auto part = [&](const char* name) { return only.empty() || only == name; };
  std::vector<tessera::Isa> levels;
  for (const tessera::KernelRecord& r : tessera::kernel_inventory(tessera::Context())) {
    if (r.family == tessera::KernelFamily::kOptimized && r.runnable &&
        std::string(r.op) == "convert" && std::string(r.dtype) == "f32<->f16") {
      levels.push_back(r.isa);
    }
  }
  for (std::size_t n : {std::size_t{1} << 16, std::size_t{1} << 24}) {
    if (!part("convert")) break;
    std::vector<float> x(n), back(n);
    std::vector<tessera::f16> h(n);
    std::vector<tessera::bf16> b(n);
    std::vector<unsigned char> copy_from(3 * n, 1), copy_to(3 * n);
    std::uint64_t state = 99;
    for (float& v : x) {
      state = state * 6364136223846793005ull + 1442695040888963407ull;
      v = static_cast<float>(static_cast<double>(state >> 40) / double(1 << 24) * 2000.0 - 1000.0);
    }
    const double bytes = 6.0 * static_cast<double>(n);
    for (int threads : thread_counts) {
      const tessera::Parallelism p = tessera::Parallelism::threads(threads);
      std::vector<Candidate> candidates;
      candidates.push_back({"memcpy (same bytes)", [&] {
                              parallel_copy(copy_to.data(), copy_from.data(), copy_from.size(), threads);
                            }, {}});
      std::vector<tessera::Context> contexts;
      for (tessera::Isa isa : levels) {
        tessera::ContextOptions options;
        options.isa = isa;
        options.read_environment = false;
        tessera::Context context;
        if (!tessera::Context::create(options, &context).ok()) continue;
        contexts.push_back(context);
      }
      for (const tessera::Context& c : contexts) {
        const std::string level = tessera::isa_name(c.isa());
        candidates.push_back({level + " f32 -> f16", [&, c] {
                                (void)tessera::try_convert(c, std::span<const float>(x),
                                                           std::span<tessera::f16>(h), p);
                              }, {}});
        candidates.push_back({level + " f16 -> f32", [&, c] {
                                (void)tessera::try_convert(c, std::span<const tessera::f16>(h),
                                                           std::span<float>(back), p);
                              }, {}});
        candidates.push_back({level + " f32 -> bf16", [&, c] {
                                (void)tessera::try_convert(c, std::span<const float>(x),
                                                           std::span<tessera::bf16>(b), p);
                              }, {}});
        candidates.push_back({level + " bf16 -> f32", [&, c] {
                                (void)tessera::try_convert(c, std::span<const tessera::bf16>(b),
                                                           std::span<float>(back), p);
                              }, {}});
      }
      // Reps inside a sample: >= ~2 ms of work at 20 GB/s.
      const int reps = std::max(1, static_cast<int>(40e6 / bytes));
      for (int r = 0; r < rounds; ++r) {
        for (std::size_t i = 0; i < candidates.size(); ++i) {
          const std::size_t index = (i + static_cast<std::size_t>(r)) % candidates.size();
          Candidate& c = candidates[index];
          const std::vector<double> t = time_runs(reps, c.run);
          c.seconds.push_back(summarize(t).median);
          // OpenMP's threads spin a while after the copy: not while tessera runs.
          if (index == 0 && threads > 1) tessera::bench::wait_for_quiet_threads();
        }
      }
      std::printf("n = %zu (%.1f MiB touched), %d thread(s), %d rounds\n", n, bytes / (1 << 20),
                  threads, rounds);
      const double copy_median = summarize(candidates[0].seconds).median;
      for (const Candidate& c : candidates) print(c, bytes, copy_median);
    }
  }
  // gemv: A's values are those of a seeded f32 matrix, in each format.
  for (const auto& shape : {std::pair<std::int64_t, std::int64_t>{4096, 4096}, {11008, 4096}}) {
    if (!part("gemv")) break;
    const std::int64_t rows = shape.first, cols = shape.second;
    const auto count = static_cast<std::size_t>(rows * cols);
    std::vector<float> a(count), x(static_cast<std::size_t>(cols), 0.5f), y(static_cast<std::size_t>(rows));
    std::uint64_t state = 7;
    for (float& v : a) {
      state = state * 6364136223846793005ull + 1442695040888963407ull;
      v = static_cast<float>(static_cast<double>(state >> 40) / double(1 << 24) - 0.5);
    }
    std::vector<tessera::f16> a16(count);
    std::vector<tessera::bf16> ab16(count);
    const tessera::Context context;
    (void)tessera::try_convert(context, std::span<const float>(a), std::span<tessera::f16>(a16));
    (void)tessera::try_convert(context, std::span<const float>(a), std::span<tessera::bf16>(ab16));
    for (int threads : thread_counts) {
      const tessera::Parallelism p = tessera::Parallelism::threads(threads);
      using tessera::Layout;
      using tessera::Transpose;
      std::vector<Candidate> candidates;
      candidates.push_back({"sgemv (f32 A)", [&] {
                              (void)tessera::try_gemv(context, Layout::kRowMajor, Transpose::kNo, rows, cols, 1.0f,
                                                      a.data(), cols, x.data(), 1, 0.0f, y.data(), 1, p);
                            }, {}});
      candidates.push_back({"gemv f16 A", [&] {
                              (void)tessera::try_gemv(context, Layout::kRowMajor, Transpose::kNo, rows, cols, 1.0f,
                                                      a16.data(), cols, x.data(), 1, 0.0f, y.data(), 1, p);
                            }, {}});
      candidates.push_back({"gemv bf16 A", [&] {
                              (void)tessera::try_gemv(context, Layout::kRowMajor, Transpose::kNo, rows, cols, 1.0f,
                                                      ab16.data(), cols, x.data(), 1, 0.0f, y.data(), 1, p);
                            }, {}});
      for (int r = 0; r < rounds; ++r) {
        for (std::size_t i = 0; i < candidates.size(); ++i) {
          Candidate& c = candidates[(i + static_cast<std::size_t>(r)) % candidates.size()];
          c.seconds.push_back(summarize(time_runs(3, c.run)).median);
        }
      }
      const tessera::bench::Bandwidth f32_bw = tessera::bench::read_bandwidth(count * 4, threads, 5);
      const tessera::bench::Bandwidth half_bw = tessera::bench::read_bandwidth(count * 2, threads, 5);
      std::printf("gemv %lld x %lld, %d thread(s), %d rounds, on %s; read rate over A's bytes: "
                  "%.2f GB/s (f32 A), %.2f GB/s (half A)\n",
                  static_cast<long long>(rows), static_cast<long long>(cols), threads, rounds,
                  tessera::isa_name(context.isa()), f32_bw.gbs.median, half_bw.gbs.median);
      const double sgemv = summarize(candidates[0].seconds).median;
      for (std::size_t i = 0; i < candidates.size(); ++i) {
        const Summary s = summarize(candidates[i].seconds);
        const double a_bytes = static_cast<double>(count) * (i == 0 ? 4 : 2);
        const double bw = i == 0 ? f32_bw.gbs.median : half_bw.gbs.median;
        std::printf("  %-16s %8.1f us (%.1f..%.1f)  %6.2f GB/s of A  %4.0f%% of the read rate  %.2fx sgemv\n",
                    candidates[i].name.c_str(), s.median * 1e6, s.min * 1e6, s.max * 1e6,
                    a_bytes / s.median / 1e9, 100.0 * a_bytes / s.median / 1e9 / bw, sgemv / s.median);
      }
    }
  }
  if (part("dot")) run_dot_part(rounds, thread_counts);
  if (part("gemm")) run_gemm_part(rounds, thread_counts);
  return 0;
}
