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
#include "core/src/isa/avx512_sets.hpp"
#include "core/src/isa/backend_table.hpp"
#include "core/src/simd/vec_avx512.hpp"

namespace tessera::core::avx512 {

constinit const TraitKernelSets kSets = trait_kernel_sets<simd::avx512::F32, simd::avx512::F64, simd::avx512::Half>();
constinit const QGemmKernelSet kQGemm =
    qgemm::make_qgemm_kernel_set<simd::avx512::I8Pairs, 6, 4>("vpmaddwd zmm");

// Compiled with F + VL + BW + DQ and F16C (TESSERA_FLAGS_avx512, the Skylake-SP
// baseline), so the compiler may use any of them.
constinit const KernelTable kKernelTable =
    optimized_table(Isa::kAvx512,
                    {&platform::CpuFeatures::avx512f, &platform::CpuFeatures::avx512vl,
                     &platform::CpuFeatures::avx512bw, &platform::CpuFeatures::avx512dq,
                     &platform::CpuFeatures::f16c},
                    kSets, kGemmKernels, {&kQGemm});

}  // namespace tessera::core::avx512
