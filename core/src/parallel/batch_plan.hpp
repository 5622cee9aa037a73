// The batched-GEMM plan (design.md §Batch plan): how a batch of independent
// GEMMs uses the context's participants.
//
//   Serial              every element on the caller, in order
//   BatchParallel(n)    whole elements per worker, one fork/join for the
//                       batch; no element is split, so every output bit is
//                       the same for any n
//   SequentialInternal  elements in order on the caller, each with the
//                       engine's own internal parallelism (its compute
//                       resolver picks the count, up to `workers`); only for
//                       elements with m, n > 1
//
// Rules, in order (each is a test in tests/core/batch_plan_test.cc):
//  1. An empty batch (batch, m or n = 0) or k = 0 -> Serial.
//  2. serial(), or width 1 -> Serial.
//  3. gemv-shaped elements (m = 1 or n = 1) stay whole on one worker:
//     never SequentialInternal. Gated on bytes, like any bandwidth-bound
//     work: total bytes below the gemv floor -> Serial; one element ->
//     Serial; otherwise BatchParallel with the bandwidth resolver's count
//     (explicit threads(n) exactly, capped by width and batch).
//  4. Otherwise (m, n > 1): total m*n*k over the batch below
//     TESSERA_PARALLEL_THRESHOLD -> Serial (before the request, as GEMM's
//     serial gate).
//  5. One element -> SequentialInternal: all parallelism is inside it.
//  6. Elements that each pass the serial gate and either are fewer than the
//     workers (BatchParallel would leave workers idle) or are DRAM-bound
//     (one element per worker at once would overflow the last-level cache:
//     width x footprint > L3, or L2 without an L3) -> SequentialInternal.
//  7. Otherwise BatchParallel: explicit threads(n) exactly (capped by width
//     and batch); automatic: total / TESSERA_PAR_MNK_PER_WORKER, capped by
//     width and batch, snapped down onto a pool tier. A count of 1 is Serial.
// A pure function of its arguments.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/src/parallel/bandwidth_resolver.hpp"
#include "core/src/parallel/compute_resolver.hpp"
#include "tessera/knobs.hpp"
#include "tessera/parallelism.hpp"

namespace tessera::core {

enum class BatchPlanKind : std::uint8_t { kSerial, kBatchParallel, kSequentialInternal };
const char* batch_plan_kind_name(BatchPlanKind kind) noexcept;

struct BatchShape {
  std::uint64_t batch = 0;
  std::uint64_t m = 0;
  std::uint64_t n = 0;
  std::uint64_t k = 0;
  std::uint64_t element_bytes = 4;  // 4 for f32, 8 for f64
};

// The same facts as a bandwidth-bound call's (rule 3 hands them on): the
// context makes them once (ContextState::parallel_facts).
using BatchFacts = BandwidthFacts;

struct BatchPlan {
  BatchPlanKind kind = BatchPlanKind::kSerial;
  // Serial: 1. BatchParallel: workers, each running whole elements.
  // SequentialInternal: the most workers one element may use.
  int workers = 1;
  std::string reason;
  // "batch_parallel(4): 64 elements of 128x128x128 ..."
  std::string to_string() const;
};

// `compute` carries TESSERA_PARALLEL_THRESHOLD and TESSERA_PAR_MNK_PER_WORKER
// (defaults filled in); `knobs` the gemv knobs used for gemv-shaped
// elements. explain = false leaves `reason` empty: the call path decides
// without formatting text (a batch of one 8x8x8 product spent most of its
// ~250 ns of overhead on it).
BatchPlan resolve_batch(const BatchShape& shape, Parallelism request,
                        const BatchFacts& facts, const ComputeKnobs& compute,
                        const Knobs& knobs, bool explain = true);

}  // namespace tessera::core
