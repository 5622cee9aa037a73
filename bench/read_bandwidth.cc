#include "read_bandwidth.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <thread>
#include <vector>

namespace tessera::bench {
namespace {

// One thread's pass: [p, p + n) cut into S contiguous parts read side by
// side, four accumulators per part. A gemv reads several rows at once, and
// several streams keep more lines in flight than one (here one stream
// reads ~20 GB/s from DRAM, four ~28): the reference is the best of
// S = 1, 2, 4, 8, not one stream's rate.
template <int S>
double sum_streams(const double* p, std::size_t n) {
  const std::size_t part = n / S;
  double acc[S][4] = {};
  for (std::size_t i = 0; i + 4 <= part; i += 4) {
    for (int s = 0; s < S; ++s) {
      for (int l = 0; l < 4; ++l) acc[s][l] += p[s * part + i + l];
    }
  }
  double total = 0;
  for (int s = 0; s < S; ++s) total += (acc[s][0] + acc[s][1]) + (acc[s][2] + acc[s][3]);
  return total;
}

double sum_streams(int streams, const double* p, std::size_t n) {
  switch (streams) {
    case 1:
      return sum_streams<1>(p, n);
    case 2:
      return sum_streams<2>(p, n);
    case 4:
      return sum_streams<4>(p, n);
    default:
      return sum_streams<8>(p, n);
  }
}

}  // namespace

Bandwidth read_bandwidth(std::size_t bytes, int threads, int samples) {
  const std::size_t n = std::max<std::size_t>(bytes / sizeof(double), 64);
  std::vector<double> buffer(n);
  for (std::size_t i = 0; i < n; ++i) buffer[i] = static_cast<double>(i & 1023);
  const int passes =
      std::clamp(static_cast<int>(4e-3 * 20e9 / static_cast<double>(bytes)), 1, 100000);
  std::atomic<double> sink{0};
  // Read through a volatile pointer: the compiler may not fold the repeated
  // passes of a pure function over unchanged memory into one.
  const double* volatile data = buffer.data();
  auto slice_passes = [&](int streams, std::size_t begin, std::size_t end) {
    double s = 0;
    for (int r = 0; r < passes; ++r) s += sum_streams(streams, data + begin, end - begin);
    sink.store(sink.load() + s);
  };
  Bandwidth best;
  for (int streams : {1, 2, 4, 8}) {
    std::vector<double> gbs;
    for (int r = 0; r < samples + 1; ++r) {
      const auto t0 = std::chrono::steady_clock::now();
      std::vector<std::thread> pool;
      const std::size_t slice = n / static_cast<std::size_t>(threads);
      for (int t = 1; t < threads; ++t) {
        pool.emplace_back(slice_passes, streams, slice * t, t + 1 == threads ? n : slice * (t + 1));
      }
      slice_passes(streams, 0, threads == 1 ? n : slice);
      for (std::thread& t : pool) t.join();
      const double sec =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      if (r > 0) gbs.push_back(static_cast<double>(n * sizeof(double)) * passes / sec / 1e9);
    }
    const Summary sum = summarize(gbs);
    if (sum.median > best.gbs.median) best = {sum, streams};
  }
  if (sink.load() == -1) std::puts("");
  return best;
}

}  // namespace tessera::bench
