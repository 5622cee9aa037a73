// GEMM cache blocking (BLIS-style): kc (depth slice), mc (row block) and nc
// (column block) as a pure function of the register tile, the element size
// and the cache facts — never of the worker count (design.md §Reproducibility).
// kc alone fixes the bits of the result (it fixes how each element's sum is
// sliced); mc and nc only regroup the same micro-tiles.
#pragma once

#include <cstdint>
#include <string>

#include "core/src/kernels/gemm_kernel.hpp"
#include "core/src/parallel/cache_facts.hpp"

namespace tessera::core {

struct GemmBlocking {
  std::int64_t mc = 0;  // multiple of mr
  std::int64_t nc = 0;  // multiple of nr
  std::int64_t kc = 0;
};

// The blocking rule of a kernel set:
//  - kCacheModel: the A micro-panel (mr x kc) takes three quarters of the
//    L1d's ways (kc in [128, 1024]); the packed A block (mc x kc) a quarter
//    of L2 (half of an L2 of 2 MiB or more); the packed B block (kc x nc) a
//    quarter of L3 (half of L2 without an L3) but at most four L2s, nc at
//    most 4096. Missing facts fall back to 32 KiB L1d and 512 KiB L2. The
//    measurements behind the fractions are in gemm_blocking.cc.
//  - kFixedPortable: one table for the 128-bit levels and scalar (kc 256,
//    mc 64, nc 1024), independent of any machine fact, so native SSE2 and
//    wasm SIMD128 slice every sum identically.
//  - kCacheModelFixedKc: kCacheModel with kc fixed at kFixedDepthKc, on
//    every host and under the override below.
GemmBlocking gemm_blocking(int mr, int nr, int element_bytes,
                           GemmBlockingRule rule, const CacheFacts& facts);

// A process-wide replacement of the cache-model blocking for one element
// size (4 or 8), rounded to each kernel set's tile: for the blocking sweep
// of bench-gemm (--sweep-blocking), which measures the model against its
// neighbours. The library never sets it. Set it only while no GEMM runs;
// nullptr restores the model. The portable levels keep their fixed table,
// kCacheModelFixedKc sets their kc.
void set_gemm_blocking_override(int element_bytes, const GemmBlocking* blocking);
bool gemm_blocking_overridden(int element_bytes);

}  // namespace tessera::core
