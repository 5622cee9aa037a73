#include "blocking_sweep.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <memory>
#include <optional>

#include "paired_rounds.hpp"

namespace tessera::tune {
namespace {

std::string text(const GemmBlockingChoice& b) {
  return "kc " + std::to_string(b.kc) + " mc " + std::to_string(b.mc) + " nc " +
         std::to_string(b.nc);
}

// Square row-major operands of each size, filled once.
template <class T>
struct Operands {
  std::vector<std::int64_t> sizes;
  std::vector<std::vector<T>> a, b, c;
  explicit Operands(const std::vector<std::int64_t>& n) : sizes(n) {
    for (std::int64_t s : n) {
      const auto count = static_cast<std::size_t>(s * s);
      a.emplace_back(count);
      b.emplace_back(count);
      c.emplace_back(count);
      for (std::size_t i = 0; i < count; ++i) {
        a.back()[i] = static_cast<T>(static_cast<double>((i * 7919) % 1000) / 1000.0 - 0.5);
        b.back()[i] = static_cast<T>(static_cast<double>((i * 104729) % 1000) / 1000.0 - 0.5);
      }
    }
  }
};

// A serial context on the best level (the environment is not read: a
// TESSERA_PROFILE there must not be the baseline) with `blocking` as its
// profile's (nullopt: the cache model's).
bool make_context(Dtype dtype, const std::optional<GemmBlockingChoice>& blocking, Context* out) {
  ContextOptions options;
  options.read_environment = false;
  options.policy.num_threads = 1;
  if (blocking) {
    Context plain;
    if (!Context::create(options, &plain).ok()) return false;
    Profile profile;
    profile.measured_on = this_host_profile_key(plain.isa());
    (dtype == Dtype::kF32 ? profile.gemm_f32 : profile.gemm_f64) = blocking;
    options.profile = profile;
  }
  return Context::create(options, out).ok();
}

template <class T>
std::function<bool()> work(const Context& context, Operands<T>& o) {
  return [&context, &o] {
    for (std::size_t i = 0; i < o.sizes.size(); ++i) {
      const std::int64_t n = o.sizes[i];
      if (!try_gemm(context, Layout::kRowMajor, Transpose::kNo, Transpose::kNo, n, n, n, T(1),
                    o.a[i].data(), n, o.b[i].data(), n, T(0), o.c[i].data(), n,
                    Parallelism::serial())
               .ok()) {
        return false;
      }
    }
    return true;
  };
}

// Multiples of `step` near model x factor, in [low, high], without the
// model itself or repeats, in the order of `factors`.
std::vector<std::int64_t> neighbours(std::int64_t model, std::int64_t step,
                                     const std::vector<double>& factors, std::int64_t low,
                                     std::int64_t high) {
  std::vector<std::int64_t> out;
  for (double f : factors) {
    std::int64_t v = static_cast<std::int64_t>(static_cast<double>(model) * f) / step * step;
    v = std::clamp(v, low, high);
    if (v != model && std::find(out.begin(), out.end(), v) == out.end()) out.push_back(v);
  }
  return out;
}

template <class T>
BlockingOutcome sweep(Dtype dtype, const SweepPlan& plan, double* budget, bool dry_run) {
  BlockingOutcome outcome;
  const char* name = dtype == Dtype::kF32 ? "sgemm" : "dgemm";
  Context probe;
  if (!make_context(dtype, std::nullopt, &probe)) return outcome;
  GemmPlan gemm_plan;
  std::vector<std::int64_t> sizes;
  for (std::int64_t n : plan.sizes) {
    if (!try_plan_gemm(probe, dtype, Layout::kRowMajor, n, n, n, Parallelism::serial(), &gemm_plan)
             .ok()) {
      continue;
    }
    if (gemm_plan.direct) {
      outcome.notes.push_back(std::string(name) + " " + std::to_string(n) +
                              ": the direct path runs it (no blocking): not timed");
      continue;
    }
    if (gemm_plan.cache_facts.rfind("not used (fixed", 0) == 0) {
      outcome.notes.push_back(std::string(name) + ": this level blocks by a fixed portable "
                              "table (the same bits on every target): nothing to tune");
      return outcome;
    }
    sizes.push_back(n);
  }
  if (sizes.empty()) return outcome;
  outcome.swept = true;
  outcome.model = {gemm_plan.kc, gemm_plan.mc, gemm_plan.nc};
  const std::int64_t mr = gemm_plan.mr, nr = gemm_plan.nr;
  std::string shapes;
  for (std::int64_t n : sizes) shapes += (shapes.empty() ? "" : " + ") + std::to_string(n) + "^3";
  outcome.notes.push_back(std::string(name) + ": the model's " + text(outcome.model) + " (tile " +
                          std::to_string(mr) + " x " + std::to_string(nr) + "), timed on " +
                          shapes + " at one thread, " + std::to_string(plan.rounds) +
                          " paired rounds a challenger, margin " +
                          fixed(plan.margin * 100, 0) + "%");

  const std::vector<double> kc_factors =
      plan.wide ? std::vector<double>{0.75, 1.25, 0.5, 1.5, 2.0, 0.375}
                : std::vector<double>{0.75, 1.25, 0.5, 1.5, 2.0};
  const std::vector<double> mc_factors =
      plan.wide ? std::vector<double>{0.75, 1.5, 0.5, 2.0, 3.0}
                : std::vector<double>{0.75, 1.5, 0.5, 2.0};
  const std::vector<double> nc_factors =
      plan.wide ? std::vector<double>{0.5, 2.0, 0.25} : std::vector<double>{0.5, 2.0};

  std::unique_ptr<Operands<T>> operands;
  if (!dry_run) operands = std::make_unique<Operands<T>>(sizes);
  GemmBlockingChoice best = outcome.model;
  Context best_context;
  if (!dry_run && !make_context(dtype, std::nullopt, &best_context)) {
    outcome.notes.push_back(std::string(name) + ": could not make a context");
    outcome.swept = false;
    return outcome;
  }
  double round_seconds = 0;  // the incumbent's, for the budget
  for (int stage = 0; stage < 3; ++stage) {
    const char* knob = stage == 0 ? "kc" : stage == 1 ? "mc" : "nc";
    std::vector<std::int64_t> values =
        stage == 0   ? neighbours(best.kc, 8, kc_factors, 64, 2048)
        : stage == 1 ? neighbours(best.mc, mr, mc_factors, mr, 4096 / mr * mr)
                     : neighbours(best.nc, nr, nc_factors, nr, 16384 / nr * nr);
    std::string listed;
    for (std::int64_t v : values) listed += (listed.empty() ? "" : ", ") + std::to_string(v);
    if (dry_run) {
      outcome.notes.push_back(std::string(name) + " " + knob + " candidates: " + listed);
      continue;
    }
    for (std::int64_t v : values) {
      GemmBlockingChoice candidate = best;
      (stage == 0 ? candidate.kc : stage == 1 ? candidate.mc : candidate.nc) = v;
      if (round_seconds == 0) {
        bool ok = true;
        round_seconds = time_once(work(best_context, *operands), &ok);
        *budget -= 4 * round_seconds;
      }
      const double cost = 2.0 * (plan.rounds + 1) * round_seconds;
      if (cost > *budget) {
        outcome.notes.push_back(std::string(name) + " " + knob + " " + std::to_string(v) +
                                " and what follows: not measured (the budget is spent)");
        stage = 3;
        break;
      }
      Context challenger_context;
      if (!make_context(dtype, candidate, &challenger_context)) continue;
      bool ok = true;
      const auto start = std::chrono::steady_clock::now();
      const PairedResult r = run_paired(work(best_context, *operands),
                                        work(challenger_context, *operands), plan.rounds,
                                        plan.margin, &ok);
      *budget -= std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      if (!ok) {
        outcome.notes.push_back(std::string(name) + " " + text(candidate) + ": a call failed");
        continue;
      }
      const double flops = [&] {
        double f = 0;
        for (std::int64_t n : sizes) f += 2.0 * static_cast<double>(n) * n * n;
        return f;
      }();
      outcome.notes.push_back(std::string(name) + " " + knob + " " + std::to_string(v) + ": " +
                              fixed(flops / r.challenger_median / 1e9, 1) + " GFLOP/s against " +
                              fixed(flops / r.incumbent_median / 1e9, 1) + " (" + text(best) +
                              "), won " + std::to_string(r.challenger_wins) + " of " +
                              std::to_string(r.rounds) + " rounds" +
                              (r.challenger_better ? ": taken" : ""));
      std::printf("  %s\n", outcome.notes.back().c_str());
      std::fflush(stdout);
      if (r.challenger_better) {
        best = candidate;
        best_context = challenger_context;
        round_seconds = r.challenger_median;
      }
    }
  }
  outcome.chosen = best;
  if (!dry_run && best != outcome.model) {
    // The winner against the model once more, twice the rounds: the gain
    // the profile reports is this one, not the sweep's chain of steps.
    Context model_context;
    bool ok = make_context(dtype, std::nullopt, &model_context);
    const PairedResult r = run_paired(work(model_context, *operands), work(best_context, *operands),
                                      2 * plan.rounds, plan.margin, &ok);
    outcome.confirmed_gain = r.gain();
    outcome.notes.push_back(std::string(name) + " " + text(best) + " against the model's " +
                            text(outcome.model) + ": " + fixed(r.gain(), 3) + "x (won " +
                            std::to_string(r.challenger_wins) + " of " + std::to_string(r.rounds) +
                            " rounds)");
    if (!r.challenger_better) {
      outcome.notes.back() += ": not kept (the margin did not hold on the second look)";
      outcome.chosen = outcome.model;
    }
    std::printf("  %s\n", outcome.notes.back().c_str());
  }
  return outcome;
}

}  // namespace

BlockingOutcome sweep_blocking(Dtype dtype, const SweepPlan& plan, double* budget_seconds,
                               bool dry_run) {
  return dtype == Dtype::kF32 ? sweep<float>(dtype, plan, budget_seconds, dry_run)
                              : sweep<double>(dtype, plan, budget_seconds, dry_run);
}

}  // namespace tessera::tune
