// The amx backend: the avx512 level's kernel sets (avx512_sets.hpp) plus
// the integer GEMM on AMX tiles (tdpbusd: core/src/simd/amx_int8.hpp), and
// the kernel table the registry finds them by. Built only where this ISA is
// built, with its compiler flags (toolchains/modules/TesseraTarget.cmake).
//
// Integer GEMM tile: 32 x 64 (mr x nr), B in avx512_vnni's quads panels
// (64 columns, a group's 256 bytes in a row: a B tile is 16 groups of 16
// columns, 256 bytes apart). A is loaded as stored (u8, depth contiguous)
// or from row-major panels (s8 or transposed A, packed with the sign flip).
// The tiles run every whole block of 64 depth bytes of the tile's whole
// 16-row halves, in two passes of 32 columns (4 sum tiles, 2 A, 2 B: the 8
// tiles). What the tiles cannot take runs on vpdpbusd zmm, the
// avx512_vnni tile's code: the depth past the last whole block (k not a
// multiple of 64, and A's packed tail group) added to the tiles' sums, and
// a tile's last rows past its whole 16-row halves (fewer than 16 rows, a
// 1-row product among them) over the whole depth. Both instructions sum the
// same canonical products modulo 2^32, so the bits are the vector level's.
#include "core/src/isa/avx512_sets.hpp"
#include "core/src/simd/amx_int8.hpp"

namespace tessera::core::amx {
namespace {

using Q = simd::amx::I8Quads;
constexpr int kMr = 32;
constexpr int kNv = 4;
constexpr int kNr = kNv * Q::kLanes;    // 64
constexpr int kGroupBytes = kNr * 4;    // one group of a B panel
constexpr int kVectorRows = 6;          // the vpdpbusd tile's rows

// `a` seen from row r and depth group g.
QGemmLhs lhs_from(const QGemmLhs& a, std::int64_t r, std::int64_t g) {
  QGemmLhs moved = a;
  moved.data = a.data + r * a.row_stride + g * a.group_stride;
  moved.direct_groups = a.direct_groups - g;
  if (a.tail != nullptr) moved.tail = a.tail + r * 4;
  return moved;
}

// Rows [r0, r1)'s raw sums over groups [g0, groups) by vpdpbusd, into
// sums (rows kNr apart), added to what is there when `add`.
void vector_sums(std::int64_t r0, std::int64_t r1, std::int64_t g0, std::int64_t groups,
                 const QGemmLhs& a, const std::uint8_t* b_panel, bool add,
                 std::int32_t* sums) {
  alignas(64) std::int32_t part[kVectorRows * kNr];
  for (std::int64_t r = r0; r < r1; r += kVectorRows) {
    const std::int64_t rows = r1 - r < kVectorRows ? r1 - r : kVectorRows;
    std::int32_t* out = add ? part : sums + r * kNr;
    qgemm::with_rows<kVectorRows>(rows, [&](auto rows_tag) {
      constexpr int kR = decltype(rows_tag)::value;
      qgemm::raw_sums<Q, kR, kNv>(groups - g0, lhs_from(a, r, g0), kMr * 4,
                                  b_panel + g0 * kGroupBytes, out);
    });
    if (add) {
      std::int32_t* to = sums + r * kNr;
      for (std::int64_t j = 0; j < rows * kNr; ++j) {
        to[j] = static_cast<std::int32_t>(static_cast<std::uint32_t>(to[j]) +
                                          static_cast<std::uint32_t>(part[j]));
      }
    }
  }
}

void amx_tile(std::int64_t rows, std::int64_t cols, std::int64_t groups, const QGemmLhs& a,
              const std::uint8_t* b_panel, const QGemmCorrection& correction,
              const QGemmOutputStage& output) {
  alignas(64) std::int32_t sums[kMr * kNr];
  // The tiles read A's rows as 64 contiguous depth bytes (group stride 4).
  const std::int64_t blocks = a.group_stride == 4 ? a.direct_groups / simd::amx::kTileGroups : 0;
  const std::int64_t tile_rows = blocks == 0 ? 0 : rows >= 32 ? 32 : rows >= 16 ? 16 : 0;
  if (tile_rows > 0) {
    // The output rows' lines, for writing (qgemm::prefetch_output), spread
    // over the first column pass's blocks.
    const bool contiguous = output.cs == 1;
    simd::amx::LinePrefetch lines(static_cast<const char*>(output.out),
                                  output.rs * output.element_bytes(), contiguous ? rows : 0,
                                  cols * output.element_bytes(), blocks);
    simd::amx::configure();
    for (int half = 0; half < 2; ++half) {
      const std::uint8_t* b = b_panel + half * 32 * 4;
      std::int32_t* out = sums + half * 32;
      if (tile_rows == 32) {
        simd::amx::sums_x32<2>(blocks, a.data, a.row_stride, b, kGroupBytes, out, kNr, lines);
      } else {
        simd::amx::sums_x32<1>(blocks, a.data, a.row_stride, b, kGroupBytes, out, kNr, lines);
      }
    }
    simd::amx::release();
    const std::int64_t g0 = blocks * simd::amx::kTileGroups;
    if (g0 < groups) vector_sums(0, tile_rows, g0, groups, a, b_panel, true, sums);
  }
  if (tile_rows == 0) qgemm::prefetch_output<Q>(rows, cols, output);
  if (tile_rows < rows) vector_sums(tile_rows, rows, 0, groups, a, b_panel, false, sums);
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
                     &platform::CpuFeatures::avx512vnni, &platform::CpuFeatures::amx_int8},
                    avx512::kSets, {&avx512::kGemmF32, &avx512::kGemmF64}, {&kQGemm});

}  // namespace tessera::core::amx
