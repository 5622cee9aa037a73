// Distributed GEMM over MPI (design.md §Distributed GEMM; the C API is
// tessera/mpi.h): C <- alpha *
// op(A) * op(B) + beta * C on matrices spread over a P x Q process grid in
// 2D block-cyclic layout (ScaLAPACK's, without BLACS), with SUMMA: for each
// depth slice, the owners of A's columns broadcast them along their process
// row and the owners of B's rows along their process column, and every rank
// adds the slice's product to its part of C with tessera::gemm.
//
// Same bits on every grid: the slices are exactly the depth slices (kc) the
// one-process tessera::gemm cuts the same product into, taken in the same
// order, and each slice is one local gemm call that updates C as the
// one-process call does (beta in the first slice, then accumulate), so every
// element of C is computed by the same operations in the same order. The
// result equals single-process tessera::gemm bit for bit whatever the grid,
// block sizes or transposes, provided every rank runs the same ISA level
// (checked: ranks must agree on kc, or the call fails before writing).
//
// Layout. Rank r of the communicator is grid position (r / Q, r % Q). Global
// element (i, j) of a matrix with descriptor d lives on grid row
// (i / d.mb) % P and grid column (j / d.nb) % Q, at local row
// (i / (d.mb * P)) * d.mb + i % d.mb and local column likewise, stored
// row-major: local (li, lj) at data[li * d.lld + lj]. Matrices are given as
// stored: with trans_a, A is k x m (then redistributed as its transpose
// first; a transpose moves values, so the bits are unchanged).
//
// Errors: every rank validates its own arguments and then all ranks agree,
// collectively, on the first error (by rank) and its message, so a bad
// argument on one rank is reported on every rank, naming the argument and
// the rank, before anything is written. Fields that must be equal on every
// rank (sizes, blocks, grid, transposes, alpha, beta, kc) are compared
// across ranks. Every rank of the communicator must call; none hangs on an
// argument error.
//
// Threads: tessera's workers never call MPI; only the thread that calls
// gemm does. From the main thread, MPI_Init (MPI_THREAD_SINGLE or FUNNELED)
// is enough; from another thread, MPI_THREAD_SERIALIZED; from several at
// once, MPI_THREAD_MULTIPLE (each on its own communicator). Each calling
// thread keeps its panels between calls (design.md §Distributed GEMM).
#pragma once

#include <mpi.h>

#include <cstdint>
#include <string>

#include "tessera/context.hpp"
#include "tessera/gemm.hpp"
#include "tessera/platform/build_config.h"  // TESSERA_CXX_API_BEGIN

TESSERA_CXX_API_BEGIN
namespace tessera::mpi {

// A matrix distributed 2D block-cyclically over a grid_rows x grid_cols
// process grid (the same on every rank except lld).
struct BlockDescriptor {
  std::int64_t rows = 0, cols = 0;            // global extents
  std::int64_t row_block = 0, col_block = 0;  // block extents (>= 1)
  int grid_rows = 1, grid_cols = 1;
  // Local leading dimension (row-major): >= max(1, local columns).
  std::int64_t lld = 0;
};

// Rows (columns) of a distributed extent held by one grid row (column):
// ScaLAPACK's NUMROC with the first block on grid position 0.
std::int64_t local_extent(std::int64_t global, std::int64_t block, int position, int count);
// The grid position owning global index `global`, and its local index there.
int owner_of(std::int64_t global, std::int64_t block, int count);
std::int64_t local_index(std::int64_t global, std::int64_t block, int count);

// A descriptor for a rows x cols matrix on a grid, lld = the local column
// count on grid column `my_col` (at least 1).
BlockDescriptor make_descriptor(std::int64_t rows, std::int64_t cols, std::int64_t row_block,
                                std::int64_t col_block, int grid_rows, int grid_cols, int my_col);

// What one call did, for benchmarks and the scaling model.
struct GemmStats {
  std::int64_t kc = 0;         // the depth slice (the one-process gemm's)
  std::int64_t slices = 0;     // depth slices broadcast
  double pack_seconds = 0;     // copying this rank's panel pieces, posting broadcasts
  double comm_seconds = 0;     // waiting for panels (and the transposes)
  double compute_seconds = 0;  // local gemm calls
};

Status gemm(const Context& context, MPI_Comm comm, Transpose trans_a, Transpose trans_b,
            float alpha, const float* a, const BlockDescriptor& desc_a, const float* b,
            const BlockDescriptor& desc_b, float beta, float* c, const BlockDescriptor& desc_c,
            GemmStats* stats = nullptr);
Status gemm(const Context& context, MPI_Comm comm, Transpose trans_a, Transpose trans_b,
            double alpha, const double* a, const BlockDescriptor& desc_a, const double* b,
            const BlockDescriptor& desc_b, double beta, double* c, const BlockDescriptor& desc_c,
            GemmStats* stats = nullptr);

// A context for this rank that divides the node fairly among the ranks of
// `comm` sharing it: the ranks on this node (MPI_Comm_split_type
// MPI_COMM_TYPE_SHARED) that see exactly this rank's CPU set share it
// (ContextOptions::node_share); ranks bound to CPUs of their own (mpirun
// --bind-to core, a cpuset per rank) keep them. Collective over `comm`:
// when one rank's context cannot be made, every rank returns its error.
// `options` supplies everything else; its node_share is replaced.
Status make_rank_context(MPI_Comm comm, ContextOptions options, Context* out);

}  // namespace tessera::mpi
TESSERA_CXX_API_END
