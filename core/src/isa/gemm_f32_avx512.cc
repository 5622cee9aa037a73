// The avx512 backend's f32 GEMM kernel set (avx512_gemm_sets.hpp).
#include "core/src/gemm/gemm_microkernel.hpp"
#include "core/src/isa/avx512_gemm_sets.hpp"
#include "core/src/simd/vec_avx512.hpp"

namespace tessera::core::avx512 {

// Packed 6 x 4 vectors, direct 8 x 2, and one worker's full panels on the
// wide 6 x 4 tile (avx512_gemm_sets.hpp says why).
constexpr GemmTiles kTiles = {
    .mr = 6,
    .nr_vectors = 4,
    .unroll = 1,
    .direct_mr = 8,
    .direct_nr_vectors = 2,
    .wide_mr = 6,
    .wide_nr_vectors = 4,
    .direct_tail_mr = 0,
    .blocking = GemmBlockingRule::kCacheModel,
    .direct_pack_b_bytes = 0,
};
constinit const GemmKernelSet<float> kGemmF32 = gemm::make_kernel_set<simd::avx512::F32, kTiles>();

}  // namespace tessera::core::avx512
