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

// Keeps the machine's environment out of a peer's way for this process only
// (e.g. OPENBLAS_CORETYPE); returns what was removed, for the report.
std::vector<std::string> unset_variables(const std::vector<std::string>& names);

// OpenBLAS reads OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE when it loads, before
// main() could unset them: if either is set, re-executes this program
// without them (once). `bench` names the program in a failure message.
void reexec_without_openblas_overrides(char** argv, const char* bench);
// What the re-exec removed ("OPENBLAS_CORETYPE ..."), or null.
const char* openblas_overrides_removed();

}  // namespace tessera::bench
