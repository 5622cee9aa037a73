// The integer GEMM driver: BLIS-style loops over the canonical problem
// (kernels/qgemm_kernel.hpp), written once for every level.
//
//   for jc in column blocks (nc)                      serial
//     phase 1: pack the B block (k x nc) and its column sums, unless B
//              arrived packed                         workers pull panels
//     phase 2: jobs q = (row block q / n_nt, column tile q % n_nt)
//         job: pack the A row block (mc x k) and its row sums into the
//              worker's own buffer, then one tile per mr rows
//
// No depth slices: a tile runs its whole depth with the sums in registers,
// so the output stage (the zero-point correction, then int32, requantized
// or float) applies once, to finished sums, and no partial int32 matrix is
// ever stored. Integer sums do not depend on their order, so neither the
// tiles, the blocking nor the worker count can change a bit; the loops only
// decide what stays in which cache. The depth an 8-bit panel covers is four
// times an f32 one's in the same bytes, so a whole depth fits the caches
// the f32 driver slices for, up to k of a few thousand (beyond that the
// tiles stream their panels from L2 and L3: slower, the same bits).
// Compute resolver, job cursors, grains and workspace are the f32 driver's.
#pragma once

#include <cstdint>

#include "core/src/kernels/qgemm_kernel.hpp"
#include "core/src/parallel/cache_facts.hpp"
#include "core/src/parallel/compute_resolver.hpp"
#include "tessera/platform/executor.hpp"
#include "tessera/platform/status.hpp"

namespace tessera::core {

struct QGemmBlocking {
  std::int64_t mc = 0;  // rows of A per packed block (a multiple of mr)
  std::int64_t nc = 0;  // columns of B per packed block (a multiple of nr)
};

// From the cache facts: the packed A block (mc x k) in half of one core's
// L2, the packed B block (k x nc) in a quarter of L3 (half of L2 without
// one), at most four L2s; 512 KiB of L2 when unknown. Never below one tile.
QGemmBlocking qgemm_blocking(const QGemmKernelSet& ks, std::int64_t m, std::int64_t n,
                             std::int64_t k, const CacheFacts& caches);

struct QGemmColumnBlock {
  std::int64_t jobs = 0;         // n_mc x n_nt
  std::int64_t grain = 1;        // jobs per claim
  std::int64_t pack_panels = 0;  // phase 1's B panels (0 when B is prepacked)
  std::int64_t pack_grain = 1;
};

// What a call runs: pure and printable (IntGemmPlan).
struct QGemmDecision {
  QGemmBlocking blocking;       // mc lowered for the worker count
  ComputePlan compute;
  GrainPlan grain;              // the first column block's
  QGemmColumnBlock first_block;  // every column block of width nc
  QGemmColumnBlock last_block;   // the last one (narrower when nc does not divide n)
};

struct QGemmRequest {
  std::int64_t m = 0, n = 0, k = 0;
  int mr = 0, nr = 0;
  QGemmBlocking blocking;
  bool b_prepacked = false;
  ComputeRequest site;  // where it runs, as GemmRequest::site
  ComputeKnobs knobs;
};

// The compute resolver sees m*n*k / 4: one 8-bit multiply-add is about a
// quarter of an f32 FMA's work on the levels with a 4-wide dot (and half on
// the 16-bit pair levels), so a product is worth forking for at the same
// time as an f32 product of a quarter of its work.
inline constexpr std::uint64_t kQGemmWorkDivisor = 4;
QGemmDecision decide_qgemm(const QGemmRequest& request);

// B packed once for many calls (PackedIntRhs): every column's panel, in
// order, and B's canonical column sums.
struct QPackedB {
  const std::uint8_t* panels = nullptr;
  const std::int32_t* col_sums = nullptr;
};

// Runs a validated canonical problem with m, n > 0 per `decision`; B is
// problem.b, or `packed_b` when that is not null. out_of_memory if the pack
// buffers cannot be allocated (before anything is written).
Status run_qgemm(const QGemmKernelSet& ks, const QGemmProblem& problem,
                 const QGemmDecision& decision, const QPackedB* packed_b,
                 platform::Executor* executor);

}  // namespace tessera::core
