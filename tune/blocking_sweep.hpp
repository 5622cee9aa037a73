// The GEMM blocking sweep: for one element type on the context's level, at
// one thread, the cache model's kc, mc and nc against their neighbours on
// square GEMMs, one knob at a time (kc, then mc at the best kc, then nc), in
// a fixed order, each challenger timed side by side with the setting it
// would replace (paired_rounds.hpp).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tessera/tessera.hpp"

namespace tessera::tune {

struct SweepPlan {
  std::vector<std::int64_t> sizes;  // square GEMMs timed together each round
  int rounds = 7;
  double margin = 0.02;   // a challenger must be this much faster (median)
  bool wide = false;      // more candidates (the 10-minute budget)
};

struct BlockingOutcome {
  bool swept = false;            // false: the level or the shapes have no blocking to tune
  GemmBlockingChoice model;      // the cache model's, on this machine
  GemmBlockingChoice chosen;     // == model when no challenger won
  double confirmed_gain = 1.0;   // chosen against model, measured again at the end
  std::vector<std::string> notes;  // what was measured, a line each
};

// Sweeps `dtype` (f32 or f64). `budget_seconds` is what is left of the
// whole run's budget; the sweep stops (and says so) before a challenger it
// could not finish. With `dry_run` it lists the candidates and measures
// nothing.
BlockingOutcome sweep_blocking(Dtype dtype, const SweepPlan& plan, double* budget_seconds,
                               bool dry_run);

}  // namespace tessera::tune
