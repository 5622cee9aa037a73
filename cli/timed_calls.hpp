// The timed runs of gemm and qgemm: `reps` calls, then the median, the
// extremes and the rate 2mnk / median in the command's unit.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "check_report.hpp"
#include "commands.hpp"
#include "tessera/tessera.hpp"

namespace tessera::cli {

// Calls call() (returning a Status) `reps` times and prints "time: median
// ..." and "<unit>: <rate>". A failing call is reported: its exit code goes
// to *exit_code and false is returned.
template <class F>
bool run_timed_calls(int reps, std::int64_t m, std::int64_t n, std::int64_t k, const char* unit,
                     F&& call, int* exit_code) {
  std::vector<double> seconds;
  for (int r = 0; r < reps; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    const Status s = call();
    seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    if (!s.ok()) {
      *exit_code = report_failure(s);
      return false;
    }
  }
  std::sort(seconds.begin(), seconds.end());
  const double median = seconds[seconds.size() / 2];
  const double ops =
      2.0 * static_cast<double>(m) * static_cast<double>(n) * static_cast<double>(k);
  std::printf("time: median %.6f s of %d (min %.6f, max %.6f)\n", median, reps, seconds.front(),
              seconds.back());
  std::printf("%s: %.2f\n", unit, median > 0 ? ops / median / 1e9 : 0.0);
  *exit_code = kExitOk;
  return true;
}

}  // namespace tessera::cli
