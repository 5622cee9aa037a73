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
#include "core/src/isa/backend_table.hpp"
#include "core/src/isa/gemm_tiles_128.hpp"
#include "core/src/simd/vec_simd128.hpp"

namespace tessera::core::simd128 {
namespace {

constinit const GemmKernelSet<float> kGemmF32 =
    gemm::make_kernel_set<simd::simd128::F32, kGemmTiles128>();
constinit const GemmKernelSet<double> kGemmF64 =
    gemm::make_kernel_set<simd::simd128::F64, kGemmTiles128>();

constinit const TraitKernelSets kSets = trait_kernel_sets<simd::simd128::F32, simd::simd128::F64, simd::simd128::Half>();
constinit const QGemmKernelSet kQGemm =
    qgemm::make_qgemm_kernel_set<simd::simd128::I8Pairs, 4, 2>("i32x4.dot_i16x8_s");

}  // namespace

constinit const KernelTable kKernelTable =
    optimized_table(Isa::kSimd128, {&platform::CpuFeatures::simd128},
                    kSets, {&kGemmF32, &kGemmF64}, {&kQGemm});

}  // namespace tessera::core::simd128
