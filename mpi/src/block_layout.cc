// Block-cyclic index arithmetic (tessera/mpi.hpp §Layout).
#include <algorithm>

#include "tessera/mpi.hpp"

namespace tessera::mpi {

std::int64_t local_extent(std::int64_t global, std::int64_t block, int position, int count) {
  if (global <= 0 || block <= 0 || count <= 0) return 0;
  const std::int64_t blocks = global / block;  // whole blocks
  std::int64_t local = (blocks / count) * block;
  const std::int64_t extra = blocks % count;
  if (position < extra) {
    local += block;
  } else if (position == extra) {
    local += global % block;  // the partial last block
  }
  return local;
}

int owner_of(std::int64_t global, std::int64_t block, int count) {
  return static_cast<int>((global / block) % count);
}

std::int64_t local_index(std::int64_t global, std::int64_t block, int count) {
  // (global / block / count), not global / (block * count): no product to
  // overflow.
  return (global / block / count) * block + global % block;
}

BlockDescriptor make_descriptor(std::int64_t rows, std::int64_t cols, std::int64_t row_block,
                                std::int64_t col_block, int grid_rows, int grid_cols, int my_col) {
  BlockDescriptor d;
  d.rows = rows;
  d.cols = cols;
  d.row_block = row_block;
  d.col_block = col_block;
  d.grid_rows = grid_rows;
  d.grid_cols = grid_cols;
  d.lld = std::max<std::int64_t>(1, local_extent(cols, col_block, my_col, grid_cols));
  return d;
}

}  // namespace tessera::mpi
