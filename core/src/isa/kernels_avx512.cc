// The avx512 backend: the generic kernel bodies (elementwise, GEMM)
// instantiated with the avx512 vector traits (core/src/simd/vec_avx512.hpp),
// and the kernel table the registry finds them by. Built only where this ISA
// is built, with its compiler flags (the tessera_isa_backend line in
// toolchains/modules/TesseraTarget.cmake; CMake adds them by the file-name
// suffix).
//
// The GEMM kernel sets are defined in gemm_f32_avx512.cc and
// gemm_f64_avx512.cc (see avx512_sets.hpp): three translation units
// instead of one, so a build compiles them in parallel. Under the
// sanitizers this file alone took ~47 CPU minutes on a Zen 3 (AVX-512
// direct tile family, clang 19, ASan + UBSan + fuzzer coverage), the last
// object of the asan-ubsan build by half an hour.
#include "core/src/blas1/blas1_body.hpp"
#include "core/src/elementwise/elementwise_body.hpp"
#include "core/src/isa/avx512_sets.hpp"
#include "core/src/qgemm/qgemm_microkernel.hpp"
#include "core/src/quantize/quantize_body.hpp"
#include "core/src/reduce/reduce_body.hpp"
#include "core/src/registry/backends.hpp"
#include "core/src/simd/vec_avx512.hpp"

namespace tessera::core::avx512 {

constinit const ElementwiseKernels kElementwise =
    elementwise::elementwise_kernels<simd::avx512::F32, simd::avx512::F64>();
constinit const Blas1Kernels kBlas1 = blas1::blas1_kernels<simd::avx512::F32, simd::avx512::F64>();
constinit const ReduceKernels kReduce = reduce::reduce_kernels<simd::avx512::F32, simd::avx512::F64>();
constinit const QuantizeKernels kQuantize = quantize::quantize_kernels<simd::avx512::F32>();
constinit const QGemmKernelSet kQGemm =
    qgemm::make_qgemm_kernel_set<simd::avx512::I8Pairs, 6, 4>("vpmaddwd zmm");

constinit const KernelTable kKernelTable = {
    KernelFamily::kOptimized,
    Isa::kAvx512,
    // Compiled with F + VL + BW + DQ (TESSERA_FLAGS_avx512, the Skylake-SP
    // baseline), so the compiler may use any of them.
    {&platform::CpuFeatures::avx512f, &platform::CpuFeatures::avx512vl,
     &platform::CpuFeatures::avx512bw, &platform::CpuFeatures::avx512dq},
    &kElementwise,
    {&kGemmF32, &kGemmF64, nullptr, nullptr},
    &kBlas1,
    &kReduce,
    {&kQGemm, nullptr},
    &kQuantize,
};

}  // namespace tessera::core::avx512
