#include "core/src/gemm/gemm_blocking.hpp"

#include <algorithm>
#include <atomic>

#include "tessera/platform/topology.hpp"

namespace tessera::core {
namespace {

constexpr std::int64_t kMinKc = 128;
constexpr std::int64_t kMaxKc = 1024;
static_assert(kFixedDepthKc == kMaxKc, "the fixed slice is the model's deepest");
constexpr std::int64_t kMaxNc = 4096;

std::int64_t round_down(std::int64_t x, std::int64_t multiple) {
  return std::max(multiple, x / multiple * multiple);
}

struct Override {
  std::atomic<bool> set{false};
  GemmBlocking blocking;
};
Override g_override[2];  // f32, f64

Override* override_for(int element_bytes) {
  return element_bytes == 4 ? &g_override[0] : element_bytes == 8 ? &g_override[1] : nullptr;
}

}  // namespace

void set_gemm_blocking_override(int element_bytes, const GemmBlocking* blocking) {
  Override* o = override_for(element_bytes);
  if (o == nullptr) return;
  o->set.store(false, std::memory_order_release);
  if (blocking == nullptr) return;
  o->blocking = *blocking;
  o->set.store(true, std::memory_order_release);
}

bool gemm_blocking_overridden(int element_bytes) {
  const Override* o = override_for(element_bytes);
  return o != nullptr && o->set.load(std::memory_order_acquire);
}

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
  if (gemm_blocking_overridden(element_bytes)) {
    const GemmBlocking& o = override_for(element_bytes)->blocking;
    b.kc = rule == GemmBlockingRule::kCacheModelFixedKc ? kFixedDepthKc
                                                        : std::max<std::int64_t>(1, o.kc);
    b.mc = round_down(o.mc, mr);
    b.nc = round_down(o.nc, nr);
    return b;
  }
  const std::int64_t l1 = facts.l1d != 0 ? static_cast<std::int64_t>(facts.l1d) : 32 * 1024;
  const std::int64_t l2 = facts.l2 != 0 ? static_cast<std::int64_t>(facts.l2) : 512 * 1024;
  const std::int64_t l3 = static_cast<std::int64_t>(facts.l3);
  // kc: the A micro-panel (mr x kc), streamed once per tile while the B
  // micro-panel is re-read for every row tile, takes three quarters of the
  // L1's ways (three quarters of the L1 when the ways are unknown); the
  // last quarter holds the C tile's lines and the B stream. A deep slice
  // also means fewer passes over C: at 2048^2 every pass reads and writes
  // all of C (32 MiB f64) from memory. Sweeps (bench-gemm --sweep-blocking,
  // 3 rounds, one thread, GFLOP/s at the best mc):
  //   Zen 3 (32 KiB 8-way L1d, 512 KiB L2), AVX2 6 x 16 f32 / 6 x 8 f64:
  //     sgemm 2048 kc 256 88.7, 512 92.8, 680 92.4, 768 93.6, 1024 94.3;
  //     sgemm 1024 kc 512 90.7, 680 90.4, 1024 91.9;
  //     dgemm 2048 kc 256 45.0, 336 45.3, 512 46.4, 768 46.8, 1024 46.6;
  //     dgemm 1024 kc 336 43.8, 512-1024 45.6;
  //   an A micro-panel of 24-36 KiB, where half the ways (16 KiB) gave
  //   0.96-0.98x the best. Zen 5 (48 KiB 12-way L1d, 1 MiB L2), with 8 x 32
  //   f32 and 8 x 16 f64 tiles, peaked at an A micro-panel of 24-32 KiB
  //   (kc 768-1024 f32, 384-512 f64); an A micro-panel of 48 KiB (f64 kc
  //   768) ran at 0.95x. This rule gives 36 KiB there, not yet measured.
  //   An Intel Xeon (48 KiB 12-way L1d, 2 MiB L2; AVX-512, 6 x 64 f32) gets
  //   the same 36 KiB, clamped to kc 1024: side by side in one process
  //   (9 alternated rounds, mc 252-510), kc 512, 640 and 1024 ran within
  //   1.3% of each other at sgemm 2048 and 2.7% at 1024, in no order that
  //   held across the two, where 3-round sweeps had put kc 512 or 256 up
  //   to 6% ahead.
  //   On Zen 4 (32 KiB) f32 kc 512 ran 105-107 GFLOP/s against 84-103 at
  //   256 (larger kc not measured).
  const std::int64_t ways = facts.l1d_ways > 0 ? facts.l1d_ways : 4;
  const std::int64_t a_panel_bytes = (ways - ways / 4) * (l1 / ways);
  b.kc = rule == GemmBlockingRule::kCacheModelFixedKc
             ? kFixedDepthKc
             : std::clamp<std::int64_t>(a_panel_bytes / (mr * s) / 8 * 8, kMinKc, kMaxKc);
  // mc: the packed A block is a quarter of L2 (two ways of an 8-way L2),
  // so the B micro-panels and C stream through the rest. A tall row block
  // makes each column tile's sweep touch mc rows of C at the row stride,
  // which with power-of-two leading dimensions collide in L1 sets and the
  // TLB: mc 1022 ran at 60% of mc 84 (sgemm 1024, Zen 4). On Zen 5 two
  // sweeps (3 rounds each) put mc 96 at 1.00-1.03x mc 40 for f32 and f64 at
  // 1024 and 2048 (the eighth-of-L2 rule gave 40), and mc 288 below both.
  // An L2 of 2 MiB or more (Intel's server cores) takes an A block of half
  // of it beside the B micro-panel (kc x nr: 192-256 KiB) and C's lines. On
  // an Intel Xeon (48 KiB L1d, 2 MiB L2; AVX-512, 6 x 64 f32 and 6 x 32
  // f64 tiles), one thread, the packed loop nest with the library's
  // kernels, 9 alternated rounds, the half-L2 block ran 1.026-1.032x the
  // quarter: sgemm 1024 169.7 against 165.4 GFLOP/s, 2048 172.5 against
  // 167.2; dgemm 1024 83.7 against 81.6, 2048 82.5 against 80.3. Smaller
  // L2s keep the quarter measured above.
  constexpr std::int64_t kLargeL2 = std::int64_t{2} << 20;
  const std::int64_t a_block_bytes = l2 >= kLargeL2 ? l2 / 2 : l2 / 4;
  b.mc = std::max<std::int64_t>(mr, round_down(a_block_bytes / (b.kc * s), mr));
  // nc: the packed B block is a quarter of L3 (half of L2 without an L3),
  // and at most four L2s. Every row block streams the whole B block from
  // L3, and a core's real share of an L3 is what its neighbours leave it
  // (4 MiB a core on AMD's 8-core CCXs; a VM's neighbours are invisible).
  // On Zen 3 (512 KiB L2, a 32 MiB L3 reported; AVX2, one thread, sgemm
  // and dgemm 2048, five alternated rounds each, same kc and mc) B blocks
  // of 1.4-2.8 MiB ran 62-69 GFLOP/s f32 and 31-32 f64, against 48-51 and
  // 25 with the quarter-of-L3 block (8.4 MiB), and 4.2 MiB was already
  // slow (51-59). The price is A packed once per nc columns instead of
  // once (~1% a pass at 2048). On the Intel Xeon (2 MiB L2, 480 MiB of L3
  // reported: the four-L2 cap, 8 MiB, applies) the model's nc was the
  // sweep's best or within 3% of it (sgemm and dgemm 1024 and 2048).
  const std::int64_t b_bytes = std::min(l3 != 0 ? l3 / 4 : l2 / 2, 4 * l2);
  b.nc = std::min(round_down(kMaxNc, nr), round_down(b_bytes / (b.kc * s), nr));
  return b;
}

}  // namespace tessera::core
