// The compute-bound resolver (design.md §Compute resolver) and the job-grain
// rules (§Job cursor) of the GEMM driver, as pure functions of (shape, request,
// width, knobs): no globals, no topology reads, so tests inject any machine.
// Each returns a printable plan that says what it decided and why.
#pragma once

#include <cstdint>
#include <string>

#include "tessera/knobs.hpp"
#include "tessera/parallelism.hpp"
#include "tessera/platform/cpu_features.hpp"

namespace tessera::core {

// Knob values in force, defaults filled in (design.md §Knobs).
struct ComputeKnobs {
  std::uint64_t parallel_threshold = 48 * 48 * 256;  // TESSERA_PARALLEL_THRESHOLD
  std::uint64_t par_mnk_per_worker = 2'000'000;      // TESSERA_PAR_MNK_PER_WORKER
  std::uint64_t full_width_mnk = 110'000'000;        // TESSERA_FULL_WIDTH_MNK
  int parallel_oversample = 8;                       // TESSERA_PARALLEL_OVERSAMPLE
  int packed_oversample = 2;                         // TESSERA_PACKED_OVERSAMPLE
};

// Defaults per architecture: full width from 110e6 (x86-64) or 14e6
// (aarch64, elsewhere 110e6). The pool classes are not here: they are part
// of the resolved policy, which the pool was built from (ComputeRequest).
ComputeKnobs default_compute_knobs(platform::CpuArch arch);
// The defaults overridden by every knob that is set.
ComputeKnobs compute_knobs(const Knobs& knobs, platform::CpuArch arch);

// Rule 1, the serial gate, on its own: the call fast paths (a small GEMM
// goes to the direct path without a plan) and resolve_compute both ask it.
inline bool below_serial_gate(std::uint64_t mnk, const ComputeKnobs& knobs) noexcept {
  return mnk < knobs.parallel_threshold;
}

enum class ComputeRule : std::uint8_t {
  kSerialRequested,  // Parallelism::serial()
  kNested,           // called inside a parallel region: runs as one block
  kSerialGate,       // m*n*k below TESSERA_PARALLEL_THRESHOLD (checked first)
  kExplicit,         // threads(n): exactly n, capped by width and jobs
  kAutomaticTier,    // automatic, snapped down onto a pool tier
  kAutomatic,        // automatic, no tiers on this target (wasm pool)
  kFullWidth,        // automatic, m*n*k >= TESSERA_FULL_WIDTH_MNK
};
const char* compute_rule_name(ComputeRule rule) noexcept;

struct ComputeRequest {
  std::uint64_t mnk = 0;   // m*n*k (validated not to overflow)
  std::int64_t jobs = 1;   // most jobs the driver can make of this shape
  Parallelism parallelism;
  // Participants one kernel may use: the executor's width lowered by
  // max_threads_per_kernel.
  int width = 1;
  // The executor's own width and the resolved policy's pool_classes: the
  // tiers are platform::pool_tier_widths(pool_width, pool_classes), exactly
  // the sub-pools the native pool forks into. 0 (the default) means
  // pool_width = width.
  int pool_width = 0;
  int pool_classes = 0;
  bool nested = false;     // the caller is inside a parallel region
  // Build ComputePlan::reason (plans, CLIs); the call hot path skips the
  // string work.
  bool explain = true;
};

struct ComputePlan {
  int workers = 1;
  // Width of the pool the call forks into (design.md §Pool tiers):
  // platform::routed_width(tiers, pool_width, workers), the pool's own
  // rule; 1 when serial.
  int tier = 1;
  ComputeRule rule = ComputeRule::kSerialGate;
  std::string reason;
  std::string to_string() const;
};

// design.md §Compute resolver:
//  1. serial() or nested -> 1.
//  2. mnk < parallel_threshold -> 1, even for threads(n); width not read.
//  3. threads(n) -> min(n, width, jobs).
//  4. automatic: w = max(1, mnk / par_mnk_per_worker), capped by width and
//     jobs; if mnk >= full_width_mnk: min(width, jobs); otherwise snapped
//     down onto the largest tier of the pool that is <= w (1 if none is),
//     or left as is when the target has no tiers (pool_classes == 0).
ComputePlan resolve_compute(const ComputeRequest& request,
                            const ComputeKnobs& knobs);

enum class GrainKind : std::uint8_t {
  kGeneric,    // A panels already shared: any chunk size works
  kPackedLhs,  // each worker packs its own A: chunks are (parts of) row blocks
};

struct GrainPlan {
  GrainKind kind = GrainKind::kGeneric;
  std::int64_t grain = 1;       // jobs per claim
  std::int64_t chunks = 1;      // ceil(jobs / grain)
  std::int64_t sub_blocks = 1;  // packed-LHS: column sub-blocks per row block
  std::string to_string() const;
};

// Generic grain: about `oversample` chunks per worker, so imbalance corrects
// itself: grain = max(1, ceil(n_jobs / (workers * oversample))).
GrainPlan generic_grain(std::int64_t n_jobs, int workers, int oversample);

// Packed-LHS grain: a whole row block (n_nt consecutive jobs) so one worker
// packs that A block once; while there are fewer than packed_oversample x
// workers chunks, split every row block into twice as many column
// sub-blocks, only while the count still divides n_nt (a chunk never
// crosses a row block, so A is never re-packed mid-chunk).
GrainPlan packed_lhs_grain(std::int64_t n_mc, std::int64_t n_nt, int workers,
                           int packed_oversample);

// Row-block height for `workers`: the cache model's mc, lowered so that
// there are about two row blocks per worker when m is small, and always a
// multiple of mr (so the set of micro-tiles never changes,
// design.md §Reproducibility).
std::int64_t row_block_for_workers(std::int64_t mc, std::int64_t m, int mr,
                                   int workers);

// Whether `workers` should split a GEMM's columns instead of its rows
// (keeping the cache model's mc): A much smaller than B (m <= n / 4) and at
// least two of a column block's n_nt column tiles per worker. Split by
// rows, every worker would stream all of B; split by columns, each column
// panel is read once. Two workers (Xeon with AMX, alternated runs),
// rows against columns: sgemm 128 x 4096 x 4096 185-194 against 215-265
// GFLOP/s, 64 x 4096 x 1024 150-154 against 211-216; the integer GEMM
// 128 x 4096 x 4096 with B prepacked 2484-2586 against 3029-3211 GOP/s.
bool split_columns(std::int64_t m, std::int64_t n, std::int64_t n_nt, int workers);

// Shared A prepack (design.md §GEMM driver): at >= 16 workers always; with
// fewer, only when private packing would pack some row block more than once
// (the packed-LHS grain had to split row blocks).
bool use_shared_a_prepack(int workers, const GrainPlan& packed_grain);

}  // namespace tessera::core
