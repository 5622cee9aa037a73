// The avx512_vnni backend: the avx512 level's kernel sets (avx512_sets.hpp)
// plus the integer GEMM on vpdpbusd (core/src/simd/vec_avx512_vnni.hpp),
// and the kernel table the registry finds them by. Built only where this
// ISA is built, with its compiler flags (the tessera_isa_backend line in
// toolchains/modules/TesseraTarget.cmake).
//
// Integer GEMM tile: 6 x 4 vectors (6 x 64 int32 sums), 24 accumulators fed
// by 4 B loads and 6 broadcasts of 4 A bytes per group of 4 depth values:
// the f32 avx512 tile's shape, 4 multiply-adds per lane and instruction.
#include "core/src/isa/avx512_sets.hpp"
#include "core/src/simd/vec_avx512_vnni.hpp"

namespace tessera::core::avx512_vnni {
namespace {

constinit const QGemmKernelSet kQGemm =
    qgemm::make_qgemm_kernel_set<simd::avx512_vnni::I8Quads, 6, 4>("vpdpbusd zmm");

}  // namespace

constinit const KernelTable kKernelTable =
    optimized_table(Isa::kAvx512Vnni,
                    {&platform::CpuFeatures::avx512f, &platform::CpuFeatures::avx512vl,
                     &platform::CpuFeatures::avx512bw, &platform::CpuFeatures::avx512dq,
                     &platform::CpuFeatures::avx512vnni, &platform::CpuFeatures::f16c},
                    avx512::kSets, avx512::kGemmKernels, {&kQGemm});

}  // namespace tessera::core::avx512_vnni
