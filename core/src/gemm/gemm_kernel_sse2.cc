// GEMM kernel sets of the sse2 backend: 6 x 2-vector tiles (6 x 8 f32, 6 x 4 f64): 12 accumulators,
// 2 B vectors, 1 broadcast and 1 product temporary fill the 16 xmm
// registers. Tiles, blocking table and operation order (multiply, then add)
// are exactly those of the simd128 backend, so both give the same bits.
#include "core/src/gemm/gemm_kernel_sets.hpp"
#include "core/src/gemm/gemm_microkernel.hpp"
#include "core/src/simd/vec_sse2.hpp"

namespace tessera::core::gemm {

constinit const GemmKernelSet<float> kSse2F32 =
    make_kernel_set<simd::sse2::F32, 6, 2, 6>(GemmBlockingRule::kFixedPortable);
constinit const GemmKernelSet<double> kSse2F64 =
    make_kernel_set<simd::sse2::F64, 6, 2, 6>(GemmBlockingRule::kFixedPortable);

}  // namespace tessera::core::gemm
