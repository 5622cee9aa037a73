// AMX-INT8: the integer GEMM's tile operations (tdpbusd) for the amx level
// (core/src/isa/kernels_amx.cc), plus its vector traits, the avx512_vnni
// level's dot under a name of the amx level's own (so its template copies
// are distinct symbols: qgemm_microkernel.hpp).
//
// Every tile is configured as 16 rows of 64 bytes: an A tile is 16 rows of
// A by 64 depth bytes (as A is stored), a B tile 16 depth quads by 16
// columns of 4 bytes (16 groups of a packed quads panel), a C tile 16 x 16
// int32 sums. tdpbusd multiplies u8 A by s8 B and adds in 32 bits without
// saturation, the same operation as vpdpbusd, so the sums are the vector
// level's, bit for bit.
//
// GCC's AMX intrinsics are asm statements without memory operands: the
// compiler does not know a tile load reads, nor a tile store writes,
// memory. Each block below is fenced by compiler barriers, so packing
// before it and the output stage after it see memory as the tiles do.
#pragma once

#include <immintrin.h>

#include <cstdint>

#include "core/src/simd/vec_avx512_vnni.hpp"

namespace tessera::simd::amx {

struct I8Quads : avx512_vnni::I8Quads {
  struct Lane : scalar::F32 {};
};

// Bytes of a tile row; depth groups (of 4 bytes) per tile.
inline constexpr int kTileBytes = 64;
inline constexpr int kTileGroups = 16;

// The 64-byte operand of ldtilecfg (palette 1).
struct alignas(64) TileConfig {
  std::uint8_t palette = 1;
  std::uint8_t start_row = 0;
  std::uint8_t reserved[14] = {};
  std::uint16_t colsb[16] = {};
  std::uint8_t rows[16] = {};
};

inline void compiler_barrier() { __asm__ volatile("" ::: "memory"); }

// Configures this thread's tiles for a tile of `upper` rows (1-16: sum
// tiles 0-1, A tile 4) and `lower` more (0-16: sum tiles 2-3, A tile 5;
// 0 leaves them unconfigured); B tiles 6-7 are 16 groups. Rows past a
// product's last are neither loaded nor stored: a tile of any row count
// runs on the tiles. release() returns them (the thread's tile state is
// then the initial one again, which context switches need not save). A
// tile call does both: tile state never outlives it, and no other code's
// configuration is assumed.
inline void configure(int upper, int lower) {
  TileConfig c;
  const int rows[8] = {upper, upper, lower, lower, upper, lower, kTileGroups, kTileGroups};
  for (int t = 0; t < 8; ++t) {
    c.rows[t] = static_cast<std::uint8_t>(rows[t]);
    c.colsb[t] = rows[t] > 0 ? kTileBytes : 0;
  }
  _tile_loadconfig(&c);
}
inline void release() { _tile_release(); }

// One block of 64 depth bytes from elsewhere than the operands (a depth
// that is not a whole number of blocks, zero-padded by the caller): A's
// rows lda bytes apart, B's 16 groups at b (groups the sums' ldb apart).
struct PaddedBlock {
  const std::uint8_t* a = nullptr;
  std::int64_t lda = 0;
  const std::uint8_t* b = nullptr;
};

// The raw sums of the configured rows (configure: up to 16 x kHalves) x
// columns [0, 32) over `blocks` blocks of 64 depth bytes, calling
// after_block() after each, then `last` when not null: A's block q at a + 64 q (rows lda bytes apart), B's 16 groups
// of block q at b + 16 q ldb (groups ldb bytes apart, columns 16-31 64
// bytes on), stored to out (rows ldo int32 apart). Tiles 0-1 sum rows 0-15
// (2-3 rows 16-31), 4 holds A's rows 0-15 (5 rows 16-31), 6-7 B's two
// 16-column halves: with two halves each loaded tile feeds two tdpbusd.
template <int kHalves, class AfterBlock>
void sums_x32(std::int64_t blocks, const std::uint8_t* a, std::int64_t lda, const std::uint8_t* b,
              std::int64_t ldb, const PaddedBlock* last, std::int32_t* out, std::int64_t ldo,
              AfterBlock&& after_block) {
  static_assert(kHalves == 1 || kHalves == 2, "16 or 32 rows");
  compiler_barrier();
  _tile_zero(0);
  _tile_zero(1);
  if constexpr (kHalves == 2) {
    _tile_zero(2);
    _tile_zero(3);
  }
  auto block = [&](const std::uint8_t* aq, std::int64_t ld_a, const std::uint8_t* bq) {
    _tile_loadd(4, aq, ld_a);
    _tile_loadd(6, bq, ldb);
    _tile_dpbusd(0, 4, 6);
    _tile_loadd(7, bq + kTileBytes, ldb);
    _tile_dpbusd(1, 4, 7);
    if constexpr (kHalves == 2) {
      _tile_loadd(5, aq + 16 * ld_a, ld_a);
      _tile_dpbusd(2, 5, 6);
      _tile_dpbusd(3, 5, 7);
    }
  };
  for (std::int64_t q = 0; q < blocks; ++q) {
    block(a + q * kTileBytes, lda, b + q * kTileGroups * ldb);
    after_block();
  }
  if (last != nullptr) block(last->a, last->lda, last->b);
  const std::int64_t row_bytes = ldo * 4;
  _tile_stored(0, out, row_bytes);
  _tile_stored(1, out + 16, row_bytes);
  if constexpr (kHalves == 2) {
    _tile_stored(2, out + 16 * ldo, row_bytes);
    _tile_stored(3, out + 16 * ldo + 16, row_bytes);
  }
  compiler_barrier();
}

}  // namespace tessera::simd::amx
