#include "worker_minimum_sweep.hpp"

#include <chrono>
#include <cstdio>
#include <functional>

#include "paired_rounds.hpp"
#include "tessera/tessera.hpp"

namespace tessera::tune {
namespace {

constexpr std::int64_t kSizes[] = {96, 128, 160, 192, 256, 320};
// Candidates around the documented default of 2,000,000 (design.md
// §Compute resolver), in a fixed order; the default itself is the
// incumbent, never a challenger.
constexpr std::uint64_t kCandidates[] = {1000000, 4000000, 500000, 8000000};

struct Problems {
  std::vector<std::vector<float>> a, b, c;
  std::vector<int> reps;  // calls per size per round: about 4 ms of work each
  Problems() {
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

bool make(int threads, std::optional<std::uint64_t> per_worker, Context* out) {
  ContextOptions options;
  options.read_environment = false;
  options.policy.num_threads = threads;
  if (per_worker) options.knobs.par_mnk_per_worker = *per_worker;
  return Context::create(options, out).ok();
}

std::function<bool()> work(const Context& context, Problems& p) {
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

std::string fixed(double x, int digits) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.*f", digits, x);
  return buffer;
}

}  // namespace

WorkerMinimumOutcome sweep_worker_minimum(int threads, int rounds, double margin,
                                          double* budget, bool dry_run) {
  WorkerMinimumOutcome outcome;
  if (threads < 2) {
    outcome.notes.push_back(
        "TESSERA_PAR_MNK_PER_WORKER: one participant, so no worker count to choose: not swept");
    return outcome;
  }
  std::string listed;
  for (std::uint64_t v : kCandidates) listed += (listed.empty() ? "" : ", ") + std::to_string(v);
  outcome.notes.push_back("TESSERA_PAR_MNK_PER_WORKER at " + std::to_string(threads) +
                          " participants on sgemm 96^3 .. 320^3 (automatic width), challengers " +
                          listed + " against the default");
  if (dry_run) return outcome;
  Problems problems;
  Context incumbent;
  if (!make(threads, std::nullopt, &incumbent)) {
    outcome.notes.push_back("TESSERA_PAR_MNK_PER_WORKER: could not make a context");
    return outcome;
  }
  outcome.swept = true;
  bool ok = true;
  const double round_seconds = time_once(work(incumbent, problems), &ok);
  *budget -= 4 * round_seconds;
  double best_seconds = round_seconds;
  for (std::uint64_t v : kCandidates) {
    if (2.0 * (rounds + 1) * best_seconds > *budget) {
      outcome.notes.push_back("TESSERA_PAR_MNK_PER_WORKER " + std::to_string(v) +
                              " and what follows: not measured (the budget is spent)");
      break;
    }
    Context challenger;
    if (!make(threads, v, &challenger)) continue;
    const auto start = std::chrono::steady_clock::now();
    const PairedResult r =
        run_paired(work(incumbent, problems), work(challenger, problems), rounds, margin, &ok);
    *budget -= std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const std::string against =
        outcome.chosen ? std::to_string(*outcome.chosen) : std::string("the default");
    outcome.notes.push_back("TESSERA_PAR_MNK_PER_WORKER " + std::to_string(v) + ": " +
                            fixed(r.challenger_median * 1e3, 2) + " ms a round against " +
                            fixed(r.incumbent_median * 1e3, 2) + " (" + against + "), won " +
                            std::to_string(r.challenger_wins) + " of " +
                            std::to_string(r.rounds) + (r.challenger_better ? ": taken" : ""));
    std::printf("  %s\n", outcome.notes.back().c_str());
    std::fflush(stdout);
    if (ok && r.challenger_better) {
      outcome.chosen = v;
      incumbent = challenger;
      best_seconds = r.challenger_median;
    }
  }
  if (outcome.chosen) {
    Context default_context;
    make(threads, std::nullopt, &default_context);
    const PairedResult r = run_paired(work(default_context, problems), work(incumbent, problems),
                                      2 * rounds, margin, &ok);
    outcome.confirmed_gain = r.gain();
    outcome.notes.push_back("TESSERA_PAR_MNK_PER_WORKER " + std::to_string(*outcome.chosen) +
                            " against the default: " + fixed(r.gain(), 3) + "x (won " +
                            std::to_string(r.challenger_wins) + " of " + std::to_string(r.rounds) +
                            " rounds)");
    if (!r.challenger_better) {
      outcome.notes.back() += ": not kept (the margin did not hold on the second look)";
      outcome.chosen.reset();
    }
    std::printf("  %s\n", outcome.notes.back().c_str());
  }
  return outcome;
}

}  // namespace tessera::tune
