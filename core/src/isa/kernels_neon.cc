// The neon backend: the generic kernel bodies (elementwise, GEMM)
// instantiated with the neon vector traits (core/src/simd/vec_neon.hpp),
// and the kernel table the registry finds them by. Built only where this ISA
// is built, with its compiler flags (the tessera_isa_backend line in
// toolchains/modules/TesseraTarget.cmake; CMake adds them by the file-name
// suffix).
//
// GEMM kernel sets of the neon backend: 8 x 3-vector tiles (8 x 12 f32,
// 8 x 6 f64): 24 FMA accumulators, 3 B vectors and broadcasts in the 32 v
// registers; the direct path uses the same tile. One depth step per loop
// iteration (unroll): with four unrolled steps GCC 12
// spilled 16 values to the stack among the 96 fmla of each iteration; one
// step spills none (ctest aarch64.neon_spills reads the disassembly). The
// per-element order of the sums is the same either way.
#include "core/src/isa/backend_table.hpp"
#include "core/src/isa/neon_sets.hpp"
#include "core/src/simd/vec_neon.hpp"

namespace tessera::core::neon {
namespace {

constexpr GemmTiles kTiles = {
    .mr = 8,
    .nr_vectors = 3,
    .unroll = 1,
    .direct_mr = 8,
    .direct_nr_vectors = 3,
    .wide_mr = 8,
    .wide_nr_vectors = 3,
    .direct_tail_mr = 0,
    .blocking = GemmBlockingRule::kCacheModel,
    .direct_pack_b_bytes = 0,
};

}  // namespace

constinit const GemmKernelSet<float> kGemmF32 = gemm::make_kernel_set<simd::neon::F32, kTiles>();
constinit const GemmKernelSet<double> kGemmF64 = gemm::make_kernel_set<simd::neon::F64, kTiles>();
constinit const TraitKernelSets kSets = trait_kernel_sets<simd::neon::F32, simd::neon::F64, simd::neon::Half>();
constinit const QGemmKernelSet kQGemm =
    qgemm::make_qgemm_kernel_set<simd::neon::I8Pairs, 6, 3>("smull + addp");

constinit const KernelTable kKernelTable =
    optimized_table(Isa::kNeon, {&platform::CpuFeatures::neon}, kSets, {&kGemmF32, &kGemmF64},
                    {&kQGemm});

}  // namespace tessera::core::neon
