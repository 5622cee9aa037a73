// GEMM kernel sets of the avx512 backend: 8 x 2-vector tiles (8 x 32 f32,
// 8 x 16 f64) on both paths, one depth step per loop iteration.
//  - 8 rows, not the 14 that fill the register file (28 accumulators): with
//    L2-resident packed operands both reach ~98% of the FMA peak on Zen 4
//    (115 GFLOP/s f32), but the 8-row driver ran sgemm 1024/2048 at 103-107
//    against 98-102 GFLOP/s for 14 rows (dgemm 1024: 52 vs 50), and powers
//    of two leave no edge tiles. Eight rows of A read in place (direct path)
//    need only four stride registers.
//  - Unroll 1: GCC 12 spills accumulators of the 4-step unrolled loop to
//    the stack; one step per iteration allocates cleanly at the same speed.
#include "core/src/gemm/gemm_kernel_sets.hpp"
#include "core/src/gemm/gemm_microkernel.hpp"
#include "core/src/simd/vec_avx512.hpp"

namespace tessera::core::gemm {

constinit const GemmKernelSet<float> kAvx512F32 =
    make_kernel_set<simd::avx512::F32, 8, 2, 8, 1>(GemmBlockingRule::kCacheModel);
constinit const GemmKernelSet<double> kAvx512F64 =
    make_kernel_set<simd::avx512::F64, 8, 2, 8, 1>(GemmBlockingRule::kCacheModel);

}  // namespace tessera::core::gemm
