// The sse2 backend: the generic kernel bodies (elementwise, GEMM)
// instantiated with the sse2 vector traits (core/src/simd/vec_sse2.hpp),
// and the kernel table the registry finds them by. Built only where this ISA
// is built, with its compiler flags (the tessera_isa_backend line in
// toolchains/modules/TesseraTarget.cmake; CMake adds them by the file-name
// suffix).
//
// GEMM kernel sets of the sse2 backend: 2 x 4-vector tiles (2 x 16 f32,
// 2 x 8 f64), one depth step per loop iteration. Tiles, blocking table and
// operation order (multiply, then add) are exactly those of the simd128
// backend, so both give the same bits; the tile was chosen for V8, which
// runs the simd128 copy: 8 accumulators leave room among x64's 16 xmm
// registers for the 4 B vectors, the broadcast and the product V8 needs
// between multiply and add. Under node, alternating builds, sgemm 1024^3
// ran 39.8-42.2 GFLOP/s against 34.4-35.2 for the previous 4 x 12 tile,
// dgemm 512^3 19-20 against 18.2-18.5 (4 x 8 was close behind; 6 x 8,
// 5 x 8, 3 x 12, 3 x 16, 2 x 20, 2 x 24 and 1 x 32 were slower).
#include "core/src/blas1/blas1_body.hpp"
#include "core/src/elementwise/elementwise_body.hpp"
#include "core/src/gemm/gemm_microkernel.hpp"
#include "core/src/reduce/reduce_body.hpp"
#include "core/src/registry/backends.hpp"
#include "core/src/simd/vec_sse2.hpp"

namespace tessera::core::sse2 {
namespace {

constinit const GemmKernelSet<float> kGemmF32 =
    gemm::make_kernel_set<simd::sse2::F32, 2, 4, 2, 1>(GemmBlockingRule::kFixedPortable);
constinit const GemmKernelSet<double> kGemmF64 =
    gemm::make_kernel_set<simd::sse2::F64, 2, 4, 2, 1>(GemmBlockingRule::kFixedPortable);

}  // namespace

constinit const KernelTable kKernelTable = {
    KernelFamily::kOptimized,
    Isa::kSse2,
    {&platform::CpuFeatures::sse2},
    elementwise::elementwise_kernels<simd::sse2::F32, simd::sse2::F64>(),
    {&kGemmF32, &kGemmF64, nullptr, nullptr},
    blas1::blas1_kernels<simd::sse2::F32, simd::sse2::F64>(),
    reduce::reduce_kernels<simd::sse2::F32, simd::sse2::F64>(),
};

}  // namespace tessera::core::sse2
