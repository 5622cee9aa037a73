// GEMM entries of a KernelTable (design.md §Kernel core).
//
// The optimized family provides, per ISA level and dtype, a GemmKernelSet:
// the register tile (mr x nr), how its blocking is chosen, the two packing
// routines, the "column tile" routine that runs the microkernel over one
// packed row block, and the direct path (the same microkernel reading A and
// B in place, for problems where packing does not pay). The generic driver
// (gemm_driver.cc) is written once on top of these pointers; everything
// ISA-specific sits behind them. All routines of a set produce the same
// bits for the same kc: per output element the operation sequence is fixed
// by the ISA's mul_add and kc alone, never by tiles, paths or workers.
//
// The naive family provides a whole-problem reference instead (a plain
// triple loop with double accumulation), on the same canonical problem.
#pragma once

#include <cstdint>

#include "tessera/platform/cpu_features.hpp"

namespace tessera::core {

// How a kernel set's kc/mc/nc are chosen (gemm_blocking.hpp).
enum class GemmBlockingRule : std::uint8_t {
  // From the cache facts (L1d, L2, L3) and the tile: x86 AVX levels, NEON.
  kCacheModel,
  // One fixed table, never cache facts or thread counts: the two 128-bit
  // levels (SSE2, SIMD128) and scalar, so the same inputs give the same bits
  // natively and in wasm, where there are no cache facts.
  kFixedPortable,
  // The cache model's mc and nc with a depth slice fixed at kFixedDepthKc
  // steps on every host: the bf16 pair-dot set of the half GEMM's fast mode
  // (gemm_half.cc), whose pinned bits must not follow the host's L1.
  kCacheModelFixedKc,
};

// The depth slice of kCacheModelFixedKc: the cache model's own choice for
// a 6-row tile of 4-byte steps on every L1 of 32 KiB and up (its kMaxKc),
// so the fixed slice costs nothing where the set runs (Zen 4, Intel).
inline constexpr std::int64_t kFixedDepthKc = 1024;

// What a column-tile call does with C, per depth slice
// (design.md §Reproducibility: beta only in the first slice, alpha
// identically in every slice).
enum class GemmUpdate : std::uint8_t {
  kOverwrite,   // first slice, beta == 0: C = alpha*acc (C is never read)
  kScale,       // first slice, beta != 0: C = alpha*acc + beta*C
  kAccumulate,  // later slices:           C = alpha*acc + C
};

// The fused epilogue of the canonical problem (design.md §GEMM epilogue):
// on the last depth slice only, per element and in this order,
//   x = the value the plain GEMM would store (alpha*acc + beta*C, or
//       alpha*acc + C after earlier slices), rounded to T;
//   x = x + bias (T addition; per canonical column j: bias[j], per row i:
//       bias[i]; no addition at all without bias, so -0 survives);
//   C = act(x).
// Column-major calls swap rows and columns (gemm_call.hpp), so a caller's
// per-column bias is a canonical per-row one there.
enum class GemmBiasAxis : std::uint8_t { kNone, kColumn, kRow };
enum class GemmAct : std::uint8_t { kNone, kRelu, kGelu, kSigmoid };

template <class T>
struct GemmEpilogueSpec {
  const T* bias = nullptr;  // at the canonical origin (or a tile's origin)
  GemmBiasAxis axis = GemmBiasAxis::kNone;
  GemmAct act = GemmAct::kNone;
  bool active() const { return axis != GemmBiasAxis::kNone || act != GemmAct::kNone; }
  // The same epilogue seen from the tile at canonical (row, col).
  GemmEpilogueSpec at(std::int64_t row, std::int64_t col) const {
    GemmEpilogueSpec e = *this;
    if (axis == GemmBiasAxis::kColumn) e.bias = bias + col;
    if (axis == GemmBiasAxis::kRow) e.bias = bias + row;
    return e;
  }
};

// The canonical problem every gemm is reduced to (gemm_api.cc): C is m x n
// with unit column stride, A(i, p) = a[i*rs_a + p*cs_a], B(p, j) =
// b[p*rs_b + j*cs_b]. Column-major calls are turned into row-major ones by
// transposing the whole product (C^T = B^T A^T).
template <class T>
struct GemmProblem {
  std::int64_t m = 0, n = 0, k = 0;
  T alpha = T(1), beta = T(0);
  const T* a = nullptr;
  std::int64_t rs_a = 0, cs_a = 0;
  const T* b = nullptr;
  std::int64_t rs_b = 0, cs_b = 0;
  T* c = nullptr;
  std::int64_t ldc = 0;
  GemmEpilogueSpec<T> epilogue;  // none by default
  // The operands of the product the caller runs next with the same shape
  // and strides (a batch's next entry), or null: the one-worker direct path
  // prefetches them a portion per row tile, so that product does not start
  // from memory. A hint: nothing is computed from them.
  const T* next_a = nullptr;
  const T* next_b = nullptr;
};

// How the depth slice starting at `pc` updates C: beta is applied in the
// first slice only (overwrite when beta == 0, so C is never read), later
// slices accumulate. Internal linkage: ISA files compiled with -mavx512f
// include this too, and their copy must never stand in for the generic one.
template <class T>
static inline GemmUpdate slice_update(const GemmProblem<T>& pr, std::int64_t pc) {
  return pc != 0 ? GemmUpdate::kAccumulate
         : pr.beta == T(0) ? GemmUpdate::kOverwrite
                           : GemmUpdate::kScale;
}

// Whether the one-worker direct path tiles the full column panels of an
// m x n product with the wide tile (wide_mr x wide_nr) rather than the
// narrow one: when the rows its edge tile multiplies in vain (an edge tile
// multiplies all its rows) are at most 1/8 of m. AVX-512 f32's wide tile is
// 4 x 64, so that is every m of 24 or more and every multiple of 4. Against
// the narrow 8 x 32 tiles, one thread, Zen 4: 4 x 64 x 64 70 -> 101
// GFLOP/s, 20 x 64 x 64 93 -> 112, 33 x 64 x 64 93 -> 105, 1024 x 1024 x 16
// 84-94 -> 101-104; from memory (1000 x 64^3, GemmProblem::next_a) the wide
// tile's whole rows of B win too. The 6 x 64 tile it replaced lost 4% at
// 64^3 to its 4-row edge and spilled two accumulators.
inline bool direct_wide_rows(std::int64_t m, std::int64_t n, int wide_mr, int wide_nr) {
  if (n < wide_nr) return false;
  const std::int64_t waste = (m + wide_mr - 1) / wide_mr * wide_mr - m;
  return waste * 8 <= m;
}

// Whether a partial last column panel of the direct path (n % nr columns)
// is read in place without lane masks: when it is whole vectors, a tile of
// just that many vectors reads B's rows and writes C's in place. Otherwise
// traits without masks copy it zero-padded (the whole panel's width: an
// 8 x 8 x 8 sgemm on SSE2's 2 x 16 tiles multiplied 16 columns and copied
// B row by row, 178 ns against 99 for 8 x 16 x 8).
inline bool direct_edge_in_place(std::int64_t n, std::int64_t nr, int lanes) {
  return n % nr == 0 || (n % nr) % lanes == 0;
}

// Whether that path takes its wide tile family at all: when the full
// panels take the wide tile, or a last panel is wider than the narrow tile
// (one tile of as many vectors as it needs: 40^3 and 48^3 13-14% faster).
// Otherwise the narrow loop nest runs the same tiles with less set-up
// (16^3 ran 7% slower through the family's). direct() runs it and
// plan_gemm reports it by this one rule.
inline bool direct_wide_family(std::int64_t n, int narrow_nr, int wide_nr, bool wide_rows) {
  return wide_rows || n % wide_nr > narrow_nr;
}

// The rows of the family's tile `vectors` wide: the wide tile's for a
// full-width tile, else the narrow tile's (a narrower tile has room for
// more rows of accumulators).
constexpr int direct_family_rows(int vectors, int narrow_mr, int wide_mr, int wide_vectors) {
  return vectors == wide_vectors ? wide_mr : narrow_mr;
}

// The direct path's row tiles (one worker, the narrow loop nest): tiles of
// mr rows over rows [0, main), then tiles of tail_mr rows (a kernel with
// fewer accumulator rows) over [main, m), the last one masked to the rows
// left. A tile of r < mr rows on the mr-row kernel costs a full tile; the
// tail kernel costs tail_mr / mr of one while it keeps the FMA pipes busy
// (tail_mr 4 of AVX2's 6: eight accumulators cover the FMA latency). So
// the tail takes a remainder r = m % mr when r <= tail_mr (one tail tile),
// and with the last full tile when mr + r <= 2 tail_mr (two tail tiles
// instead of a full tile and a masked one); a larger r keeps a masked full
// tile. tail_mr 0: no tail kernel. Each element of C is the same sum in the
// same order whichever tile computes it: the bits do not depend on this.
constexpr std::int64_t direct_main_rows(std::int64_t m, int mr, int tail_mr) {
  const std::int64_t r = m % mr;
  if (tail_mr == 0 || r == 0) return m;
  if (m > mr && mr + r <= 2 * tail_mr) return m - r - mr;
  if (r <= tail_mr) return m - r;
  return m;
}

// The register tiles and blocking rule of one kernel set, by name: what an
// ISA file states (core/src/isa/) and a tuner edits. Widths count vectors of
// the level, so one shape serves f32 and f64 (6 x 2 vectors is 6 x 16 f32 on
// AVX2). Tiles never change a bit (each element of C is one sum in depth
// order whichever tile computes it); the blocking rule and mr do, through
// kc (design.md §Reproducibility).
struct GemmTiles {
  int mr;                 // packed tile rows (broadcast side, packed A panels)
  int nr_vectors;         // packed tile columns (packed B panels), in vectors
  int unroll;             // depth steps per microkernel loop iteration
  int direct_mr;          // direct path tile rows (A read in place)
  int direct_nr_vectors;  // direct path tile columns; divides nr_vectors
  // One worker's direct path over full panels (levels with lane masks,
  // direct_wide_family): its tile, and the rows of the narrow loop nest's
  // tail tile (direct_main_rows; 0: none). Where the wide tile equals the
  // direct one, the narrow loop nest runs.
  int wide_mr;
  int wide_nr_vectors;    // divides nr_vectors
  int direct_tail_mr;
  GemmBlockingRule blocking;
  // GemmKernelSet::direct_pack_b_bytes (0: B's size alone never packs it).
  std::int64_t direct_pack_b_bytes;
};

template <class T>
struct GemmKernelSet {
  int mr = 0;  // register tile rows (broadcast side, packed A panels)
  int nr = 0;  // register tile columns (vector side, packed B panels)
  GemmBlockingRule blocking = GemmBlockingRule::kFixedPortable;

  // Packs rows [0, rows) x depth [0, depth) of A, element (i, p) at
  // a[i*rs + p*cs], into ceil(rows/mr) panels of mr x depth: panel r holds,
  // for each p, the mr values A(r*mr + i, p), i < mr, zero past `rows`.
  // A pure permutation: the same bytes whoever calls it.
  void (*pack_a)(std::int64_t rows, std::int64_t depth, const T* a,
                 std::int64_t rs, std::int64_t cs, T* dst) = nullptr;
  // Packs depth [0, depth) x columns [0, cols) of B, element (p, j) at
  // b[p*rs + j*cs], into ceil(cols/nr) panels of depth x nr: panel q holds,
  // for each p, the nr values B(p, q*nr + j), zero past `cols`.
  void (*pack_b)(std::int64_t depth, std::int64_t cols, const T* b,
                 std::int64_t rs, std::int64_t cs, T* dst) = nullptr;
  // One column tile of one row block: for every mr-row panel of the packed
  // row block `a` (rows valid rows), multiplies it by the packed B panel `b`
  // (cols <= nr valid columns) over `depth`, and updates the rows x cols
  // tile of C at c (row stride ldc, unit column stride) per `update`.
  // Never touches C outside rows x cols. `epilogue` (null: none) is given
  // on the last depth slice only, seen from the tile's origin (row 0 of
  // the block, column 0 of the tile).
  void (*column_tile)(std::int64_t rows, std::int64_t cols, std::int64_t depth,
                      const T* a, const T* b, T* c, std::int64_t ldc, T alpha,
                      T beta, GemmUpdate update,
                      const GemmEpilogueSpec<T>* epilogue) = nullptr;
  // C = act(C + bias) over rows x cols at c (the epilogue alone, for k == 0
  // or alpha == 0 after C = beta*C): the same vector code as the fused
  // store, so the bits are those a tile would store.
  void (*epilogue_only)(std::int64_t rows, std::int64_t cols, T* c, std::int64_t ldc,
                        const GemmEpilogueSpec<T>& epilogue) = nullptr;
  // Small problems on one worker: the whole canonical problem without
  // packing A (tile direct_mr x direct_nr), B read in place when cs_b == 1,
  // else from packed_b (the whole B packed with pack_b, panels of nr, and
  // this kc; direct_nr divides nr). Same depth slices and per-element
  // arithmetic as the packed path: same bits.
  // scratch: kc x direct_nr values, for the zero-padded copy of a partial
  // last column panel; not needed (null is fine) when direct_masks_edges.
  // With lane masks and a wide tile unlike the narrow one, direct() may
  // take the wide tile family (direct_wide_family): full panels of
  // direct_wide_nr (dividing nr) with the wide or the narrow tile
  // (direct_wide_rows), and a last partial panel of r columns with
  // ceil(r / lanes) vectors (direct_family_rows rows).
  int direct_mr = 0;
  int direct_nr = 0;
  int direct_wide_mr = 0;
  int direct_wide_nr = 0;
  int lanes = 0;  // elements per vector
  bool direct_masks_edges = false;  // partial tiles read B / write C in place
  // The direct path packs a B larger than this many bytes when enough row
  // tiles re-read it (direct_packs_b in gemm_driver.hpp); 0: B's size alone
  // never makes it pack. Set where it was measured (AVX2).
  std::int64_t direct_pack_b_bytes = 0;
  void (*direct)(const GemmProblem<T>& problem, std::int64_t kc,
                 const T* packed_b, T* scratch) = nullptr;
  // The direct path split over workers: tiles [tile_begin, tile_end) of
  // ceil(m/direct_mr) row tiles x ceil(n/direct_nr) column panels, tile
  // q = (row tile q / panels, panel q % panels), each with all its depth
  // slices. B in place needs cs_b == 1, and n % direct_nr == 0 unless
  // direct_masks_edges; otherwise packed_b holds the whole B packed
  // (pack_whole). Same bits as direct().
  void (*direct_tiles)(const GemmProblem<T>& problem, std::int64_t kc,
                       const T* packed_b, std::int64_t tile_begin,
                       std::int64_t tile_end) = nullptr;
};

template <class T>
using NaiveGemmFn = void (*)(const GemmProblem<T>& problem);

struct GemmKernels {
  // Optimized family (null in the naive table).
  const GemmKernelSet<float>* f32 = nullptr;
  const GemmKernelSet<double>* f64 = nullptr;
  // Naive family (null in optimized tables).
  NaiveGemmFn<float> naive_f32 = nullptr;
  NaiveGemmFn<double> naive_f64 = nullptr;
  // The half GEMM's fast mode (gemm_half_fast.cc): a set whose elements are
  // 32-bit words of two bf16 depth values and whose depth step is the CPU's
  // bf16 pair dot product, with kCacheModelFixedKc blocking. It runs only
  // where the CPU has `bf16_pairs_needs` as well as the table's own
  // features (null set: this level has no such kernel).
  const GemmKernelSet<float>* bf16_pairs = nullptr;
  bool platform::CpuFeatures::*bf16_pairs_needs = nullptr;
  const char* bf16_pairs_feature = nullptr;  // its name, for errors and plans
};

}  // namespace tessera::core
