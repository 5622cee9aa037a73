#include "gate_sweep.hpp"

#include <algorithm>
#include <cstdint>
#include <memory>

#include "knob_sweep.hpp"
#include "paired_rounds.hpp"

namespace tessera::tune {
namespace {

// m, n, k from a quarter to four times the default gate 589,824.
const std::vector<SgemmShape> kGateShapes = {{32, 32, 128}, {48, 48, 128}, {48, 48, 256},
                                     {64, 64, 256}, {96, 96, 128}, {96, 96, 256}};

// Square sgemms whose depth slices (n * n * 4 bytes) run from 36 KiB to
// 400 KiB: the direct path's limit falls among them on every cache model.
constexpr std::int64_t kDirectSizes[] = {96, 128, 160, 192, 256, 320};

// Square sgemv matrices of 256 KiB to 8 MiB (floats), around one core's L2.
constexpr std::int64_t kGemvSizes[] = {256, 362, 512, 724, 1024, 1448};

struct GemvProblems {
  std::vector<std::vector<float>> a, x, y;
  std::vector<int> reps;  // about 3 ms per size per round at 20 GB/s
  GemvProblems() {
    for (std::int64_t n : kGemvSizes) {
      a.emplace_back(static_cast<std::size_t>(n * n), 0.5f);
      x.emplace_back(static_cast<std::size_t>(n), 0.25f);
      y.emplace_back(static_cast<std::size_t>(n), 0.0f);
      const double bytes = 4.0 * static_cast<double>(n) * n;
      reps.push_back(std::max(1, static_cast<int>(3e-3 * 20e9 / bytes)));
    }
  }
};

// Square sgemms of kDirectSizes on one thread, about 3 ms of each a
// round at 100 GFLOP/s.
Workload direct_path_work() {
  std::vector<SgemmShape> shapes;
  for (std::int64_t n : kDirectSizes) shapes.push_back({n, n, n});
  return sgemm_workload(shapes, 3e-3, 100, Parallelism::serial());
}

// The gate shapes at threads(threads), about 3 ms of each a round at 50
// GFLOP/s.
Workload serial_gate_work(int threads) {
  return sgemm_workload(kGateShapes, 3e-3, 50, Parallelism::threads(threads));
}

Workload gemv_floor_work() {
  auto p = std::make_shared<GemvProblems>();
  return [p](const Context& context) -> std::function<bool()> {
    return [&context, p] {
      for (std::size_t i = 0; i < std::size(kGemvSizes); ++i) {
        const std::int64_t n = kGemvSizes[i];
        for (int r = 0; r < p->reps[i]; ++r) {
          if (!try_gemv(context, Layout::kRowMajor, Transpose::kNo, n, n, 1.0f, p->a[i].data(), n,
                        p->x[i].data(), 1, 0.0f, p->y[i].data(), 1)
                   .ok()) {
            return false;
          }
        }
      }
      return true;
    };
  };
}

void take(const KnobSweepOutcome& o, GateOutcome* outcome) {
  outcome->swept = outcome->swept || o.swept;
  outcome->notes.insert(outcome->notes.end(), o.notes.begin(), o.notes.end());
  const std::vector<std::string> set = describe_knobs(o.chosen);
  if (set.empty()) return;
  if (o.chosen.parallel_threshold) outcome->chosen.parallel_threshold = o.chosen.parallel_threshold;
  if (o.chosen.gemv_parallel_bytes) {
    outcome->chosen.gemv_parallel_bytes = o.chosen.gemv_parallel_bytes;
  }
  if (o.chosen.gemv_tier_step) outcome->chosen.gemv_tier_step = o.chosen.gemv_tier_step;
  if (o.chosen.direct_slice_bytes) {
    outcome->chosen.direct_slice_bytes = o.chosen.direct_slice_bytes;
  }
  outcome->changes.push_back(describe_set_knobs(o.chosen) + " instead of the defaults, " +
                             fixed(o.confirmed_gain, 3) + "x on the second look");
}

}  // namespace

GateOutcome sweep_gates(int threads, int rounds, double margin, double* budget, bool dry_run) {
  GateOutcome outcome;
  // The direct path's limit decides calls on one thread: swept at 1.
  take(sweep_knobs({{"TESSERA_DIRECT_SLICE_BYTES",
                     [](Knobs& k, std::uint64_t v) { k.direct_slice_bytes = v; },
                     {262144, 65536, 1048576, 16384, 4194304}}},
                   "at one thread on sgemm 96^3 .. 320^3", 1,
                   dry_run ? Workload{} : direct_path_work(), rounds, margin, budget, dry_run),
       &outcome);
  if (threads < 2) {
    outcome.notes.push_back(
        "the serial gate and the bandwidth floor: one participant, every call runs on the "
        "caller: not swept");
    return outcome;
  }
  const std::string n = std::to_string(threads);
  take(sweep_knobs({{"TESSERA_PARALLEL_THRESHOLD",
                     [](Knobs& k, std::uint64_t v) { k.parallel_threshold = v; },
                     {294912, 1179648, 147456, 2359296}}},
                   "at threads(" + n + ") on sgemm 32x32x128 .. 96x96x256", threads,
                   dry_run ? Workload{} : serial_gate_work(threads), rounds, margin, budget, dry_run),
       &outcome);
  std::vector<KnobTrial> bandwidth = {
      {"TESSERA_GEMV_PARALLEL_BYTES", [](Knobs& k, std::uint64_t v) { k.gemv_parallel_bytes = v; },
       {524288, 1048576, 2097152, 262144, 4194304}}};
  // The tier ladder has rungs to step between only with tiers (4 or more).
  if (threads >= 4) {
    bandwidth.push_back({"TESSERA_GEMV_TIER_STEP",
                         [](Knobs& k, std::uint64_t v) {
                           k.gemv_tier_step = static_cast<std::uint32_t>(v);
                         },
                         {4, 16}});
  }
  take(sweep_knobs(bandwidth,
                   "at " + n + " participants on automatic sgemv of 256 KiB .. 8 MiB", threads,
                   dry_run ? Workload{} : gemv_floor_work(), rounds, margin, budget, dry_run),
       &outcome);
  return outcome;
}

}  // namespace tessera::tune
