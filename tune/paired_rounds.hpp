// Two settings timed side by side: rounds alternate them (which runs first
// alternates too), so a machine's slow spell falls on both. A challenger
// replaces the incumbent only when it is faster by `margin` in the median
// AND in at least four of every five rounds, as a calibration keeps a
// default unless a rival wins clearly and repeatedly.
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace tessera::tune {

struct PairedResult {
  double incumbent_median = 0;   // seconds per round
  double challenger_median = 0;
  int challenger_wins = 0;       // rounds where the challenger was faster
  int rounds = 0;
  // challenger_median faster by the margin and winning >= 80% of rounds.
  bool challenger_better = false;
  double gain() const { return incumbent_median / challenger_median; }  // > 1: faster
};

// Runs `incumbent` and `challenger` (each one timed unit of work, returning
// false on failure) `rounds` times each, alternating; nullopt-like failure
// is reported by ok = false.
PairedResult run_paired(const std::function<bool()>& incumbent,
                        const std::function<bool()>& challenger, int rounds, double margin,
                        bool* ok);

// x with `digits` decimals, for the tuner's lines.
std::string fixed(double x, int digits);

// Seconds one call of `work` takes (the best of three, after one warm-up).
double time_once(const std::function<bool()>& work, bool* ok);

}  // namespace tessera::tune
