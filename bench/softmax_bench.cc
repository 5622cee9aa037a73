// bench-softmax: tessera's softmax over 1024 x 1024 f32 rows against a plain
// two-pass scalar loop using std::exp (max, then exp and sum, then a
// division: the loop the library call replaces), and against the
// bandwidth of tessera's sum reduction over the same matrix (a floor: one
// read, no exp). Also log-softmax.
//
//   bench-softmax [--reps R] [--threads N]
//
// Interleaved: every round runs each candidate once, so drift affects all
// alike; reported are medians with min..max over the rounds. GB/s counts x
// read once and y written once (softmax), x read once (sum).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "bench_support.hpp"
#include "tessera/tessera.hpp"

namespace {

using tessera::bench::Summary;
using tessera::bench::summarize;
using tessera::bench::time_runs;

constexpr std::int64_t kRows = 1024, kCols = 1024;

// The baseline: per row, the max, then exp(x - max) stored and summed, then
// a division. Plain scalar C++ with std::exp.
void scalar_softmax(const float* x, float* y) {
  for (std::int64_t r = 0; r < kRows; ++r) {
    const float* xr = x + r * kCols;
    float* yr = y + r * kCols;
    float m = xr[0];
    for (std::int64_t j = 1; j < kCols; ++j) m = std::max(m, xr[j]);
    float sum = 0;
    for (std::int64_t j = 0; j < kCols; ++j) {
      yr[j] = std::exp(xr[j] - m);
      sum += yr[j];
    }
    for (std::int64_t j = 0; j < kCols; ++j) yr[j] /= sum;
  }
}

void print(const char* name, const std::vector<double>& seconds, double bytes,
           double baseline_median) {
  const Summary s = summarize(seconds);
  std::printf("%-28s median %8.1f us (min %8.1f, max %8.1f)  %6.2f GB/s  x%.2f vs scalar\n", name,
              s.median * 1e6, s.min * 1e6, s.max * 1e6, bytes / s.median / 1e9,
              baseline_median / s.median);
}

}  // namespace

int main(int argc, char** argv) {
  int reps = 50;
  int threads = 1;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--reps" && i + 1 < argc) {
      reps = std::max(1, std::atoi(argv[++i]));
    } else if (a == "--threads" && i + 1 < argc) {
      threads = std::max(1, std::atoi(argv[++i]));
    } else {
      std::fprintf(stderr, "usage: bench-softmax [--reps R] [--threads N]\n");
      return 2;
    }
  }
  tessera::Context context;
  if (tessera::Status s = tessera::Context::create({}, &context); !s.ok()) {
    std::fprintf(stderr, "bench-softmax: %s\n", s.to_string().c_str());
    return 1;
  }
  const tessera::Parallelism parallelism = tessera::Parallelism::threads(threads);
  std::vector<float> x(static_cast<std::size_t>(kRows * kCols)), y(x.size()), sums(kRows);
  // Logits in [-8, 8): a spread like a classifier's.
  std::uint64_t state = 12345;
  for (float& v : x) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    v = static_cast<float>(static_cast<double>(state >> 40) / double(1 << 24) * 16.0 - 8.0);
  }
  std::printf("softmax %lld x %lld f32 on %s, tessera with %d thread(s), %d rounds\n",
              static_cast<long long>(kRows), static_cast<long long>(kCols),
              tessera::isa_name(context.isa()), threads, reps);
  // Probe: softmax may be unavailable in this build (no vector exp).
  const tessera::Status probe =
      tessera::try_softmax(context, kRows, kCols, x.data(), kCols, y.data(), kCols, parallelism);
  if (!probe.ok()) std::printf("tessera softmax: %s\n", probe.to_string().c_str());

  std::vector<double> t_scalar, t_softmax, t_log, t_sum;
  for (int r = 0; r < reps; ++r) {
    t_scalar.push_back(time_runs(1, [&] { scalar_softmax(x.data(), y.data()); })[0]);
    if (probe.ok()) {
      t_softmax.push_back(time_runs(1, [&] {
        (void)tessera::try_softmax(context, kRows, kCols, x.data(), kCols, y.data(), kCols,
                                   parallelism);
      })[0]);
      t_log.push_back(time_runs(1, [&] {
        (void)tessera::try_log_softmax(context, kRows, kCols, x.data(), kCols, y.data(), kCols,
                                       parallelism);
      })[0]);
    }
    t_sum.push_back(time_runs(1, [&] {
      (void)tessera::try_reduce(context, tessera::ReduceOp::kSum, kRows, kCols, x.data(), kCols,
                                sums.data(), parallelism);
    })[0]);
  }
  const double io = 2.0 * sizeof(float) * kRows * kCols;
  const double baseline = summarize(t_scalar).median;
  print("scalar two-pass std::exp", t_scalar, io, baseline);
  if (probe.ok()) {
    print("tessera softmax", t_softmax, io, baseline);
    print("tessera log_softmax", t_log, io, baseline);
  }
  print("tessera sum (read only)", t_sum, io / 2, baseline);
  return 0;
}
