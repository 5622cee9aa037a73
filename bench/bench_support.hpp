// Shared benchmark helpers: timing, medians with spreads, table/CSV output.
// Benchmarks report ratios measured side by side in one run, medians with
// their spread, never a single best time.
#pragma once

#include <chrono>
#include <string>
#include <vector>

namespace tessera::bench {

// Seconds of `reps` runs of f (after one warm-up run).
template <class F>
std::vector<double> time_runs(int reps, F&& f) {
  f();
  std::vector<double> seconds;
  seconds.reserve(reps);
  for (int r = 0; r < reps; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    f();
    seconds.push_back(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  return seconds;
}

struct Summary {
  double median = 0;
  double min = 0;
  double max = 0;
  // (p75 - p25) / median: the relative spread reported next to a median.
  double spread = 0;
};
Summary summarize(std::vector<double> values);

// Waits until no other thread of this process has run for `quiet_ms`
// (Linux: the threads' schedstat CPU time), at most `max_ms`; returns the
// milliseconds waited. Libraries keep their workers spinning after a call
// (OpenBLAS's for up to ~0.1 s, libgomp's and tessera's for less): on a
// machine with few cores, a library timed while another's workers still
// spin loses a core it was counting on. A fixed pause is either too short
// for one library or wasted on the others; waiting for quiet is neither.
double wait_for_quiet_threads(int quiet_ms = 5, int max_ms = 1000);

}  // namespace tessera::bench
