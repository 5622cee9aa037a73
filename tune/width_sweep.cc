#include "width_sweep.hpp"

#include <algorithm>
#include <memory>

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

struct WidthProblems {
  std::vector<std::vector<float>> a, b, c;
  std::vector<int> reps;  // calls per size per round: about 4 ms of work each
  WidthProblems() {
    for (std::int64_t n : kSizes) {
      const auto count = static_cast<std::size_t>(n * n);
      a.emplace_back(count, 0.5f);
      b.emplace_back(count, 0.25f);
      c.emplace_back(count, 0.0f);
      const double flops = 2.0 * static_cast<double>(n) * n * n;
      reps.push_back(std::max(1, static_cast<int>(4e-3 * 50e9 / flops)));
    }
  }
};

}  // namespace

WidthOutcome sweep_width_knobs(int threads, int rounds, double margin, double* budget,
                               bool dry_run) {
  WidthOutcome outcome;
  if (threads < 2) {
    outcome.notes.push_back("the width knobs: one participant, no width to choose: not swept");
    return outcome;
  }
  // The operands are made only for a real run.
  auto problems = dry_run ? nullptr : std::make_shared<WidthProblems>();
  Workload work = [problems](const Context& context) -> std::function<bool()> {
    return [&context, problems] {
      WidthProblems& p = *problems;
      for (std::size_t i = 0; i < std::size(kSizes); ++i) {
        const std::int64_t n = kSizes[i];
        for (int r = 0; r < p.reps[i]; ++r) {
          if (!try_gemm(context, Layout::kRowMajor, Transpose::kNo, Transpose::kNo, n, n, n, 1.0f,
                        p.a[i].data(), n, p.b[i].data(), n, 0.0f, p.c[i].data(), n)
                   .ok()) {
            return false;
          }
        }
      }
      return true;
    };
  };
  const KnobSweepOutcome o = sweep_knobs(
      width_trials(threads),
      "at " + std::to_string(threads) + " participants on sgemm 96^3 .. 512^3 (automatic width)",
      threads, dry_run ? Workload{} : work, rounds, margin, budget, dry_run);
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
