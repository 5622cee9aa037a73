// Integer GEMM entries of a KernelTable (design.md §Integer GEMM).
//
// Every call is reduced to one canonical problem: C(i, j) = sum_p (A(i, p) -
// za) (B(p, j) - zb[j]) over 8-bit A and B, exact modulo 2^32, then an
// output stage (int32, requantized 8-bit, or float). A kernel set multiplies
// operands it packed itself into its own format (QGemmPacking): the depth
// cut into groups of k_group values per 32-bit lane, each operand moved into
// the signedness its dot instruction wants by adding 128 or -128 where the
// source's type differs (XOR of the sign bit). The kernel's raw sums are of
// those canonical values; the correction
//   s(i, j) = raw(i, j) - za' colsum'[j] - zb'[j] rowsum'[i] + k za' zb'[j]
// with za' = za + shift_a and zb' = zb + shift_b (sums of the canonical
// values) gives the exact sum of the source's (A - za)(B - zb), in uint32
// arithmetic, so every level, tile and worker count gives the same bits.
#pragma once

#include <cstdint>

#include "core/src/simd/int8_packing.hpp"
#include "tessera/gemm.hpp"
#include "tessera/quantized.hpp"

namespace tessera::core {

// The format a kernel set packs its operands in: what its dot instruction
// multiplies (core/src/simd/int8_packing.hpp).
using QGemmPacking = simd::Int8Packing;

inline constexpr int qgemm_k_group(QGemmPacking packing) {
  return packing == QGemmPacking::kPairI16 ? 2 : 4;
}
// Packed A bytes per panel row and group: always 4; planes take two rows.
inline constexpr int qgemm_a_rows_per_row(QGemmPacking packing) {
  return packing == QGemmPacking::kQuadU8S8Planes ? 2 : 1;
}
// Bytes of one packed A panel of mr rows, and of one B panel of nr
// columns, over `groups` depth groups: 4 bytes per row or column and group
// (A in planes: 8).
inline constexpr std::int64_t qgemm_a_panel_bytes(QGemmPacking packing, int mr,
                                                  std::int64_t groups) {
  return groups * mr * 4 * qgemm_a_rows_per_row(packing);
}
inline constexpr std::int64_t qgemm_b_panel_bytes(int nr, std::int64_t groups) {
  return groups * nr * 4;
}

// What packing adds to an operand of `type` (the canonical value minus the
// stored one).
inline constexpr std::int32_t qgemm_a_shift(QGemmPacking packing, IntType type) {
  switch (packing) {
    case QGemmPacking::kQuadU8S8:
    case QGemmPacking::kQuadU8S8Planes: return type == IntType::kS8 ? 128 : 0;
    case QGemmPacking::kQuadS8S8: return type == IntType::kU8 ? -128 : 0;
    case QGemmPacking::kPairI16: return 0;
  }
  return 0;
}
inline constexpr std::int32_t qgemm_b_shift(QGemmPacking packing, IntType type) {
  return packing != QGemmPacking::kPairI16 && type == IntType::kU8 ? -128 : 0;
}

enum class QGemmOutputKind : std::uint8_t {
  kInt32,       // C = s (beta 0) or C + s (beta 1), int32
  kRequantize,  // y = saturate(rne(float(s) * multiplier[j]) + y_zero_point), u8 / s8
  kFloat,       // y = act(float(s) * scale[j] + bias), f32
};

// A value per column (step 1) or one for all (step 0).
template <class T>
struct QGemmPerColumn {
  const T* values = nullptr;
  std::int64_t step = 0;
  T at(std::int64_t j) const { return values[j * step]; }
};

// Where and how a call writes its result. Element (i, j) of the output is
// at out[i*rs + j*cs] (bytes of the output type apart: a column-major
// output is written with rs = 1, not transposed). Seen from a tile through
// at(row, col).
struct QGemmOutputStage {
  QGemmOutputKind kind = QGemmOutputKind::kInt32;
  void* out = nullptr;
  std::int64_t rs = 0, cs = 0;
  bool accumulate = false;                  // kInt32: beta == 1
  QGemmPerColumn<float> multiplier;         // kRequantize
  std::int32_t y_zero_point = 0;            // kRequantize
  IntType y_type = IntType::kU8;            // kRequantize
  QGemmPerColumn<float> scale;              // kFloat
  const float* bias = nullptr;              // kFloat: per row or per column
  BiasKind bias_kind = BiasKind::kNone;
  Activation activation = Activation::kNone;

  std::int64_t element_bytes() const {
    return kind == QGemmOutputKind::kRequantize ? 1 : 4;
  }
  QGemmOutputStage at(std::int64_t row, std::int64_t col) const {
    QGemmOutputStage s = *this;
    s.out = static_cast<std::uint8_t*>(out) + (row * rs + col * cs) * element_bytes();
    s.multiplier.values = multiplier.values + col * multiplier.step;
    s.scale.values = scale.values + col * scale.step;
    if (bias_kind == BiasKind::kPerColumn) s.bias = bias + col;
    if (bias_kind == BiasKind::kPerRow) s.bias = bias + row;
    return s;
  }
};

// The zero-point correction of one tile's raw sums, in the kernel's domain
// (see the top), from the tile's origin: za', zb' per column (or one), k,
// and the canonical column and row sums of the tile's columns and rows.
// row_sums is null when every zb' is 0 (the term vanishes).
struct QGemmCorrection {
  std::int32_t za = 0;
  QGemmPerColumn<std::int32_t> zb;
  std::int64_t k = 0;
  const std::int32_t* col_sums = nullptr;
  const std::int32_t* row_sums = nullptr;
};

// Packs rows [0, rows) x depth [0, k) of A (element (i, p) at a[i*rs + p*cs],
// of `type`) into ceil(rows / mr) panels in the set's QPackedALayout:
// group-major, panel r holds, per depth group, the mr rows' packed bytes
// (qgemm_a_rows_per_row panel rows each), zero past `rows`; row-major, row
// i's groups at i x groups x 4 (rows past `rows` not written). Zero past k.
// row_sums, when not null, gets each row's sum of canonical values over the
// whole depth.
using QPackAFn = void (*)(std::int64_t rows, std::int64_t k, const std::uint8_t* a,
                          std::int64_t rs, std::int64_t cs, IntType type, std::uint8_t* dst,
                          std::int32_t* row_sums);
// Packs depth [0, k) x columns [0, cols) of B (element (p, j) at
// b[p*rs + j*cs]) into ceil(cols / nr) panels: panel q holds, per depth
// group, the nr columns' 4 bytes, zero past `cols` and past k. col_sums
// (cols entries, not null) gets each column's sum of canonical values.
using QPackBFn = void (*)(std::int64_t k, std::int64_t cols, const std::uint8_t* b,
                          std::int64_t rs, std::int64_t cs, IntType type, std::uint8_t* dst,
                          std::int32_t* col_sums);
// Whether A of `type` can be read as stored, without packing: its bytes are
// already what the dot instruction multiplies (the quad formats, A of the
// format's type, so no sign flip), given a contiguous depth (cs 1).
inline constexpr bool qgemm_direct_a(QGemmPacking packing, IntType type) {
  return (packing == QGemmPacking::kQuadU8S8 && type == IntType::kU8) ||
         (packing == QGemmPacking::kQuadS8S8 && type == IntType::kS8);
}

// Where a tile reads A's groups: group g of (panel) row r at data + g *
// group_stride + r * row_stride, for g < direct_groups; the groups past
// those (a depth that is not a whole number of groups, read as stored) from
// `tail`, a packed panel of the remaining groups. A packed panel: row
// stride 4, group stride mr x 4 (x 2 in planes), every group from data.
struct QGemmLhs {
  const std::uint8_t* data = nullptr;
  std::int64_t row_stride = 0, group_stride = 0;
  std::int64_t direct_groups = 0;
  const std::uint8_t* tail = nullptr;
};

// One rows x cols tile (rows <= mr, cols <= nr) over `groups` depth groups
// of A (as `a` says) and one packed B panel: the raw sums, corrected,
// through the output stage (both seen from the tile's origin). Writes
// nothing outside rows x cols.
using QTileFn = void (*)(std::int64_t rows, std::int64_t cols, std::int64_t groups,
                         const QGemmLhs& a, const std::uint8_t* b_panel,
                         const QGemmCorrection& correction, const QGemmOutputStage& output);
// The canonical sums of A's rows [0, rows) over depth [0, k) (element (i,
// p) at a[i*rs + p]), for an A read as stored.
using QSumRowsFn = void (*)(std::int64_t rows, std::int64_t k, const std::uint8_t* a,
                            std::int64_t rs, IntType type, std::int32_t* row_sums);

// How a packed A panel orders its bytes. Group-major: per depth group the
// mr rows' words (the vector levels broadcast a row's word of one group at
// a time): row stride 4, group stride mr x 4 (x 2 in planes). Row-major:
// each row's groups in a row, as a row-major A is stored (the AMX tiles
// load 16 rows of 64 depth bytes): row stride groups x 4, group stride 4.
enum class QPackedALayout : std::uint8_t { kGroupMajor, kRowMajor };

struct QGemmKernelSet {
  int mr = 0;  // C rows per tile (A panel: mr x qgemm_a_rows_per_row rows)
  int nr = 0;  // C columns per tile and packed B panel
  QGemmPacking packing = QGemmPacking::kPairI16;
  QPackedALayout a_layout = QPackedALayout::kGroupMajor;
  const char* dot = "";  // the multiply instruction, for plans ("vpdpbusd")
  QPackAFn pack_a = nullptr;
  QPackBFn pack_b = nullptr;
  QTileFn tile = nullptr;
  QSumRowsFn sum_a_rows = nullptr;
};

// The whole canonical problem, as the caller stores it: the naive family's
// entry and the driver's input. b is null when B comes packed.
struct QGemmProblem {
  std::int64_t m = 0, n = 0, k = 0;
  const std::uint8_t* a = nullptr;
  std::int64_t rs_a = 0, cs_a = 0;
  IntType a_type = IntType::kU8;
  std::int32_t za = 0;
  const std::uint8_t* b = nullptr;
  std::int64_t rs_b = 0, cs_b = 0;
  IntType b_type = IntType::kS8;
  QGemmPerColumn<std::int32_t> zb;
  QGemmOutputStage output;
};

// The naive family's reference: the sums in 64 bits (wrapped to int32 at
// the end), then the output stage written from its definition.
using NaiveQGemmFn = void (*)(const QGemmProblem& problem);

struct QGemmKernels {
  const QGemmKernelSet* set = nullptr;  // optimized family
  NaiveQGemmFn naive = nullptr;         // naive family
};

}  // namespace tessera::core
