// The amx backend: the avx512 level's kernel sets (avx512_sets.hpp) plus
// the integer GEMM on AMX tiles (tdpbusd: core/src/simd/amx_int8.hpp), and
// the kernel table the registry finds them by. Built only where this ISA is
// built, with its compiler flags (toolchains/modules/TesseraTarget.cmake).
//
// Integer GEMM tile: 32 x 64 (mr x nr), B in avx512_vnni's quads panels
// (64 columns, a group's 256 bytes in a row: a B tile is 16 groups of 16
// columns, 256 bytes apart). A is loaded as stored (u8, depth contiguous)
// or from row-major panels (s8 or transposed A, packed with the sign flip).
// Two passes of 32 columns, each on 4 sum tiles, 2 A and 2 B tiles (the 8
// tiles), the tiles configured for the tile's own rows (a last tile of 20
// rows loads and stores 16 + 4). The depth past the whole blocks of 64
// bytes runs as one more block, copied into zero-padded buffers. Tiles of
// fewer than kMinTileRows rows run on vpdpbusd zmm (the avx512_vnni tile's
// code). Both instructions sum the same canonical products modulo 2^32, so
// the bits are every level's.
#include "core/src/isa/avx512_sets.hpp"
#include "core/src/simd/amx_int8.hpp"

#include <cstring>

namespace tessera::core::amx {
namespace {

using Q = simd::amx::I8Quads;
constexpr int kMr = 32;
constexpr int kNv = 4;
constexpr int kNr = kNv * Q::kLanes;    // 64
constexpr int kGroupBytes = kNr * 4;    // one group of a B panel
constexpr int kVectorRows = 6;          // the vpdpbusd tile's rows
// Fewer rows run on vpdpbusd, faster there (its 6-row tile; the one-row
// product, a token's linear layer, streams B in four parts: raw_sums).
// m x 4096 x 4096, B prepacked, one thread, GOP/s, tiles against
// vpdpbusd: m 4: 196 against 235, 6: 294 / 349, 7: 342 / 341, 8: 388 /
// 301, 15: 698 / 429 (Xeon with AMX).
constexpr std::int64_t kMinTileRows = 8;

// The raw sums of rows [0, rows) over the whole depth by vpdpbusd, into
// sums (rows kNr apart): the tiles of fewer than kMinTileRows rows.
void vector_sums(std::int64_t rows_in_all, std::int64_t groups, const QGemmLhs& a,
                 const std::uint8_t* b_panel, std::int32_t* sums) {
  for (std::int64_t r = 0; r < rows_in_all; r += kVectorRows) {
    const std::int64_t rows = rows_in_all - r < kVectorRows ? rows_in_all - r : kVectorRows;
    QGemmLhs from_r = a;
    from_r.data = a.data + r * a.row_stride;
    if (a.tail != nullptr) from_r.tail = a.tail + r * 4;
    qgemm::with_rows<kVectorRows>(rows, [&](auto rows_tag) {
      constexpr int kR = decltype(rows_tag)::value;
      qgemm::raw_sums<Q, kR, kNv>(groups, from_r, kMr * 4, b_panel, sums + r * kNr);
    });
  }
}

// The depth past the whole blocks (groups [g0, groups), at most 16) as one
// zero-padded block: A's rows from the operand (groups before
// direct_groups) and from its packed tail group, B's groups from the panel.
// Zeros times anything add nothing, so the padded block adds exactly the
// remaining products.
struct TailBlock {
  alignas(64) std::uint8_t a[kMr * simd::amx::kTileBytes];
  alignas(64) std::uint8_t b[simd::amx::kTileGroups * kGroupBytes];

  void fill(std::int64_t rows, std::int64_t g0, std::int64_t groups, const QGemmLhs& lhs,
            const std::uint8_t* b_panel) {
    const std::int64_t direct_bytes = (lhs.direct_groups - g0) * 4;
    const std::int64_t bytes = (groups - g0) * 4;
    for (std::int64_t r = 0; r < rows; ++r) {
      std::uint8_t* row = a + r * simd::amx::kTileBytes;
      std::memcpy(row, lhs.data + r * lhs.row_stride + g0 * 4, static_cast<std::size_t>(direct_bytes));
      if (bytes > direct_bytes) std::memcpy(row + direct_bytes, lhs.tail + r * 4, 4);
      std::memset(row + bytes, 0, static_cast<std::size_t>(simd::amx::kTileBytes - bytes));
    }
    const std::int64_t b_bytes = (groups - g0) * kGroupBytes;
    std::memcpy(b, b_panel + g0 * kGroupBytes, static_cast<std::size_t>(b_bytes));
    std::memset(b + b_bytes, 0, sizeof(b) - static_cast<std::size_t>(b_bytes));
  }
};

void amx_tile(std::int64_t rows, std::int64_t cols, std::int64_t groups, const QGemmLhs& a,
              const std::uint8_t* b_panel, const QGemmCorrection& correction,
              const QGemmOutputStage& output) {
  alignas(64) std::int32_t sums[kMr * kNr];
  // The tiles read A's rows as 64 contiguous depth bytes (group stride 4:
  // as stored, or row-major panels).
  if (rows < kMinTileRows || a.group_stride != 4) {
    qgemm::LinePrefetch(true, rows, cols, output, 0).rest();
    vector_sums(rows, groups, a, b_panel, sums);
    qgemm::finish_tile<Q, kNr>(rows, cols, sums, kNr, correction, output);
    return;
  }
  const std::int64_t blocks = a.direct_groups / simd::amx::kTileGroups;
  const std::int64_t g0 = blocks * simd::amx::kTileGroups;
  TailBlock tail;
  if (g0 < groups) tail.fill(rows, g0, groups, a, b_panel);
  // The output lines, spread over the first column pass's blocks.
  qgemm::LinePrefetch lines(true, rows, cols, output, blocks);
  if (blocks == 0) lines.rest();
  auto after_block = [&] { lines.next(); };
  const int upper = rows < 16 ? static_cast<int>(rows) : 16;
  const int lower = static_cast<int>(rows) - upper;
  simd::amx::configure(upper, lower);
  for (int half = 0; half < 2; ++half) {
    const std::int64_t col_bytes = half * 32 * 4;
    const simd::amx::PaddedBlock last{tail.a, simd::amx::kTileBytes, tail.b + col_bytes};
    const simd::amx::PaddedBlock* padded = g0 < groups ? &last : nullptr;
    std::int32_t* out = sums + half * 32;
    if (lower > 0) {
      simd::amx::sums_x32<2>(blocks, a.data, a.row_stride, b_panel + col_bytes, kGroupBytes,
                             padded, out, kNr, after_block);
    } else {
      simd::amx::sums_x32<1>(blocks, a.data, a.row_stride, b_panel + col_bytes, kGroupBytes,
                             padded, out, kNr, after_block);
    }
  }
  simd::amx::release();
  qgemm::finish_tile<Q, kNr>(rows, cols, sums, kNr, correction, output);
}

constexpr QGemmKernelSet amx_qgemm_set() {
  QGemmKernelSet set;
  set.mr = kMr;
  set.nr = kNr;
  set.packing = Q::kPacking;
  set.a_layout = QPackedALayout::kRowMajor;
  set.dot = "tdpbusd (AMX-INT8)";
  set.pack_a = &qgemm::pack_a_rows<Q>;
  set.pack_b = &qgemm::pack_b<Q, kNr>;
  set.tile = &amx_tile;
  set.sum_a_rows = &qgemm::sum_a_rows<Q>;
  return set;
}

constinit const QGemmKernelSet kQGemm = amx_qgemm_set();

}  // namespace

constinit const KernelTable kKernelTable =
    optimized_table(Isa::kAmx,
                    {&platform::CpuFeatures::avx512f, &platform::CpuFeatures::avx512vl,
                     &platform::CpuFeatures::avx512bw, &platform::CpuFeatures::avx512dq,
                     &platform::CpuFeatures::avx512vnni, &platform::CpuFeatures::amx_int8,
                     &platform::CpuFeatures::f16c},
                    avx512::kSets, avx512::kGemmKernels, {&kQGemm});

}  // namespace tessera::core::amx
