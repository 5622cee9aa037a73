// The neon_dotprod backend: the neon level's kernel sets (neon_sets.hpp)
// plus the integer GEMM on sdot (ARMv8.2 DotProd,
// core/src/simd/vec_neon_dotprod.hpp), and the kernel table the registry
// finds them by; the registry picks it where HWCAP reports asimddp.
//
// Integer GEMM tile: 8 x 3 vectors (8 x 12 int32 sums), 24 accumulators,
// 3 B loads and 8 broadcasts per group of 4 depth values: the f32 neon
// tile's shape.
#include "core/src/isa/neon_sets.hpp"
#include "core/src/simd/vec_neon_dotprod.hpp"

namespace tessera::core::neon_dotprod {
namespace {

constinit const QGemmKernelSet kQGemm =
    qgemm::make_qgemm_kernel_set<simd::neon_dotprod::I8Quads, 8, 3>("sdot");

}  // namespace

constinit const KernelTable kKernelTable =
    optimized_table(Isa::kNeonDotprod,
                    {&platform::CpuFeatures::neon, &platform::CpuFeatures::dotprod}, neon::kSets,
                    {&neon::kGemmF32, &neon::kGemmF64}, {&kQGemm});

}  // namespace tessera::core::neon_dotprod
