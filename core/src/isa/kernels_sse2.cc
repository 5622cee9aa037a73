// The sse2 backend: the generic kernel bodies (elementwise, GEMM)
// instantiated with the sse2 vector traits (core/src/simd/vec_sse2.hpp),
// and the kernel table the registry finds them by. Built only where this ISA
// is built, with its compiler flags (the tessera_isa_backend line in
// toolchains/modules/TesseraTarget.cmake; CMake adds them by the file-name
// suffix).
//
// GEMM kernel sets of the sse2 backend: the 128-bit levels' shared tiles
// (gemm_tiles_128.hpp), so sse2 gives simd128's bits.
#include "core/src/isa/backend_table.hpp"
#include "core/src/isa/gemm_tiles_128.hpp"
#include "core/src/simd/vec_sse2.hpp"

namespace tessera::core::sse2 {
namespace {

constinit const GemmKernelSet<float> kGemmF32 =
    gemm::make_kernel_set<simd::sse2::F32, kGemmTiles128>();
constinit const GemmKernelSet<double> kGemmF64 =
    gemm::make_kernel_set<simd::sse2::F64, kGemmTiles128>();

constinit const TraitKernelSets kSets = trait_kernel_sets<simd::sse2::F32, simd::sse2::F64, simd::sse2::Half>();
constinit const QGemmKernelSet kQGemm =
    qgemm::make_qgemm_kernel_set<simd::sse2::I8Pairs, 4, 2>("pmaddwd");

}  // namespace

constinit const KernelTable kKernelTable =
    optimized_table(Isa::kSse2, {&platform::CpuFeatures::sse2},
                    kSets, {&kGemmF32, &kGemmF64}, {&kQGemm});

}  // namespace tessera::core::sse2
