// The avx2_vnni backend: the avx2 level's kernel sets (avx2_sets.hpp) plus
// the integer GEMM on VEX-encoded vpdpbusd (core/src/simd/vec_avx2_vnni.hpp),
// and the kernel table the registry finds them by. Built only where this
// ISA is built, with its compiler flags (the tessera_isa_backend line in
// toolchains/modules/TesseraTarget.cmake).
//
// Integer GEMM tile: 6 x 2 vectors (6 x 16 int32 sums), 12 accumulators fed
// by 2 B loads and 6 broadcasts of 4 A bytes per group of 4 depth values:
// the avx2 f32 tile's shape, 15 of the 16 ymm registers.
#include "core/src/isa/avx2_sets.hpp"
#include "core/src/simd/vec_avx2_vnni.hpp"

namespace tessera::core::avx2_vnni {
namespace {

constinit const QGemmKernelSet kQGemm =
    qgemm::make_qgemm_kernel_set<simd::avx2_vnni::I8Quads, 6, 2>("vpdpbusd ymm (AVX-VNNI)");

}  // namespace

constinit const KernelTable kKernelTable =
    optimized_table(Isa::kAvx2Vnni,
                    {&platform::CpuFeatures::avx2, &platform::CpuFeatures::fma,
                     &platform::CpuFeatures::f16c, &platform::CpuFeatures::avxvnni},
                    avx2::kSets, {&avx2::kGemmF32, &avx2::kGemmF64}, {&kQGemm});

}  // namespace tessera::core::avx2_vnni
