// GEMM kernel sets of the sse2 backend: 4 x 3-vector tiles (4 x 12 f32,
// 4 x 6 f64), one depth step per loop iteration. Tiles, blocking table and
// operation order (multiply, then add) are exactly those of the simd128
// backend, so both give the same bits; the tile was chosen for V8, which
// runs the simd128 copy (4 x 12 beat 6 x 8, 5 x 8, 4 x 8 and 3 x 16 by
// 5-15% at 1024^3 under node; the unroll of 4 cost ~6%).
#include "core/src/gemm/gemm_kernel_sets.hpp"
#include "core/src/gemm/gemm_microkernel.hpp"
#include "core/src/simd/vec_sse2.hpp"

namespace tessera::core::gemm {

constinit const GemmKernelSet<float> kSse2F32 =
    make_kernel_set<simd::sse2::F32, 4, 3, 4, 1>(GemmBlockingRule::kFixedPortable);
constinit const GemmKernelSet<double> kSse2F64 =
    make_kernel_set<simd::sse2::F64, 4, 3, 4, 1>(GemmBlockingRule::kFixedPortable);

}  // namespace tessera::core::gemm
