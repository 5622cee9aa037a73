// GEMM kernel sets of the neon backend: 8 x 3-vector tiles (8 x 12 f32,
// 8 x 6 f64): 24 FMA accumulators, 3 B vectors and broadcasts in the 32 v
// registers; the direct path uses the same tile.
#include "core/src/gemm/gemm_kernel_sets.hpp"
#include "core/src/gemm/gemm_microkernel.hpp"
#include "core/src/simd/vec_neon.hpp"

namespace tessera::core::gemm {

constinit const GemmKernelSet<float> kNeonF32 =
    make_kernel_set<simd::neon::F32, 8, 3, 8>(GemmBlockingRule::kCacheModel);
constinit const GemmKernelSet<double> kNeonF64 =
    make_kernel_set<simd::neon::F64, 8, 3, 8>(GemmBlockingRule::kCacheModel);

}  // namespace tessera::core::gemm
