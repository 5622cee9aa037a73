// The simd128_relaxed backend: the generic kernel bodies instantiated with
// the relaxed traits (core/src/simd/vec_simd128_relaxed.hpp), whose
// multiply-add is relaxed_madd, and the kernel table the registry finds
// them by. Built only in a module made with TESSERA_WASM_RELAXED_SIMD (the
// wasi-relaxed preset), with -mrelaxed-simd on this file alone.
//
// GEMM: simd128's tiles (gemm_tiles_128.hpp) and fixed blocking table, one
// fused multiply-add per step where simd128 has a multiply and an add.
#include "core/src/isa/backend_table.hpp"
#include "core/src/isa/gemm_tiles_128.hpp"
#include "core/src/simd/vec_simd128_relaxed.hpp"

namespace tessera::core::simd128_relaxed {
namespace {

using simd::simd128_relaxed::F32;
using simd::simd128_relaxed::F64;

constinit const GemmKernelSet<float> kGemmF32 = gemm::make_kernel_set<F32, kGemmTiles128>();
constinit const GemmKernelSet<double> kGemmF64 = gemm::make_kernel_set<F64, kGemmTiles128>();

constinit const TraitKernelSets kSets = trait_kernel_sets<F32, F64, simd::simd128::Half>();
constinit const QGemmKernelSet kQGemm =
    qgemm::make_qgemm_kernel_set<simd::simd128_relaxed::I8Planes, 2, 2>("i16x8.relaxed_dot_i8x16_i7x16_s, 7-bit planes");

}  // namespace

constinit const KernelTable kKernelTable =
    optimized_table(Isa::kSimd128Relaxed,
                    {&platform::CpuFeatures::simd128, &platform::CpuFeatures::relaxed_simd},
                    kSets, {&kGemmF32, &kGemmF64}, {&kQGemm});

}  // namespace tessera::core::simd128_relaxed
