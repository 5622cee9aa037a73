// GEMM kernel sets of the simd128 backend: the same tiles (2 x 16 f32,
// 2 x 8 f64), blocking table and operation order as sse2 (see
// gemm_kernel_sse2.cc), so a wasm run and a native SSE2 run give the same
// bits.
#include "core/src/gemm/gemm_kernel_sets.hpp"
#include "core/src/gemm/gemm_microkernel.hpp"
#include "core/src/simd/vec_simd128.hpp"

namespace tessera::core::gemm {

constinit const GemmKernelSet<float> kSimd128F32 =
    make_kernel_set<simd::simd128::F32, 2, 4, 2, 1>(GemmBlockingRule::kFixedPortable);
constinit const GemmKernelSet<double> kSimd128F64 =
    make_kernel_set<simd::simd128::F64, 2, 4, 2, 1>(GemmBlockingRule::kFixedPortable);

}  // namespace tessera::core::gemm
