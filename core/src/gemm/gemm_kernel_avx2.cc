// GEMM kernel sets of the avx2 backend: 6 x 2-vector tiles (6 x 16 f32,
// 6 x 8 f64): 12 FMA accumulators, 2 B vectors and 1 broadcast in the 16 ymm
// registers. The direct path uses the same 6-row tile (a 4-row one, 8
// accumulators, left the two FMA pipes short of independent chains: 67 vs 87
// GFLOP/s at 32^3). One depth step per loop iteration: GCC 12 spilled
// accumulators of the 4-step unrolled loop (15 of the 16 registers are
// live); unrolled, sgemm 1024 ran at 69-73 GFLOP/s, now 89-104 (dgemm
// 35-36, now 42-51) on Zen 4 with TESSERA_ISA=avx2.
#include "core/src/gemm/gemm_kernel_sets.hpp"
#include "core/src/gemm/gemm_microkernel.hpp"
#include "core/src/simd/vec_avx2.hpp"

namespace tessera::core::gemm {

constinit const GemmKernelSet<float> kAvx2F32 =
    make_kernel_set<simd::avx2::F32, 6, 2, 6, 1>(GemmBlockingRule::kCacheModel);
constinit const GemmKernelSet<double> kAvx2F64 =
    make_kernel_set<simd::avx2::F64, 6, 2, 6, 1>(GemmBlockingRule::kCacheModel);

}  // namespace tessera::core::gemm
