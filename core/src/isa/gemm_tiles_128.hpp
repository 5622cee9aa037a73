// The GEMM tiles the three 128-bit levels share (sse2, simd128,
// simd128_relaxed): with the same fixed blocking table and the same
// multiply-then-add order, sse2 and simd128 give the same bits, so a native
// SSE2 run and a wasm run agree (design.md §Reproducibility).
//
// 2 x 4-vector tiles (2 x 16 f32, 2 x 8 f64), one depth step per loop
// iteration, the same tile on the direct path. The tile was chosen for V8,
// which runs the simd128 copy: 8 accumulators leave room among x64's 16 xmm
// registers for the 4 B vectors, the broadcast and the product V8 needs
// between multiply and add. Under node, alternating builds, sgemm 1024^3
// ran 39.8-42.2 GFLOP/s against 34.4-35.2 for the previous 4 x 12 tile,
// dgemm 512^3 19-20 against 18.2-18.5 (4 x 8 was close behind; 6 x 8,
// 5 x 8, 3 x 12, 3 x 16, 2 x 20, 2 x 24 and 1 x 32 were slower).
#pragma once

#include "core/src/kernels/gemm_kernel.hpp"

namespace tessera::core {

inline constexpr GemmTiles kGemmTiles128 = {
    .mr = 2,
    .nr_vectors = 4,
    .unroll = 1,
    .direct_mr = 2,
    .direct_nr_vectors = 4,
    .wide_mr = 2,
    .wide_nr_vectors = 4,
    .direct_tail_mr = 0,
    .blocking = GemmBlockingRule::kFixedPortable,
    .direct_pack_b_bytes = 0,
};

}  // namespace tessera::core
