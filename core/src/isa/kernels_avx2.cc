// The avx2 backend: the generic kernel bodies (elementwise, GEMM)
// instantiated with the avx2 vector traits (core/src/simd/vec_avx2.hpp),
// and the kernel table the registry finds them by. Built only where this ISA
// is built, with its compiler flags (the tessera_isa_backend line in
// toolchains/modules/TesseraTarget.cmake; CMake adds them by the file-name
// suffix).
//
// GEMM kernel sets of the avx2 backend: 6 x 2-vector tiles (6 x 16 f32,
// 6 x 8 f64): 12 FMA accumulators, 2 B vectors and 1 broadcast in the 16 ymm
// registers. The direct path uses the same 6-row tile (a 4-row one, 8
// accumulators, left the two FMA pipes short of independent chains: 67 vs 87
// GFLOP/s at 32^3). One depth step per loop iteration: GCC 12 spilled
// accumulators of the 4-step unrolled loop (15 of the 16 registers are
// live); unrolled, sgemm 1024 ran at 69-73 GFLOP/s, now 89-104 (dgemm
// 35-36, now 42-51) on Zen 4 with TESSERA_ISA=avx2.
#include "core/src/isa/avx2_sets.hpp"
#include "core/src/simd/vec_avx2.hpp"

namespace tessera::core::avx2 {
namespace {

// 6 x 2-vector tiles; the serial direct path's last rows on a 4-row tile
// (direct_main_rows): 128 = 20 x 6 + 2 x 4 rows, not 21 x 6 and a 6-row
// tile computing 2. The direct path packs a B of more than half a 32 KiB
// L1d that more than eight row tiles re-read (direct_packs_b).
constexpr GemmTiles kTiles = {
    .mr = 6,
    .nr_vectors = 2,
    .unroll = 1,
    .direct_mr = 6,
    .direct_nr_vectors = 2,
    .wide_mr = 6,
    .wide_nr_vectors = 2,
    .direct_tail_mr = 4,
    .blocking = GemmBlockingRule::kCacheModel,
    .direct_pack_b_bytes = 16 * 1024,
};
constinit const QGemmKernelSet kQGemm =
    qgemm::make_qgemm_kernel_set<simd::avx2::I8Pairs, 6, 2>("vpmaddwd ymm");

}  // namespace

constinit const GemmKernelSet<float> kGemmF32 = gemm::make_kernel_set<simd::avx2::F32, kTiles>();
constinit const GemmKernelSet<double> kGemmF64 = gemm::make_kernel_set<simd::avx2::F64, kTiles>();

constinit const TraitKernelSets kSets = trait_kernel_sets<simd::avx2::F32, simd::avx2::F64, simd::avx2::Half>();

constinit const KernelTable kKernelTable =
    optimized_table(Isa::kAvx2, {&platform::CpuFeatures::avx2, &platform::CpuFeatures::fma,
                     &platform::CpuFeatures::f16c}, kSets,
                    {&kGemmF32, &kGemmF64}, {&kQGemm});

}  // namespace tessera::core::avx2
