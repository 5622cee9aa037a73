#include "width_sweep.hpp"


#include "knob_sweep.hpp"

namespace tessera::tune {
namespace {

constexpr std::int64_t kSizes[] = {96, 128, 192, 256, 320, 384, 448, 512};

// Each knob's challengers, in a fixed order around its documented default
// (design.md §Compute resolver: full width from 110e6 on x86-64, 14e6 on
// aarch64; 2,000,000 per worker; pool classes 2 on x86-64, 1 on aarch64).
// A challenger equal to the default only ties.
std::vector<KnobTrial> width_trials(int threads) {
  std::vector<KnobTrial> trials = {
      {"TESSERA_FULL_WIDTH_MNK", [](Knobs& k, std::uint64_t v) { k.full_width_mnk = v; },
       {55000000, 28000000, 14000000, 220000000}},
      {"TESSERA_PAR_MNK_PER_WORKER", [](Knobs& k, std::uint64_t v) { k.par_mnk_per_worker = v; },
       {1000000, 4000000, 500000, 8000000}},
  };
  // Pool classes are the tiers below full width: a pool of 3 or fewer has
  // none to choose between.
  if (threads >= 4) {
    trials.push_back({"TESSERA_POOL_CLASSES",
                      [](Knobs& k, std::uint64_t v) {
                        k.pool_classes = static_cast<std::uint32_t>(v);
                      },
                      {1, 3, 0}});
  }
  return trials;
}

}  // namespace

WidthOutcome sweep_width_knobs(int threads, int rounds, double margin, double* budget,
                               bool dry_run) {
  WidthOutcome outcome;
  if (threads < 2) {
    outcome.notes.push_back("the width knobs: one participant, no width to choose: not swept");
    return outcome;
  }
  // Square sgemms of kSizes at the automatic width, about 4 ms of each a
  // round at 50 GFLOP/s; the operands are made only for a real run.
  std::vector<SgemmShape> shapes;
  for (std::int64_t n : kSizes) shapes.push_back({n, n, n});
  const Workload work = dry_run ? Workload{} : sgemm_workload(shapes, 4e-3, 50, Parallelism());
  const KnobSweepOutcome o = sweep_knobs(
      width_trials(threads),
      "at " + std::to_string(threads) + " participants on sgemm 96^3 .. 512^3 (automatic width)",
      threads, work, rounds, margin, budget, dry_run);
  if (threads < 4) {
    outcome.notes.push_back("TESSERA_POOL_CLASSES: " + std::to_string(threads) +
                            " participants have no tier between one and full width: not swept");
  }
  outcome.swept = o.swept;
  outcome.chosen = o.chosen;
  outcome.confirmed_gain = o.confirmed_gain;
  outcome.notes.insert(outcome.notes.end(), o.notes.begin(), o.notes.end());
  return outcome;
}

}  // namespace tessera::tune
