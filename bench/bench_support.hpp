// Shared benchmark helpers: timing, medians with spreads, table/CSV output.
// Benchmarks report ratios measured side by side in one run, medians with
// their spread, never a single best time.
#pragma once

#include <chrono>
#include <functional>
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

// "1,2,4": counts in 1..1024 (thread counts); empty when malformed.
std::vector<int> parse_count_list(const char* text);

// One library's runner, as the side-by-side benches alternate them: false
// when the library reported an error.
struct Library {
  std::string name;
  std::function<bool()> run;
};

// Rates (work / second / 1e9) of every library over `rounds` rounds; in
// each round every library runs `per_round` timings of `inner` calls after
// the other libraries' threads went quiet (wait_for_quiet_threads) and a
// warm-up call (pools, pages, caches). The first library of a round rotates
// and odd rounds run in reverse, so none always follows the same one. A
// library's figure is the summary of its round medians, so a noisy
// neighbour hits every side. A library that fails ends the process with a
// message naming `bench` and the library: a peer that failed is no figure.
std::vector<Summary> alternate(const std::vector<Library>& libs, double work, int inner,
                               int rounds, int per_round, const char* bench);

}  // namespace tessera::bench
