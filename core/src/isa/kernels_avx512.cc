// The avx512 backend: the generic kernel bodies (elementwise, GEMM)
// instantiated with the avx512 vector traits (core/src/simd/vec_avx512.hpp),
// and the kernel table the registry finds them by. Built only where this ISA
// is built, with its compiler flags (the tessera_isa_backend line in
// toolchains/modules/TesseraTarget.cmake; CMake adds them by the file-name
// suffix).
//
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
#include "core/src/blas1/blas1_body.hpp"
#include "core/src/elementwise/elementwise_body.hpp"
#include "core/src/gemm/gemm_microkernel.hpp"
#include "core/src/reduce/reduce_body.hpp"
#include "core/src/registry/backends.hpp"
#include "core/src/simd/vec_avx512.hpp"

namespace tessera::core::avx512 {
namespace {

constinit const GemmKernelSet<float> kGemmF32 =
    gemm::make_kernel_set<simd::avx512::F32, 8, 2, 8, 1>(GemmBlockingRule::kCacheModel);
constinit const GemmKernelSet<double> kGemmF64 =
    gemm::make_kernel_set<simd::avx512::F64, 8, 2, 8, 1>(GemmBlockingRule::kCacheModel);

}  // namespace

constinit const KernelTable kKernelTable = {
    KernelFamily::kOptimized,
    Isa::kAvx512,
    // Compiled with F + VL + BW + DQ (TESSERA_FLAGS_avx512, the Skylake-SP
    // baseline), so the compiler may use any of them.
    {&platform::CpuFeatures::avx512f, &platform::CpuFeatures::avx512vl,
     &platform::CpuFeatures::avx512bw, &platform::CpuFeatures::avx512dq},
    elementwise::elementwise_kernels<simd::avx512::F32, simd::avx512::F64>(),
    {&kGemmF32, &kGemmF64, nullptr, nullptr},
    blas1::blas1_kernels<simd::avx512::F32, simd::avx512::F64>(),
    reduce::reduce_kernels<simd::avx512::F32, simd::avx512::F64>(),
};

}  // namespace tessera::core::avx512
