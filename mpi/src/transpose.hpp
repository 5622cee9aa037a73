// The distributed transpose that turns a stored A (k x m) into op(A) = A^T
// (m x k) before SUMMA (and likewise B): block (bi, bj) of the source, on
// grid (bi % P, bj % Q), becomes block (bj, bi) of the result, on grid
// (bj % P, bi % Q), with the block extents swapped. One MPI_Alltoallv moves
// every block; moving values changes no bits.
#pragma once

#include <mpi.h>

#include <algorithm>
#include <array>
#include <climits>
#include <cstdint>
#include <new>
#include <vector>

#include "mpi/src/agreement.hpp"
#include "mpi/src/mpi_types.hpp"
#include "tessera/mpi.hpp"

namespace tessera::mpi::detail {

// Visits the blocks of `d` held by grid position (row, col) in ascending
// (block row, block column) order: f(block_row, block_col, local_row,
// local_col, height, width).
template <class F>
void for_each_local_block(const BlockDescriptor& d, int row, int col, F&& f) {
  const std::int64_t block_rows = d.rows / d.row_block + (d.rows % d.row_block != 0);
  const std::int64_t block_cols = d.cols / d.col_block + (d.cols % d.col_block != 0);
  for (std::int64_t bi = row; bi < block_rows; bi += d.grid_rows) {
    const std::int64_t height = std::min(d.row_block, d.rows - bi * d.row_block);
    const std::int64_t li = (bi / d.grid_rows) * d.row_block;
    for (std::int64_t bj = col; bj < block_cols; bj += d.grid_cols) {
      const std::int64_t width = std::min(d.col_block, d.cols - bj * d.col_block);
      const std::int64_t lj = (bj / d.grid_cols) * d.col_block;
      f(bi, bj, li, lj, height, width);
    }
  }
}

// The descriptor of the transpose of `d` (lld: the local columns on `col`).
inline BlockDescriptor transposed_descriptor(const BlockDescriptor& d, int col) {
  return make_descriptor(d.cols, d.rows, d.col_block, d.row_block, d.grid_rows, d.grid_cols, col);
}

// dst (resized, lld of transposed_descriptor) = the transpose of the
// distributed src. Collective over `comm` (grid row-major ranks). The caller
// checked that this rank's parts of src and of the result hold at most
// 2^31 - 1 elements (MPI counts are int). A rank that cannot allocate its
// buffers makes every rank return out_of_memory (agreed before moving data).
template <class T>
Status transpose_distributed(MPI_Comm comm, int row, int col, const T* src,
                             const BlockDescriptor& d, std::vector<T>* dst) {
  const int P = d.grid_rows, Q = d.grid_cols, size = P * Q;
  const BlockDescriptor t = transposed_descriptor(d, col);
  const std::int64_t t_rows = local_extent(t.rows, t.row_block, row, P);

  // Source blocks go to (bj % P, bi % Q), each packed transposed (width
  // rows of height values), in the order visited.
  std::vector<std::int64_t> send_count(size, 0), recv_count(size, 0);
  for_each_local_block(
      d, row, col,
      [&](std::int64_t bi, std::int64_t bj, std::int64_t, std::int64_t, std::int64_t h,
          std::int64_t w) { send_count[(bj % P) * Q + bi % Q] += h * w; });
  // Result blocks (I, J) = source (J, I) from (J % P, I % Q); the sender
  // visits by (J, I) ascending, so the receiver does too.
  for_each_local_block(
      t, row, col,
      [&](std::int64_t I, std::int64_t J, std::int64_t, std::int64_t, std::int64_t h,
          std::int64_t w) { recv_count[(J % P) * Q + I % Q] += h * w; });
  std::vector<int> sc(size), sd(size), rc(size), rd(size);
  std::int64_t s_total = 0, r_total = 0;
  for (int p = 0; p < size; ++p) {
    sc[p] = static_cast<int>(send_count[p]);
    sd[p] = static_cast<int>(s_total);
    rc[p] = static_cast<int>(recv_count[p]);
    rd[p] = static_cast<int>(r_total);
    s_total += send_count[p];
    r_total += recv_count[p];
  }
  std::vector<T> send, recv;
  Status allocated;
  try {
    dst->assign(static_cast<std::size_t>(std::max<std::int64_t>(1, t_rows * t.lld)), T(0));
    send.resize(static_cast<std::size_t>(std::max<std::int64_t>(1, s_total)));
    recv.resize(static_cast<std::size_t>(std::max<std::int64_t>(1, r_total)));
  } catch (const std::bad_alloc&) {
    allocated = Status(StatusCode::kOutOfMemory, "allocating the transpose's buffers");
  }
  TESSERA_RETURN_IF_ERROR(agree(comm, allocated, {}));
  std::vector<std::int64_t> cursor(sd.begin(), sd.end());
  for_each_local_block(d, row, col,
                       [&](std::int64_t bi, std::int64_t bj, std::int64_t li, std::int64_t lj,
                           std::int64_t h, std::int64_t w) {
                         T* out = send.data() + cursor[(bj % P) * Q + bi % Q];
                         for (std::int64_t c = 0; c < w; ++c) {
                           for (std::int64_t r = 0; r < h; ++r)
                             out[c * h + r] = src[(li + r) * d.lld + lj + c];
                         }
                         cursor[(bj % P) * Q + bi % Q] += h * w;
                       });
  MPI_Alltoallv(send.data(), sc.data(), sd.data(), mpi_type<T>(), recv.data(), rc.data(), rd.data(),
                mpi_type<T>(), comm);

  // Unpack in the senders' order: by source block (J, I) ascending, i.e.
  // result blocks with J outer and I inner.
  std::vector<std::int64_t> read(rd.begin(), rd.end());
  std::vector<std::array<std::int64_t, 6>> blocks;
  for_each_local_block(t, row, col,
                       [&](std::int64_t I, std::int64_t J, std::int64_t li, std::int64_t lj,
                           std::int64_t h, std::int64_t w) {
                         blocks.push_back({J, I, li, lj, h, w});
                       });
  std::sort(blocks.begin(), blocks.end());
  for (const auto& [J, I, li, lj, h, w] : blocks) {
    const T* in = recv.data() + read[(J % P) * Q + I % Q];
    for (std::int64_t r = 0; r < h; ++r) {
      for (std::int64_t c = 0; c < w; ++c) (*dst)[(li + r) * t.lld + lj + c] = in[r * w + c];
    }
    read[(J % P) * Q + I % Q] += h * w;
  }
  return {};
}

}  // namespace tessera::mpi::detail
