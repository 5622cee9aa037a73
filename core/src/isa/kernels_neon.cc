// The neon backend: the generic kernel bodies (elementwise, GEMM)
// instantiated with the neon vector traits (core/src/simd/vec_neon.hpp),
// and the kernel table the registry finds them by. Built only where this ISA
// is built, with its compiler flags (the tessera_isa_backend line in
// toolchains/modules/TesseraTarget.cmake; CMake adds them by the file-name
// suffix).
//
// GEMM kernel sets of the neon backend: 8 x 3-vector tiles (8 x 12 f32,
// 8 x 6 f64): 24 FMA accumulators, 3 B vectors and broadcasts in the 32 v
// registers; the direct path uses the same tile. One depth step per loop
// iteration (unroll): with four unrolled steps GCC 12
// spilled 16 values to the stack among the 96 fmla of each iteration; one
// step spills none (ctest aarch64.neon_spills reads the disassembly). The
// per-element order of the sums is the same either way.
#include "core/src/blas1/blas1_body.hpp"
#include "core/src/elementwise/elementwise_body.hpp"
#include "core/src/gemm/gemm_microkernel.hpp"
#include "core/src/isa/neon_sets.hpp"
#include "core/src/qgemm/qgemm_microkernel.hpp"
#include "core/src/quantize/quantize_body.hpp"
#include "core/src/reduce/reduce_body.hpp"
#include "core/src/registry/backends.hpp"
#include "core/src/simd/vec_neon.hpp"

namespace tessera::core::neon {
namespace {

constexpr GemmTiles kTiles = {
    .mr = 8,
    .nr_vectors = 3,
    .unroll = 1,
    .direct_mr = 8,
    .direct_nr_vectors = 3,
    .wide_mr = 8,
    .wide_nr_vectors = 3,
    .direct_tail_mr = 0,
    .blocking = GemmBlockingRule::kCacheModel,
    .direct_pack_b_bytes = 0,
};

}  // namespace

constinit const GemmKernelSet<float> kGemmF32 = gemm::make_kernel_set<simd::neon::F32, kTiles>();
constinit const GemmKernelSet<double> kGemmF64 = gemm::make_kernel_set<simd::neon::F64, kTiles>();
constinit const ElementwiseKernels kElementwise =
    elementwise::elementwise_kernels<simd::neon::F32, simd::neon::F64>();
constinit const Blas1Kernels kBlas1 = blas1::blas1_kernels<simd::neon::F32, simd::neon::F64>();
constinit const ReduceKernels kReduce = reduce::reduce_kernels<simd::neon::F32, simd::neon::F64>();
constinit const QuantizeKernels kQuantize = quantize::quantize_kernels<simd::neon::F32>();
constinit const QGemmKernelSet kQGemm =
    qgemm::make_qgemm_kernel_set<simd::neon::I8Pairs, 6, 3>("smull + addp");

constinit const KernelTable kKernelTable = {
    KernelFamily::kOptimized,
    Isa::kNeon,
    {&platform::CpuFeatures::neon},
    &kElementwise,
    {&kGemmF32, &kGemmF64, nullptr, nullptr},
    &kBlas1,
    &kReduce,
    {&kQGemm, nullptr},
    &kQuantize,
};

}  // namespace tessera::core::neon
