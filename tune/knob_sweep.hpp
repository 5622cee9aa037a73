// One sweep of threshold knobs against one workload: each knob's
// challengers in a fixed order, each timed side by side with the setting it
// would replace (paired_rounds.hpp) on contexts of `threads` participants;
// a winner becomes the incumbent for the challengers after it, and what won
// is timed once more against the defaults before it is kept. The width
// knobs (width_sweep.hpp) and the gates (gate_sweep.hpp) are sweeps of this
// kind with their own workloads.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "tessera/tessera.hpp"

namespace tessera::tune {

struct KnobTrial {
  const char* variable;                   // "TESSERA_PARALLEL_THRESHOLD"
  void (*set)(Knobs&, std::uint64_t);     // writes the challenger's value
  std::vector<std::uint64_t> candidates;  // in the order they are tried
};

// One round's work on `context` (true: every call succeeded).
using Workload = std::function<std::function<bool()>(const Context& context)>;

// A round of row-major sgemms (alpha 1, beta 0): each shape repeated for
// about `seconds` of work at an assumed `gflops`, under `parallelism`. The
// operands are made once, when the workload is built (so not in a dry run,
// which passes Workload{}).
struct SgemmShape {
  std::int64_t m, n, k;
};
Workload sgemm_workload(const std::vector<SgemmShape>& shapes, double seconds, double gflops,
                        Parallelism parallelism);

struct KnobSweepOutcome {
  bool swept = false;
  Knobs chosen;  // the knobs that won (unset: the default kept)
  double confirmed_gain = 1.0;
  std::vector<std::string> notes;
};

// `what` describes the workload for the notes ("at 2 participants on
// sgemm 96^3 .. 512^3"). `budget` is what is left of the run's budget; the
// sweep stops before a challenger it could not finish, and says so.
KnobSweepOutcome sweep_knobs(const std::vector<KnobTrial>& knobs, const std::string& what,
                             int threads, const Workload& work, int rounds, double margin,
                             double* budget, bool dry_run);

// "TESSERA_X=1 TESSERA_Y=2", or "the defaults".
std::string describe_set_knobs(const Knobs& knobs);

}  // namespace tessera::tune
