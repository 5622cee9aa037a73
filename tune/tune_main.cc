// tessera-tune: measures the knobs that decide GEMM speed on this machine
// and writes a profile that contexts made here apply (TESSERA_PROFILE).
//
//   tessera-tune [--budget 30s|3m|10m|<N>s|<N>m] [--dtypes f32,f64]
//                [--threads N] [--margin PERCENT] [--out PATH] [--dry-run]
//
// What it sweeps: the GEMM cache blocking (kc, mc, nc) of f32 and f64 on
// the context's level at one thread (blocking_sweep.hpp); the automatic
// path's width knobs (the full-width threshold, the per-worker minimum and,
// with 4 or more participants, the pool classes) at N participants
// (width_sweep.hpp); and the gates: the direct GEMM path's limit at one
// thread, GEMM's serial gate and the bandwidth resolver's floor (and tier
// step) at N (gate_sweep.hpp). Not swept: TESSERA_GEMV_THREAD_CAP (a
// fixed width, for deployments that want one), the oversampling knobs (how
// finely split work is cut, not whether it is split), and the integer and
// half-precision kernels (they run on the f32 GEMM's blocking and the same
// resolvers; they have no knobs of their own).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "blocking_sweep.hpp"
#include "gate_sweep.hpp"
#include "width_sweep.hpp"
#include "tessera/tessera.hpp"

namespace {

constexpr int kExitUsage = 2;

int usage_error(const std::string& message) {
  std::fprintf(stderr,
               "tessera-tune: %s\nusage: tessera-tune [--budget 30s|3m|10m] [--dtypes f32,f64] "
               "[--threads N] [--margin PERCENT] [--out PATH] [--dry-run]\n",
               message.c_str());
  return kExitUsage;
}

// "30s", "3m", "90s": seconds, or -1.
double parse_budget(const std::string& text) {
  if (text.size() < 2) return -1;
  const char unit = text.back();
  const std::string digits = text.substr(0, text.size() - 1);
  if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos ||
      digits.size() > 5) {
    return -1;
  }
  const double value = std::atof(digits.c_str());
  if (unit == 's') return value;
  if (unit == 'm') return 60 * value;
  return -1;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace tessera;
  double budget = 180;
  std::string budget_text = "3m";
  bool dry_run = false;
  bool do_f32 = true, do_f64 = true;
  double margin = 0.02;
  std::string out = "tessera-profile.json";
  int threads = 0;  // 0: every logical CPU the process sees
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&](const char* option) -> const char* {
      if (i + 1 >= argc) return nullptr;
      (void)option;
      return argv[++i];
    };
    if (a == "--dry-run") {
      dry_run = true;
    } else if (a == "--budget") {
      const char* v = value("--budget");
      if (v == nullptr) return usage_error("--budget needs a value");
      budget = parse_budget(v);
      if (budget < 10 || budget > 3600) {
        return usage_error(std::string("--budget '") + v +
                           "' is not a time from 10s to 60m (e.g. 30s, 3m, 10m)");
      }
      budget_text = v;
    } else if (a == "--dtypes") {
      const char* v = value("--dtypes");
      if (v == nullptr) return usage_error("--dtypes needs a value");
      const std::string d = v;
      do_f32 = d == "f32" || d == "f32,f64" || d == "f64,f32";
      do_f64 = d == "f64" || d == "f32,f64" || d == "f64,f32";
      if (!do_f32 && !do_f64) return usage_error("--dtypes '" + d + "' is not f32, f64 or f32,f64");
    } else if (a == "--threads") {
      const char* v = value("--threads");
      if (v == nullptr) return usage_error("--threads needs a value");
      const std::string t = v;
      if (t.empty() || t.size() > 4 || t.find_first_not_of("0123456789") != std::string::npos ||
          std::atoi(v) < 1) {
        return usage_error("--threads '" + t + "' is not a count from 1 to 9999");
      }
      threads = std::atoi(v);
    } else if (a == "--margin") {
      const char* v = value("--margin");
      if (v == nullptr) return usage_error("--margin needs a value");
      char* end = nullptr;
      const double percent = std::strtod(v, &end);
      if (end == v || *end != '\0' || !(percent >= 0.5 && percent <= 20)) {
        return usage_error(std::string("--margin '") + v + "' is not a percentage from 0.5 to 20");
      }
      margin = percent / 100;
    } else if (a == "--out") {
      const char* v = value("--out");
      if (v == nullptr || *v == '\0') return usage_error("--out needs a path");
      out = v;
    } else {
      return usage_error("unknown option '" + a + "'");
    }
  }

  // The level and knobs the tuner measures are the defaults: the
  // environment (TESSERA_ISA, a TESSERA_PROFILE) is not read.
  ContextOptions defaults;
  defaults.read_environment = false;
  Context context;
  if (const Status made = Context::create(defaults, &context); !made.ok()) {
    std::fprintf(stderr, "tessera-tune: %s\n", made.to_string().c_str());
    return 1;
  }
  const ProfileKey key = this_host_profile_key(context.isa());
  if (threads == 0) threads = key.logical_cpus > 0 ? key.logical_cpus : 1;
  std::printf("tessera-tune on %s family %d model %d (%s), level %s, %d logical CPUs, L1d %llu, "
              "L2 %llu, L3 %llu bytes; budget %s (%.0f s), %d threads for the width knobs%s\n",
              key.cpu_vendor.c_str(), key.cpu_family, key.cpu_model,
              platform::cpu_features().brand.c_str(), key.isa.c_str(), key.logical_cpus,
              static_cast<unsigned long long>(key.l1d_bytes),
              static_cast<unsigned long long>(key.l2_bytes),
              static_cast<unsigned long long>(key.l3_bytes), budget_text.c_str(), budget,
              threads, dry_run ? "; dry run: nothing is measured or written" : "");

  // The budget picks the shapes and rounds: 30 s one size and 5 rounds a
  // challenger; 3 min two sizes and 7; 10 min and more two sizes, 11
  // rounds and more candidates.
  tune::SweepPlan plan;
  plan.margin = margin;
  if (budget < 120) {
    plan.sizes = {1024};
    plan.rounds = 5;
  } else if (budget < 600) {
    plan.sizes = {1024, 2048};
    plan.rounds = 7;
  } else {
    plan.sizes = {1024, 2048};
    plan.rounds = 11;
    plan.wide = true;
  }
  Profile profile;
  profile.measured_on = key;
  std::vector<std::string> changes;
  // Shares of the budget: the f32 blocking 27%, the f64 blocking (whose
  // rounds take twice as long) 40%, the width knobs 21%, the gates the
  // rest; what one part leaves unspent goes to the next.
  double left = budget;
  for (Dtype dtype : {Dtype::kF32, Dtype::kF64}) {
    if ((dtype == Dtype::kF32 && !do_f32) || (dtype == Dtype::kF64 && !do_f64)) continue;
    double share = dtype == Dtype::kF32 ? (do_f64 ? 0.27 : 0.5) * left : 0.55 * left;
    const double before = share;
    const tune::BlockingOutcome o = tune::sweep_blocking(dtype, plan, &share, dry_run);
    left -= before - share;
    for (const std::string& note : o.notes) profile.notes.push_back(note);
    if (dry_run) {
      for (const std::string& note : o.notes) std::printf("  %s\n", note.c_str());
    }
    const char* name = dtype == Dtype::kF32 ? "sgemm" : "dgemm";
    if (!o.swept) continue;
    if (o.chosen == o.model) {
      if (!dry_run) {
        changes.push_back(std::string(name) + ": the model's kc " + std::to_string(o.model.kc) +
                          " mc " + std::to_string(o.model.mc) + " nc " +
                          std::to_string(o.model.nc) + " kept (no challenger won by the margin)");
      }
      continue;
    }
    (dtype == Dtype::kF32 ? profile.gemm_f32 : profile.gemm_f64) = o.chosen;
    if (o.chosen.kc != o.model.kc) profile.changes_bits = true;
    char line[256];
    std::snprintf(line, sizeof line,
                  "%s: kc %lld mc %lld nc %lld instead of the model's kc %lld mc %lld nc %lld, "
                  "%.3fx on the second look",
                  name, static_cast<long long>(o.chosen.kc), static_cast<long long>(o.chosen.mc),
                  static_cast<long long>(o.chosen.nc), static_cast<long long>(o.model.kc),
                  static_cast<long long>(o.model.mc), static_cast<long long>(o.model.nc),
                  o.confirmed_gain);
    changes.push_back(line);
  }
  {
    double share = 0.65 * left;
    const double before = share;
    const tune::WidthOutcome o = tune::sweep_width_knobs(threads, plan.rounds, margin, &share,
                                                         dry_run);
    left -= before - share;
    for (const std::string& note : o.notes) profile.notes.push_back(note);
    if (dry_run) {
      for (const std::string& note : o.notes) std::printf("  %s\n", note.c_str());
    }
    const std::vector<std::string> set = describe_knobs(o.chosen);
    if (!set.empty()) {
      profile.knobs.full_width_mnk = o.chosen.full_width_mnk;
      profile.knobs.par_mnk_per_worker = o.chosen.par_mnk_per_worker;
      profile.knobs.pool_classes = o.chosen.pool_classes;
      std::string line;
      for (const std::string& s : set) line += (line.empty() ? "" : " ") + s;
      char gain[64];
      std::snprintf(gain, sizeof gain, ", %.3fx on the second look", o.confirmed_gain);
      changes.push_back(line + " instead of the defaults" + gain);
    } else if (o.swept) {
      changes.push_back("the width knobs: the defaults kept (no challenger won by the margin)");
    }
  }
  {
    double share = left;
    const tune::GateOutcome o = tune::sweep_gates(threads, plan.rounds, margin, &share, dry_run);
    left = share;
    for (const std::string& note : o.notes) profile.notes.push_back(note);
    if (dry_run) {
      for (const std::string& note : o.notes) std::printf("  %s\n", note.c_str());
    }
    profile.knobs.parallel_threshold = o.chosen.parallel_threshold;
    profile.knobs.gemv_parallel_bytes = o.chosen.gemv_parallel_bytes;
    profile.knobs.gemv_tier_step = o.chosen.gemv_tier_step;
    profile.knobs.direct_slice_bytes = o.chosen.direct_slice_bytes;
    for (const std::string& c : o.changes) changes.push_back(c);
    if (o.swept && o.changes.empty()) {
      changes.push_back("the gates: the defaults kept (no challenger won by the margin)");
    }
  }
  profile.notes.push_back(
      "not swept by this tessera-tune: TESSERA_GEMV_THREAD_CAP, the oversampling knobs, the "
      "integer and half-precision kernels (no knobs of their own)");
  if (dry_run) return 0;
  std::printf("\nchanges:\n");
  for (const std::string& c : changes) std::printf("  %s\n", c.c_str());
  if (profile.changes_bits) {
    std::printf("  the profile changes results: its kc slices GEMM sums otherwise than the "
                "defaults (the same bits for every worker count with this profile)\n");
  }
  // Written beside the target and renamed over it: a context reading the
  // path meanwhile sees the old profile or the new one, never half of one.
  const std::string json = profile_to_json(profile);
  const std::string temporary = out + ".tmp";
  std::FILE* file = std::fopen(temporary.c_str(), "wb");
  bool written = file != nullptr && std::fwrite(json.data(), 1, json.size(), file) == json.size();
  if (file != nullptr) written = std::fclose(file) == 0 && written;
  if (!written || std::rename(temporary.c_str(), out.c_str()) != 0) {
    std::remove(temporary.c_str());
    std::fprintf(stderr, "tessera-tune: cannot write '%s'\n", out.c_str());
    return 1;
  }
  std::printf("wrote %s; TESSERA_PROFILE=%s applies it to contexts made on this machine\n",
              out.c_str(), out.c_str());
  return 0;
}
