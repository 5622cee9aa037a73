#include "width_sweep.hpp"

#include <chrono>
#include <cstdio>
#include <functional>

#include "paired_rounds.hpp"

namespace tessera::tune {
namespace {

constexpr std::int64_t kSizes[] = {96, 128, 192, 256, 320, 384, 448, 512};

// One knob and its challengers, in a fixed order around its documented
// default (design.md §Compute resolver: full width from 110e6 on x86-64,
// 14e6 on aarch64; 2,000,000 per worker). A challenger equal to the
// default only ties.
struct WidthKnob {
  const char* variable;
  std::optional<std::uint64_t> Knobs::*field;
  std::vector<std::uint64_t> candidates;
};

const WidthKnob kKnobs[] = {
    {"TESSERA_FULL_WIDTH_MNK", &Knobs::full_width_mnk,
     {55000000, 28000000, 14000000, 220000000}},
    {"TESSERA_PAR_MNK_PER_WORKER", &Knobs::par_mnk_per_worker,
     {1000000, 4000000, 500000, 8000000}},
};

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

bool make_width_context(int threads, const Knobs& knobs, Context* out) {
  ContextOptions options;
  options.read_environment = false;
  options.policy.num_threads = threads;
  options.knobs = knobs;
  return Context::create(options, out).ok();
}

std::function<bool()> width_work(const Context& context, WidthProblems& p) {
  return [&context, &p] {
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
}

std::string describe_width(const Knobs& knobs) {
  std::string text;
  for (const std::string& line : describe_knobs(knobs)) text += (text.empty() ? "" : " ") + line;
  return text.empty() ? std::string("the defaults") : text;
}

}  // namespace

WidthOutcome sweep_width_knobs(int threads, int rounds, double margin, double* budget,
                               bool dry_run) {
  WidthOutcome outcome;
  if (threads < 2) {
    outcome.notes.push_back("the width knobs: one participant, no width to choose: not swept");
    return outcome;
  }
  for (const WidthKnob& k : kKnobs) {
    std::string listed;
    for (std::uint64_t v : k.candidates) listed += (listed.empty() ? "" : ", ") + std::to_string(v);
    outcome.notes.push_back(std::string(k.variable) + " at " + std::to_string(threads) +
                            " participants on sgemm 96^3 .. 512^3 (automatic width), "
                            "challengers " + listed);
  }
  if (dry_run) return outcome;
  WidthProblems problems;
  Context incumbent;
  if (!make_width_context(threads, outcome.chosen, &incumbent)) {
    outcome.notes.push_back("the width knobs: could not make a context");
    return outcome;
  }
  outcome.swept = true;
  bool ok = true;
  double round_seconds = time_once(width_work(incumbent, problems), &ok);
  *budget -= 4 * round_seconds;
  for (const WidthKnob& k : kKnobs) {
    for (std::uint64_t v : k.candidates) {
      if (2.0 * (rounds + 1) * round_seconds > *budget) {
        outcome.notes.push_back(std::string(k.variable) + " " + std::to_string(v) +
                                " and what follows: not measured (the budget is spent)");
        break;
      }
      Knobs trial = outcome.chosen;
      trial.*(k.field) = v;
      Context challenger;
      if (!make_width_context(threads, trial, &challenger)) continue;
      const auto start = std::chrono::steady_clock::now();
      const PairedResult r =
          run_paired(width_work(incumbent, problems), width_work(challenger, problems), rounds,
                     margin, &ok);
      *budget -= std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      outcome.notes.push_back(std::string(k.variable) + " " + std::to_string(v) + ": " +
                              fixed(r.challenger_median * 1e3, 2) + " ms a round against " +
                              fixed(r.incumbent_median * 1e3, 2) + " (" +
                              describe_width(outcome.chosen) + "), won " +
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
    Context default_context;
    make_width_context(threads, Knobs{}, &default_context);
    const PairedResult r = run_paired(width_work(default_context, problems),
                                      width_work(incumbent, problems), 2 * rounds, margin, &ok);
    outcome.confirmed_gain = r.gain();
    outcome.notes.push_back(describe_width(outcome.chosen) + " against the defaults: " +
                            fixed(r.gain(), 3) + "x (won " + std::to_string(r.challenger_wins) +
                            " of " + std::to_string(r.rounds) + " rounds)");
    if (!r.challenger_better) {
      outcome.notes.back() += ": not kept (the margin did not hold on the second look)";
      outcome.chosen = Knobs{};
    }
    std::printf("  %s\n", outcome.notes.back().c_str());
  }
  return outcome;
}

}  // namespace tessera::tune
