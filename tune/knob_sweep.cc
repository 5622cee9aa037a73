#include "knob_sweep.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>

#include "paired_rounds.hpp"

namespace tessera::tune {
namespace {

bool make_sweep_context(int threads, const Knobs& knobs, Context* out) {
  ContextOptions options;
  options.read_environment = false;
  options.policy.num_threads = threads;
  options.knobs = knobs;
  return Context::create(options, out).ok();
}

}  // namespace

std::string describe_set_knobs(const Knobs& knobs) {
  std::string text;
  for (const std::string& line : describe_knobs(knobs)) text += (text.empty() ? "" : " ") + line;
  return text.empty() ? std::string("the defaults") : text;
}

KnobSweepOutcome sweep_knobs(const std::vector<KnobTrial>& knobs, const std::string& what,
                             int threads, const Workload& work, int rounds, double margin,
                             double* budget, bool dry_run) {
  KnobSweepOutcome outcome;
  for (const KnobTrial& k : knobs) {
    std::string listed;
    for (std::uint64_t v : k.candidates) listed += (listed.empty() ? "" : ", ") + std::to_string(v);
    outcome.notes.push_back(std::string(k.variable) + " " + what + ", challengers " + listed);
  }
  if (dry_run || knobs.empty()) return outcome;
  Context incumbent;
  if (!make_sweep_context(threads, outcome.chosen, &incumbent)) {
    outcome.notes.push_back(what + ": could not make a context");
    return outcome;
  }
  outcome.swept = true;
  bool ok = true;
  double round_seconds = time_once(work(incumbent), &ok);
  *budget -= 4 * round_seconds;
  for (const KnobTrial& k : knobs) {
    for (std::uint64_t v : k.candidates) {
      if (2.0 * (rounds + 1) * round_seconds > *budget) {
        outcome.notes.push_back(std::string(k.variable) + " " + std::to_string(v) +
                                " and what follows: not measured (the budget is spent)");
        break;
      }
      Knobs trial = outcome.chosen;
      k.set(trial, v);
      Context challenger;
      if (!make_sweep_context(threads, trial, &challenger)) continue;
      const auto start = std::chrono::steady_clock::now();
      const PairedResult r = run_paired(work(incumbent), work(challenger), rounds, margin, &ok);
      *budget -= std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      outcome.notes.push_back(std::string(k.variable) + " " + std::to_string(v) + ": " +
                              fixed(r.challenger_median * 1e3, 3) + " ms a round against " +
                              fixed(r.incumbent_median * 1e3, 3) + " (" +
                              describe_set_knobs(outcome.chosen) + "), won " +
                              std::to_string(r.challenger_wins) + " of " +
                              std::to_string(r.rounds) + " rounds" +
                              (r.challenger_better ? ": taken" : ""));
      std::printf("  %s\n", outcome.notes.back().c_str());
      std::fflush(stdout);
      if (ok && r.challenger_better) {
        outcome.chosen = trial;
        incumbent = challenger;
        round_seconds = r.challenger_median;
      }
    }
  }
  if (!describe_knobs(outcome.chosen).empty()) {
    // The winners once more against the defaults, with twice the rounds: a
    // chain of small wins that does not hold up as a whole is dropped.
    Context default_context;
    make_sweep_context(threads, Knobs{}, &default_context);
    const PairedResult r =
        run_paired(work(default_context), work(incumbent), 2 * rounds, margin, &ok);
    outcome.confirmed_gain = r.gain();
    outcome.notes.push_back(describe_set_knobs(outcome.chosen) + " against the defaults " + what +
                            ": " + fixed(r.gain(), 3) + "x (won " +
                            std::to_string(r.challenger_wins) + " of " +
                            std::to_string(r.rounds) + " rounds)");
    if (!r.challenger_better) {
      outcome.notes.back() += ": not kept (the margin did not hold on the second look)";
      outcome.chosen = Knobs{};
    }
    std::printf("  %s\n", outcome.notes.back().c_str());
  }
  return outcome;
}

Workload sgemm_workload(const std::vector<SgemmShape>& shapes, double seconds, double gflops,
                        Parallelism parallelism) {
  struct Problems {
    std::vector<SgemmShape> shapes;
    std::vector<std::vector<float>> a, b, c;
    std::vector<int> reps;
  };
  auto p = std::make_shared<Problems>();
  p->shapes = shapes;
  for (const SgemmShape& s : shapes) {
    p->a.emplace_back(static_cast<std::size_t>(s.m * s.k), 0.5f);
    p->b.emplace_back(static_cast<std::size_t>(s.k * s.n), 0.25f);
    p->c.emplace_back(static_cast<std::size_t>(s.m * s.n), 0.0f);
    const double flops = 2.0 * static_cast<double>(s.m) * s.n * s.k;
    p->reps.push_back(std::max(1, static_cast<int>(seconds * gflops * 1e9 / flops)));
  }
  return [p, parallelism](const Context& context) -> std::function<bool()> {
    return [&context, p, parallelism] {
      for (std::size_t i = 0; i < p->shapes.size(); ++i) {
        const SgemmShape& s = p->shapes[i];
        for (int r = 0; r < p->reps[i]; ++r) {
          if (!try_gemm(context, Layout::kRowMajor, Transpose::kNo, Transpose::kNo, s.m, s.n, s.k,
                        1.0f, p->a[i].data(), s.k, p->b[i].data(), s.n, 0.0f, p->c[i].data(), s.n,
                        parallelism)
                   .ok()) {
            return false;
          }
        }
      }
      return true;
    };
  };
}

}  // namespace tessera::tune
