// The avx512 backend's f32 GEMM kernel set (avx512_sets.hpp).
#include "core/src/gemm/gemm_microkernel.hpp"
#include "core/src/isa/avx512_sets.hpp"
#include "core/src/simd/vec_avx512.hpp"

namespace tessera::core::avx512 {

constinit const GemmKernelSet<float> kGemmF32 =
    gemm::make_kernel_set<simd::avx512::F32, kGemmTilesF32>();

}  // namespace tessera::core::avx512
