// The avx512 backend's kernel sets, referenced by address from its kernel
// table (kernels_avx512.cc) and from avx512_vnni's, which shares everything
// but the integer GEMM (kernels_avx512_vnni.cc): the GEMM sets, each
// defined in its own translation unit (gemm_f32_avx512.cc,
// gemm_f64_avx512.cc), and the elementwise, dot/gemv and reduction sets
// (kernels_avx512.cc).
//
// GEMM kernel sets of the avx512 backend: packed tiles of 6 x 4 vectors
// (6 x 64 f32, 6 x 32 f64), direct tiles of 8 x 2 vectors (8 x 32, 8 x 16),
// one depth step per loop iteration.
//  - Packed 6 x 4: 24 accumulators fed by 4 B loads and 6 broadcasts per
//    step (10 loads per 24 FMAs; 8 x 2 needs 10 per 16). All three of
//    8 x 2, 6 x 4 and 12 x 2 run at ~215 GFLOP/s f32 with the operands in
//    L2 (Zen 5), so the gain is in the driver: fewer, wider column panels.
//    Measured side by side (tessera-cli gemm, 8-16 alternated runs): sgemm
//    1024/2048 one thread 1-2% faster, two threads 1-3%; dgemm 2048 no longer
//    drops to 70 GFLOP/s in some runs (86-89 against 70-86).
//  - mr 6 is also AVX2's: the cache model's kc depends on mr, so the two
//    levels slice every sum alike and give the same bits on one machine
//    (tests/core/gemm_repro_test.cc).
//  - Direct 8 x 2: small products are often narrower than 64 columns, and
//    eight rows of A read in place need only four stride registers. The
//    direct path reads a prepacked B inside its 64-wide panels.
//  - f32 on one worker: direct tiles of 4 x 4 vectors over full 64-column
//    panels wherever an edge tile wastes at most 1/8 of the rows
//    (direct_wide_rows: every m of 24 or more), and one tile of 1-4 vectors
//    for a last panel wider than 32 columns. The wide tile reads each row of
//    B whole (40^3-48^3 in cache ~14% faster than 8 x 2); four rows rather
//    than six: 16 accumulators with no spill, edges of at most 3 rows (Zen
//    4, one thread: 1000 x 64^3 from memory 7.2-7.4 -> 5.7-5.8 ms a batch,
//    1024 x 1024 x 16 84-94 -> 101-104 GFLOP/s, 4 x 64 x 64 70 -> 101; m a
//    multiple of 6 but not of 4 lost 4-7%: 30 x 64 x 64 111 -> 107). f64
//    keeps 8 x 2 there: with a 6 x 4 direct tile 96^3 took 20.9 us against
//    16.5, 32^3 850 ns against 650.
//  - Unroll 1: GCC 12 spills accumulators of the 4-step unrolled loop to
//    the stack, and the 2-step loop (8 x 2 tile) ran sgemm 1024 at 155 against 180
//    GFLOP/s; one step per iteration allocates cleanly.
#pragma once

#include "core/src/isa/backend_table.hpp"

namespace tessera::core::avx512 {

// f64: packed 6 x 4 vectors, direct 8 x 2 everywhere (no wide direct tile).
inline constexpr GemmTiles kGemmTilesF64 = {
    .mr = 6,
    .nr_vectors = 4,
    .unroll = 1,
    .direct_mr = 8,
    .direct_nr_vectors = 2,
    .wide_mr = 8,
    .wide_nr_vectors = 2,
    .direct_tail_mr = 0,
    .blocking = GemmBlockingRule::kCacheModel,
    .direct_pack_b_bytes = 0,
};
// f32: the same, and one worker's full panels on the wide 4 x 4 tile.
inline constexpr GemmTiles kGemmTilesF32 = [] {
  GemmTiles tiles = kGemmTilesF64;
  tiles.wide_mr = 4;
  tiles.wide_nr_vectors = 4;
  return tiles;
}();

// The half GEMM's fast mode: the f32 tiles over bf16 pairs (vdpbf16ps),
// each depth step two depth values, sliced at kFixedDepthKc pairs on every
// host (gemm_bf16_avx512.cc, compiled with -mavx512bf16 as well).
inline constexpr GemmTiles kGemmTilesBf16Pairs = [] {
  GemmTiles tiles = kGemmTilesF32;
  tiles.blocking = GemmBlockingRule::kCacheModelFixedKc;
  return tiles;
}();

extern const GemmKernelSet<float> kGemmF32;
extern const GemmKernelSet<float> kGemmBf16Pairs;
extern const GemmKernelSet<double> kGemmF64;
extern const TraitKernelSets kSets;

// The GEMM kernels of every table on the avx512 sets.
inline constexpr GemmKernels kGemmKernels = {
    .f32 = &kGemmF32,
    .f64 = &kGemmF64,
    .bf16_pairs = &kGemmBf16Pairs,
    .bf16_pairs_needs = &platform::CpuFeatures::avx512bf16,
    .bf16_pairs_feature = "AVX512_BF16",
};

}  // namespace tessera::core::avx512
