// The avx512 backend's bf16 pair-dot GEMM kernel set (avx512_sets.hpp,
// core/src/simd/vec_avx512_bf16.hpp): the half GEMM's fast mode. This file
// alone is compiled with -mavx512bf16 besides the avx512 flags
// (core/CMakeLists.txt); the tables that hold the set name the CPU feature
// it needs (GemmKernels::bf16_pairs_needs), and the half GEMM checks it
// before it runs the set.
#include "core/src/gemm/gemm_microkernel.hpp"
#include "core/src/isa/avx512_sets.hpp"
#include "core/src/simd/vec_avx512_bf16.hpp"

namespace tessera::core::avx512 {

constinit const GemmKernelSet<float> kGemmBf16Pairs =
    gemm::make_kernel_set<simd::avx512::Bf16Pairs, kGemmTilesBf16Pairs>();

}  // namespace tessera::core::avx512
