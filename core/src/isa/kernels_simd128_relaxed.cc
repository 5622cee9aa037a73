// The simd128_relaxed backend: the generic kernel bodies instantiated with
// the relaxed traits (core/src/simd/vec_simd128_relaxed.hpp), whose
// multiply-add is relaxed_madd, and the kernel table the registry finds
// them by. Built only in a module made with TESSERA_WASM_RELAXED_SIMD (the
// wasi-relaxed preset), with -mrelaxed-simd on this file alone.
//
// GEMM: simd128's tiles (gemm_tiles_128.hpp) and fixed blocking table, one
// fused multiply-add per step where simd128 has a multiply and an add.
#include "core/src/blas1/blas1_body.hpp"
#include "core/src/elementwise/elementwise_body.hpp"
#include "core/src/gemm/gemm_microkernel.hpp"
#include "core/src/qgemm/qgemm_microkernel.hpp"
#include "core/src/quantize/quantize_body.hpp"
#include "core/src/isa/gemm_tiles_128.hpp"
#include "core/src/reduce/reduce_body.hpp"
#include "core/src/registry/backends.hpp"
#include "core/src/simd/vec_simd128_relaxed.hpp"

namespace tessera::core::simd128_relaxed {
namespace {

using simd::simd128_relaxed::F32;
using simd::simd128_relaxed::F64;

constinit const GemmKernelSet<float> kGemmF32 = gemm::make_kernel_set<F32, kGemmTiles128>();
constinit const GemmKernelSet<double> kGemmF64 = gemm::make_kernel_set<F64, kGemmTiles128>();

constinit const ElementwiseKernels kElementwise =
    elementwise::elementwise_kernels<F32, F64>();
constinit const Blas1Kernels kBlas1 = blas1::blas1_kernels<F32, F64>();
constinit const ReduceKernels kReduce = reduce::reduce_kernels<F32, F64>();
constinit const QuantizeKernels kQuantize = quantize::quantize_kernels<F32>();
constinit const QGemmKernelSet kQGemm =
    qgemm::make_qgemm_kernel_set<simd::simd128_relaxed::I8Planes, 2, 2>("i16x8.relaxed_dot_i8x16_i7x16_s, 7-bit planes");

}  // namespace

constinit const KernelTable kKernelTable = {
    KernelFamily::kOptimized,
    Isa::kSimd128Relaxed,
    {&platform::CpuFeatures::simd128, &platform::CpuFeatures::relaxed_simd},
    &kElementwise,
    {&kGemmF32, &kGemmF64, nullptr, nullptr},
    &kBlas1,
    &kReduce,
    {&kQGemm, nullptr},
    &kQuantize,
};

}  // namespace tessera::core::simd128_relaxed
