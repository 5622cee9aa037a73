// The simd128 backend: the generic kernel bodies (elementwise, GEMM)
// instantiated with the simd128 vector traits (core/src/simd/vec_simd128.hpp),
// and the kernel table the registry finds them by. Built only where this ISA
// is built, with its compiler flags (the tessera_isa_backend line in
// toolchains/modules/TesseraTarget.cmake; CMake adds them by the file-name
// suffix).
//
// GEMM kernel sets of the simd128 backend: the 128-bit levels' shared tiles
// (gemm_tiles_128.hpp), blocking table and operation order, so a wasm run
// and a native SSE2 run give the same bits.
#include "core/src/blas1/blas1_body.hpp"
#include "core/src/elementwise/elementwise_body.hpp"
#include "core/src/gemm/gemm_microkernel.hpp"
#include "core/src/qgemm/qgemm_microkernel.hpp"
#include "core/src/quantize/quantize_body.hpp"
#include "core/src/isa/gemm_tiles_128.hpp"
#include "core/src/reduce/reduce_body.hpp"
#include "core/src/registry/backends.hpp"
#include "core/src/simd/vec_simd128.hpp"

namespace tessera::core::simd128 {
namespace {

constinit const GemmKernelSet<float> kGemmF32 =
    gemm::make_kernel_set<simd::simd128::F32, kGemmTiles128>();
constinit const GemmKernelSet<double> kGemmF64 =
    gemm::make_kernel_set<simd::simd128::F64, kGemmTiles128>();

constinit const ElementwiseKernels kElementwise =
    elementwise::elementwise_kernels<simd::simd128::F32, simd::simd128::F64>();
constinit const Blas1Kernels kBlas1 = blas1::blas1_kernels<simd::simd128::F32, simd::simd128::F64>();
constinit const ReduceKernels kReduce = reduce::reduce_kernels<simd::simd128::F32, simd::simd128::F64>();
constinit const QuantizeKernels kQuantize = quantize::quantize_kernels<simd::simd128::F32>();
constinit const QGemmKernelSet kQGemm =
    qgemm::make_qgemm_kernel_set<simd::simd128::I8Pairs, 4, 2>("i32x4.dot_i16x8_s");

}  // namespace

constinit const KernelTable kKernelTable = {
    KernelFamily::kOptimized,
    Isa::kSimd128,
    {&platform::CpuFeatures::simd128},
    &kElementwise,
    {&kGemmF32, &kGemmF64, nullptr, nullptr},
    &kBlas1,
    &kReduce,
    {&kQGemm, nullptr},
    &kQuantize,
};

}  // namespace tessera::core::simd128
