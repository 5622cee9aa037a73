// GEMM kernel sets of the avx512 backend: 14 x 2-vector tiles (14 x 32 f32,
// 14 x 16 f64): 28 FMA accumulators, 2 B vectors and 1 broadcast in the 32
// zmm registers. The direct path uses 8-row tiles (8 x 32 / 8 x 16): eight
// rows of A read in place need only four stride registers, and small sizes
// divide by 8.
#include "core/src/gemm/gemm_kernel_sets.hpp"
#include "core/src/gemm/gemm_microkernel.hpp"
#include "core/src/simd/vec_avx512.hpp"

namespace tessera::core::gemm {

constinit const GemmKernelSet<float> kAvx512F32 =
    make_kernel_set<simd::avx512::F32, 14, 2, 8>(GemmBlockingRule::kCacheModel);
constinit const GemmKernelSet<double> kAvx512F64 =
    make_kernel_set<simd::avx512::F64, 14, 2, 8>(GemmBlockingRule::kCacheModel);

}  // namespace tessera::core::gemm
