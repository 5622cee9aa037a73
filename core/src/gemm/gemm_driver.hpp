// The GEMM driver: BLIS-style loops over the canonical problem
// (gemm_kernel.hpp), written once for every ISA and dtype.
//
//   for jc in column blocks (nc)                      serial
//     for pc in depth slices (kc), in order           serial, never parallel
//       phase 1: pack the B block (kc x nc) and, when shared, every A row
//                block of the slice                   workers pull panels
//       phase 2: jobs q = (row block q / n_nt, column tile q % n_nt),
//                n_mc x n_nt of them                  workers pull chunks
//         job: pack A row block (own buffer, unless shared/prepacked), then
//              column_tile over its mr-row panels
//
// The joins of the two phases are the only barriers (design.md §GEMM driver). A
// worker writes only the C tiles of the jobs it claimed and its own pack
// buffer; phase 1 writes disjoint panels of the shared buffers.
#pragma once

#include <cstdint>
#include <string>

#include "core/src/gemm/gemm_blocking.hpp"
#include "core/src/kernels/gemm_kernel.hpp"
#include "core/src/kernels/half_kernel.hpp"
#include "core/src/parallel/compute_resolver.hpp"
#include "tessera/platform/executor.hpp"
#include "tessera/platform/status.hpp"

namespace tessera::core {

// The job list of one column block and how it is claimed (its width fixes
// n_nt, so the last, narrower block has its own).
struct ColumnBlockPlan {
  std::int64_t jobs = 0;         // n_mc x n_nt (direct path: C tiles)
  std::int64_t grain = 1;        // jobs per claim
  std::int64_t pack_panels = 0;  // phase 1: B panels, then shared A panels
  std::int64_t pack_grain = 1;   // panels per claim
};

// Everything the driver decided for one call: pure, printable through
// GemmPlan (gemm_plan.cc). The driver executes exactly this: it derives no
// worker count, grain or blocking of its own.
struct GemmDecision {
  GemmBlocking blocking;        // mc already lowered for the worker count
  ComputePlan compute;          // workers, their pool tier, and why
  GrainPlan grain;              // chunking of the first column block's jobs
  bool shared_a = false;        // A prepacked once per slice into a shared slot
  bool direct = false;          // no packing: run_direct (one worker) or
                                // run_direct_parallel
  ColumnBlockPlan first_block;  // every column block of width nc
  ColumnBlockPlan last_block;   // the last one (narrower when nc does not
                                // divide n; first_block when n <= nc)
};

// Whether a problem should skip packing (run_direct / run_direct_parallel). The direct
// path reads A in place once per column panel of nr columns; it wins when
// that costs no more than packing A once: when one depth slice of A
// (m x min(k, kc)) fits in L2, so the re-reads hit L2, or when there are at
// most two column panels. Measured on Zen 4 (1 MiB L2) against the packed
// path: f32 256^3 116 vs 102 GFLOP/s, 64x64x2000 f32 110 vs 65,
// 8192x32x256 f32 direct ahead; at f32 1024^3 (A slice 1.5 MiB) and f64
// 500^3 the packed path wins.
// It also reads each B micro-panel in place, k rows of nr elements at B's
// row stride, once per row tile. Rows 2 KiB or more apart share few pages
// and alias onto few L1 sets (at 4 KiB every row is a new page, beyond the
// prefetchers, and in the same set), so the panel keeps missing: unless k
// is so shallow that packing costs more than the misses, such problems are
// packed. Measured on Zen 5 (48 KiB 12-way L1d, 1 MiB L2), f32, one
// thread, direct vs packed GFLOP/s: 1024x1024x32 110 vs 207, 512^3 157 vs
// 202, 256x4096x64 123 vs 187, f64 1024x1024x32 59 vs 94; shallow ones
// stay direct: 1024x1024x8 149 vs 41, x16 165 vs 103, 2048x2048x16 100 vs
// 88 (x24 165 vs 197); narrower rows too: 384^3 207 vs 196, 256^3 225 vs
// 204, 1024x256x256 207 vs 197. `slice_budget` is that L2 (a quarter of it
// for column panels under 128 bytes: direct_slice_budget in gemm_call.hpp,
// measured on Zen 3); 0 means unknown (256 KiB is assumed). B's row stride
// is taken as n (a larger ldb is not seen here).
inline constexpr std::int64_t kDirectMaxShallowK = 16;
inline constexpr std::int64_t kDirectMaxRowBytes = 2048;
// Inline: every small call asks it.
inline bool direct_suits(std::int64_t m, std::int64_t n, std::int64_t k, std::int64_t kc, int nr,
                         int element_bytes, std::uint64_t slice_budget) {
  if (n <= 2 * static_cast<std::int64_t>(nr)) return true;
  if (k <= kDirectMaxShallowK) return true;
  if (n * element_bytes >= kDirectMaxRowBytes) return false;
  const std::uint64_t budget = slice_budget != 0 ? slice_budget : 256 * 1024;
  const std::uint64_t slice = static_cast<std::uint64_t>(m) *
                              static_cast<std::uint64_t>(k < kc ? k : kc) *
                              static_cast<std::uint64_t>(element_bytes);
  return slice <= budget;
}

// The packed path with C's rows starting off a 64-byte line (a buffer from
// malloc's mmap is 16 bytes past a page): every 64-byte vector store of C
// then spans two lines. Where the product is shallow the C stores set the
// pace, and the call computes C's leading columns up to the first line
// boundary as a product of their own (`lead` columns, the direct path),
// then the rest with aligned stores. Each element is the same sum either
// way (the tiles never change the bits). Measured on an Intel Xeon
// (AVX-512), sgemm 1024 x 1024 x k, one thread, C 16 bytes past a line,
// split against not (GFLOP/s): k 32 165.8 vs 144.3 (aligned C: 164), 64
// 184.5 vs 176.1, 96 195.1 vs 185.2, 128 195.9 vs 192.7; deeper products
// gain nothing measurable. Only 64-byte vectors (AVX-512) measured; all
// rows must share the offset (ldc a multiple of 64 bytes).
inline constexpr std::int64_t kSplitMisalignedMaxK = 128;
template <class T>
inline std::int64_t misaligned_lead_columns(const GemmProblem<T>& pr, int lanes) {
  constexpr auto kBytes = static_cast<std::int64_t>(sizeof(T));
  constexpr std::int64_t kLine = 64;
  if (lanes * kBytes != kLine || pr.k > kSplitMisalignedMaxK) return 0;
  const auto offset = static_cast<std::int64_t>(reinterpret_cast<std::uintptr_t>(pr.c) % kLine);
  if (offset == 0 || offset % kBytes != 0 || pr.ldc * kBytes % kLine != 0) return 0;
  const std::int64_t lead = (kLine - offset) / kBytes;
  return pr.n >= lead + 4 * lanes ? lead : 0;
}

// Everything decide_gemm needs for an m x n x k canonical problem.
struct GemmRequest {
  std::int64_t m = 0, n = 0, k = 0;
  int mr = 0, nr = 0;           // the packed path's register tile
  GemmBlocking cache_blocking;  // the cache model's (gemm_blocking)
  // The direct path: usable here (the kernel set has one, and A does not
  // arrive packed), its tile, and whether direct_suits() holds.
  bool direct_ok = false;
  int direct_mr = 0, direct_nr = 0;
  bool direct_fits = false;
  // A arrives packed (a column-major PackedRhs): shared by construction;
  // B arrives packed (a row-major PackedRhs): phase 1 packs no B panel.
  bool a_prepacked = false;
  bool b_prepacked = false;
  // Where it runs (ContextState::compute_request: the parallelism asked
  // for, widths, tiers, nesting, whether to fill the plan's reason
  // strings); mnk and jobs are the driver's to fill.
  ComputeRequest site;
  ComputeKnobs knobs;
};

// The decision for one call: the compute plan (workers, tier), mc for that
// many workers, the path (direct or packed, shared A) and the grain. The
// driver executes exactly this; nothing is re-derived per slice.
GemmDecision decide_gemm(const GemmRequest& request);

// Element offset of the packed panel holding (depth pc, panel index q) in an
// operand packed whole by pack_whole(): slices of kc, each slice `padded`
// wide (extent rounded up to the panel width).
inline std::int64_t packed_offset(std::int64_t pc, std::int64_t q, int panel,
                                  std::int64_t kc_eff, std::int64_t padded) {
  return pc * padded + q * panel * kc_eff;
}

// Runs the problem per `decision`. packed_a / packed_b, when not null, are
// whole operands packed by pack_whole() with the same kc (the caller checked
// that). beta/alpha trivial cases (k == 0, alpha == 0, empty C) are the
// caller's. Returns out_of_memory if the pack buffers cannot be allocated
// (before anything is written).
// An operand kept in a 16-bit format and widened to f32 as it is packed
// (the exact mode of the half GEMM, design.md §Half precision): element
// (i, p) of canonical A, or (p, j) of canonical B, lies at the problem's
// strides from `data`, whose side of the GemmProblem is then null.
// Widening is exact and the same on every level, and packing is a pure
// permutation, so the panels are those of the widened f32 operand.
struct WidenedOperand {
  const std::uint16_t* data = nullptr;
  WidenFn widen = nullptr;
  bool active() const { return data != nullptr; }
};
struct GemmSources {
  WidenedOperand a, b;
  bool any() const { return a.active() || b.active(); }
};

// The part of C a triangle GEMM computes (try_gemm_triangle; design.md
// §GEMM driver), in canonical coordinates: element (i, j) is computed
// when i / row_group >= j / col_group (lower) or <= (upper); the rest of C
// is neither read nor written. Groups let a complex matrix held as reals
// (each complex row two real rows: 1m) keep its complex triangle.
struct GemmTriangleMask {
  bool lower = true;
  std::int64_t row_group = 1, col_group = 1;

  bool keeps(std::int64_t i, std::int64_t j) const {
    return lower ? i / row_group >= j / col_group : i / row_group <= j / col_group;
  }
  // The kept columns of row i among [j0, j1): one run, [*lo, *hi) (empty
  // when *lo >= *hi).
  void kept_columns(std::int64_t i, std::int64_t j0, std::int64_t j1, std::int64_t* lo,
                    std::int64_t* hi) const {
    const std::int64_t edge = (i / row_group + (lower ? 1 : 0)) * col_group;
    *lo = lower ? j0 : (edge > j0 ? edge : j0);
    *hi = lower ? (edge < j1 ? edge : j1) : j1;
  }
  // How much of the block [i0, i1) x [j0, j1) (non-empty) is computed:
  // the predicate is monotone along rows and columns, so its corners tell.
  enum class Cover : std::uint8_t { kNone, kSome, kAll };
  Cover cover(std::int64_t i0, std::int64_t i1, std::int64_t j0, std::int64_t j1) const {
    // lower: the last row's first column is the block's most kept corner
    // and the first row's last column its least; upper the other two.
    const bool most = lower ? keeps(i1 - 1, j0) : keeps(i0, j1 - 1);
    const bool least = lower ? keeps(i0, j1 - 1) : keeps(i1 - 1, j0);
    return !most ? Cover::kNone : least ? Cover::kAll : Cover::kSome;
  }
};

// A triangular operand (try_gemm_triangular, BLAS's TRMM; design.md §GEMM
// driver): canonical A (line w = row i) or canonical B (line w = column
// j), square (its lines number k), made of group x group blocks (a
// complex matrix in 1m's real form: 2), whose element at depth p of line
// w is used only where p / group <= w / group (depth_le_line) or >=; when
// unit, each diagonal block is the identity. Whatever the array holds
// elsewhere is packed and then overwritten in the panel (zeros, the unit
// diagonal), so it never enters C. Each mr-row panel (A) or nr-column
// tile (B) multiplies only the depths some line of it uses.
struct GemmTriangularOperand {
  bool on_b = false;
  bool depth_le_line = true;
  bool unit = false;
  std::int64_t group = 1;

  // The depths [*lo, *hi) that lines [w0, w1) use (k: the depth).
  void depths(std::int64_t w0, std::int64_t w1, std::int64_t k, std::int64_t* lo,
              std::int64_t* hi) const {
    const std::int64_t end = ((w1 - 1) / group + 1) * group;
    *lo = depth_le_line ? 0 : w0 / group * group;
    *hi = depth_le_line ? (end < k ? end : k) : k;
  }
};

// Operands in GemmSources (T = float) are read only through packing: the
// direct paths read A or B in place, so a problem with one never goes
// there (decide_gemm's request says direct_ok = false). triangle_mask,
// when not null, limits C to that part (the direct paths have no mask
// either). triangular, when not null, names the operand that is
// triangular; that operand is never prepacked, and a problem has a
// triangle mask or a triangular operand, not both.
template <class T>
Status run_gemm(const GemmKernelSet<T>& kernels, const GemmProblem<T>& problem,
                const GemmDecision& decision, const T* packed_a,
                const T* packed_b, platform::Executor* executor,
                const GemmSources& sources = {},
                const GemmTriangleMask* triangle_mask = nullptr,
                const GemmTriangularOperand* triangular = nullptr);

// Whether the direct path packs B (the whole of it, with pack_whole) though
// its columns are contiguous:
//  - when its rows lie kDirectMaxRowBytes or more apart and three or more
//    row tiles re-read each B panel. In place, such a panel's loads keep
//    meeting the C stores still in flight at the same address bits below
//    4 KiB (at a row stride of 4 KiB every row of B and C sits at one page
//    offset), and the measured rate then depends on where the caller's B
//    and C happen to lie. Measured on Zen 5, f32, one thread, in place vs
//    packed (the packing included), GFLOP/s: 1024x1024x16 109-118 vs
//    146-164 over six relative placements of B and C, 4096x1024x16 101 vs
//    135, 2048x2048x16 99 vs 135, 1024x1024x8 127 vs 140, 64x1024x16 133
//    vs 173, 24x1024x16 131 vs 146, 1024x512x16 170 vs 184, 1024x2000x16
//    138 vs 140; with one or two row tiles packing costs more than it saves
//    (8x1024x16 146 vs 101, 16x1024x16 136 vs 129);
//  - when the kernel set says so for its size (direct_pack_b_bytes: B
//    larger than that) and each of the `workers` copies is re-read by more
//    than kDirectPackBRowTiles row tiles (m / workers rows). Every row tile re-reads all of B; once
//    B outgrows the L1 it comes from L2 at B's row stride, one line per row of each panel. Measured
//    on Zen 3 (32 KiB L1d), AVX2, one thread, page-aligned operands, in place vs packed, GFLOP/s:
//    f32 128^3 87.7 vs 92.9, 96^3 90.3 vs 92.8, 128x256x64 79.9 vs 92.1, 64x256x256 79-82 vs 89,
//    48x256x256 83 vs 87, 64x128x64 86 vs 87-88, 64x64x256 88.7 vs 90.5; f64 64^3 42.7 vs 43.9,
//    128^3 42.4-42.9 vs 45.3-46.1; fewer row tiles pay more for the copy
//    than they save (f32 40x128x128 87.0 vs 84.3, 32x128x64 84.3 vs 81.6,
//    48x128x64 even; two workers at 96^3, 48 rows each: 168 vs 158, at
//    128^3 150 vs 151-153).
// A copy of more than kDirectPackBMaxBytes (a shallow B millions of
// columns wide) is not made: B is then read in place, at the speed above.
// (m x n x k, B's rows rs_b elements apart, on `workers` workers.)
inline constexpr std::int64_t kDirectPackBMaxBytes = std::int64_t{8} << 20;
inline constexpr std::int64_t kDirectPackBRowTiles = 8;
template <class T>
inline bool direct_packs_b(const GemmKernelSet<T>& ks, std::int64_t m, std::int64_t n,
                           std::int64_t k, std::int64_t rs_b, int workers) {
  constexpr auto kBytes = static_cast<std::int64_t>(sizeof(T));
  const auto mr = static_cast<std::int64_t>(ks.direct_mr);
  // The integer tests first: a small call's B (neither case) returns
  // without the division, a 64-bit idiv of 10-20 cycles on its path (with
  // direct_reads_b_in_place's modulo: try_gemm's share of an 8 x 32 x 1
  // sgemm's perf samples on Zen 4 went from 51% to 37%).
  const bool wide_rows = rs_b * kBytes >= kDirectMaxRowBytes && m > 2 * mr;
  const bool large = ks.direct_pack_b_bytes > 0 && n * k * kBytes > ks.direct_pack_b_bytes &&
                     (m + workers - 1) / workers > kDirectPackBRowTiles * mr;
  if (!wide_rows && !large) return false;
  return (n + ks.nr - 1) / ks.nr * ks.nr * k <= kDirectPackBMaxBytes / kBytes;
}

// Whether the direct path reads B in place: its columns contiguous, a
// partial last panel readable (lane masks, or whole vectors:
// direct_edge_in_place) or absent, and not packed by
// direct_packs_b.
template <class T>
inline bool direct_reads_b_in_place(const GemmKernelSet<T>& ks, const GemmProblem<T>& pr,
                                    int workers) {
  return pr.cs_b == 1 &&
         (ks.direct_masks_edges || direct_edge_in_place(pr.n, ks.direct_nr, ks.lanes)) &&
         !direct_packs_b(ks, pr.m, pr.n, pr.k, pr.rs_b, workers);
}

// run_direct when B needs packing or a scratch panel: allocates them.
template <class T>
Status run_direct_with_buffers(const GemmKernelSet<T>& kernels, const GemmProblem<T>& problem,
                               std::int64_t kc, const T* packed_b);

// The direct path (GemmKernelSet::direct) on the caller; packed_b as for
// run_gemm. Inline: a small call whose B is read in place goes straight to
// the kernel set (the out-of-line call and its Status were 46 of ~600
// instructions of an 8 x 32 x 1 product).
template <class T>
inline Status run_direct(const GemmKernelSet<T>& ks, const GemmProblem<T>& pr, std::int64_t kc,
                         const T* packed_b) {
  // Buffers only when B is packed or has an edge column panel that the
  // kernel set cannot read in place.
  if (packed_b != nullptr || direct_reads_b_in_place(ks, pr, 1)) {
    ks.direct(pr, kc, packed_b, nullptr);
    return {};
  }
  return run_direct_with_buffers(ks, pr, kc, packed_b);
}

// The direct path on decision.compute.workers participants: one flat list of
// C tiles (each with all its depth slices) claimed from a job cursor with the
// generic grain; no packing of A; B, when it is not read in place, packed
// by each participant into its own copy (one copy packed by the caller when
// the copies would be too large). One fork/join in all.
template <class T>
Status run_direct_parallel(const GemmKernelSet<T>& kernels, const GemmProblem<T>& problem,
                           const GemmDecision& decision, const T* packed_b,
                           platform::Executor* executor);

// Packs a whole operand for reuse: side A (extent = rows, panel = mr, element
// (i, p) at src[i*s_w + p*s_d]) or side B (extent = columns, panel = nr,
// element (p, j) at src[p*s_d + j*s_w]), slice by slice of kc.
// dst holds packed_size(...) elements.
std::int64_t packed_size(std::int64_t extent, std::int64_t depth, int panel);
// `widened`, when active, is the source instead of `src` (null then).
template <class T>
void pack_whole(const GemmKernelSet<T>& kernels, bool side_a,
                std::int64_t extent, std::int64_t depth, std::int64_t kc,
                const T* src, std::int64_t s_w, std::int64_t s_d, T* dst,
                const WidenedOperand& widened = {});
// pack_whole's panels [q0, q1) only (every slice of them), at their
// places in dst: disjoint panel ranges may be packed by different workers.
template <class T>
void pack_whole_panels(const GemmKernelSet<T>& kernels, bool side_a, std::int64_t extent,
                       std::int64_t depth, std::int64_t kc, const T* src, std::int64_t s_w,
                       std::int64_t s_d, T* dst, std::int64_t q0, std::int64_t q1,
                       const WidenedOperand& widened = {});

}  // namespace tessera::core
