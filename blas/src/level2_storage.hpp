// Where element (i, j) (0-based) of a level-2 BLAS matrix is stored, for
// each of the BLAS's storage schemes. One level-2 body serves the full,
// banded and packed forms of a routine (symv, sbmv, spmv; trmv, tbmv,
// tpmv; ...): it walks the same (i, j) in the same order and asks the
// storage for an offset, and the band width bounds the rows it visits
// (n - 1 for a full or packed triangle). Only elements inside the stored
// band or triangle are ever asked for.
#pragma once

#include <algorithm>
#include <cstdint>

namespace tessera::blas {

// Column-major, leading dimension ld (ge, sy, he, tr).
struct FullStorage {
  std::int64_t ld;
  std::int64_t operator()(std::int64_t i, std::int64_t j) const { return i + j * ld; }
};

// Band storage (gb, sb, hb, tb): column j of the band sits in column j of
// the array, its diagonal on row `diag_row` (ku for a general band, k for
// an upper triangle, 0 for a lower one).
struct BandStorage {
  std::int64_t ld, diag_row;
  std::int64_t operator()(std::int64_t i, std::int64_t j) const {
    return diag_row + i - j + j * ld;
  }
};

// Packed triangles (sp, hp, tp), columns one after another: the upper
// triangle's column j holds rows 0..j, the lower's rows j..n-1.
struct PackedUpperStorage {
  std::int64_t operator()(std::int64_t i, std::int64_t j) const { return i + j * (j + 1) / 2; }
};
struct PackedLowerStorage {
  std::int64_t n;
  std::int64_t operator()(std::int64_t i, std::int64_t j) const {
    return i + j * (2 * n - j - 1) / 2;
  }
};

// Runs body(storage) with the packed triangle's storage (a different
// type for each triangle, so each gets its own instantiation).
template <class Body>
void with_packed_storage(bool upper, std::int64_t n, Body&& body) {
  if (upper) {
    body(PackedUpperStorage{});
  } else {
    body(PackedLowerStorage{n});
  }
}

// Rows of column j inside a band with `below` sub- and `above`
// super-diagonals, for a matrix of `rows` rows: [first, last].
struct RowRange {
  std::int64_t first, last;
};
inline RowRange band_rows(std::int64_t j, std::int64_t rows, std::int64_t below,
                          std::int64_t above) {
  return {std::max<std::int64_t>(0, j - above), std::min<std::int64_t>(rows - 1, j + below)};
}

}  // namespace tessera::blas
