#include "core/src/gemm/gemm_blocking.hpp"

#include <algorithm>

#include "tessera/platform/topology.hpp"

namespace tessera::core {
namespace {

constexpr std::int64_t kMinKc = 128;
constexpr std::int64_t kMaxKc = 768;
constexpr std::int64_t kMaxNc = 4096;

std::int64_t round_down(std::int64_t x, std::int64_t multiple) {
  return std::max(multiple, x / multiple * multiple);
}

}  // namespace

GemmBlocking gemm_blocking(int mr, int nr, int element_bytes,
                           GemmBlockingRule rule, const CacheFacts& facts) {
  const std::int64_t s = element_bytes;
  GemmBlocking b;
  if (rule == GemmBlockingRule::kFixedPortable) {
    // Small register files and tiles (2 x 16 f32, 2 x 8 f64, 4 x 4 scalar):
    // kc 256 keeps the B micro-panel at 4-16 KiB, the A block (mc 64) at
    // 64-128 KiB. kc alone fixes the bits; it is part of the contract that
    // SSE2 and SIMD128 (and scalar) agree bit for bit.
    b.kc = 256;
    b.mc = round_down(64, mr);
    b.nc = round_down(1024, nr);
    return b;
  }
  const std::int64_t l1 = facts.l1d != 0 ? static_cast<std::int64_t>(facts.l1d) : 32 * 1024;
  const std::int64_t l2 = facts.l2 != 0 ? static_cast<std::int64_t>(facts.l2) : 512 * 1024;
  const std::int64_t l3 = static_cast<std::int64_t>(facts.l3);
  // kc: the packed B micro-panel (kc x nr) is 2x L1d. It does not stay in
  // L1: it streams from L2 under the L1 prefetcher while a long depth
  // amortises each C tile's load/store. Measured on Zen 4 (32 KiB L1d,
  // 1 MiB L2), median of 7 at 1024 and 2048, one thread: with the 8 x 32
  // f32 tile kc 512 ran 105-107 GFLOP/s, 384 101-105, 256 84-103 (the
  // L1-resident 128 was slower still); f64 8 x 16: 512 at 51-52.5 against
  // 384 at 49.7-51.7. AVX2's 6 x 16 tile reaches the 768 cap either way.
  b.kc = std::clamp<std::int64_t>((l1 * 2) / (nr * s) / 8 * 8, kMinKc, kMaxKc);
  // mc: the packed A block is an eighth of L2. A tall row block makes each
  // column tile's sweep touch mc rows of C at the row stride, which with
  // power-of-two leading dimensions collide in L1 sets and the TLB: mc 1022
  // ran at 60% of mc 84 (sgemm 1024); 56..168 were within noise.
  b.mc = std::max<std::int64_t>(mr, round_down((l2 / 8) / (b.kc * s), mr));
  // nc: the packed B block is a quarter of L3 (half of L2 without an L3).
  const std::int64_t b_bytes = l3 != 0 ? l3 / 4 : l2 / 2;
  b.nc = std::min(round_down(kMaxNc, nr), round_down(b_bytes / (b.kc * s), nr));
  return b;
}

}  // namespace tessera::core
