// GEMM kernel sets of the scalar backend: 4 x 4 tiles (16 scalar
// accumulators fit the 16 FP registers of x86-64 and of wasm engines), fixed
// portable blocking and unfused multiply-add, so scalar results are the same
// on every target (and equal to the SSE2 and SIMD128 ones).
#include "core/src/gemm/gemm_kernel_sets.hpp"
#include "core/src/gemm/gemm_microkernel.hpp"
#include "core/src/simd/vec_scalar.hpp"

namespace tessera::core::gemm {

constinit const GemmKernelSet<float> kScalarF32 =
    make_kernel_set<simd::scalar::F32, 4, 4, 4>(GemmBlockingRule::kFixedPortable);
constinit const GemmKernelSet<double> kScalarF64 =
    make_kernel_set<simd::scalar::F64, 4, 4, 4>(GemmBlockingRule::kFixedPortable);

}  // namespace tessera::core::gemm
