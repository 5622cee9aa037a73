/* The distributed GEMM's C API (the C++ one: tessera/mpi.hpp, which
 * documents the layout, the algorithm, the same-bits promise and the
 * collective errors). Every function is collective over `comm` except
 * tsr_mpi_local_extent; each returns a tsr_status, with the message in
 * tsr_last_error_message() on every rank when it fails. Link tessera::mpi. */
#ifndef TESSERA_MPI_H_
#define TESSERA_MPI_H_

#include <mpi.h>
#include <stdint.h>

#include "tessera/tessera.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A matrix distributed 2D block-cyclically over a grid_rows x grid_cols
 * process grid (rank r at (r / grid_cols, r % grid_cols)); local parts are
 * row-major with leading dimension lld (>= the local column count, >= 1). */
typedef struct tsr_mpi_descriptor {
  int64_t rows, cols;
  int64_t row_block, col_block;
  int grid_rows, grid_cols;
  int64_t lld;
} tsr_mpi_descriptor;

/* Rows (or columns) of `global` held by grid position `position` of `count`
 * with blocks of `block` (ScaLAPACK's NUMROC); 0 for non-positive input. */
TSR_API int64_t tsr_mpi_local_extent(int64_t global, int64_t block, int position, int count);

/* C = alpha op(A) op(B) + beta C on the grid; the result has the bits of
 * tsr_sgemm / tsr_dgemm on the whole matrices. context NULL: the default. */
TSR_API tsr_status tsr_mpi_sgemm(const tsr_context* context, MPI_Comm comm, tsr_transpose trans_a,
                                 tsr_transpose trans_b, float alpha, const float* a,
                                 const tsr_mpi_descriptor* desc_a, const float* b,
                                 const tsr_mpi_descriptor* desc_b, float beta, float* c,
                                 const tsr_mpi_descriptor* desc_c);
TSR_API tsr_status tsr_mpi_dgemm(const tsr_context* context, MPI_Comm comm, tsr_transpose trans_a,
                                 tsr_transpose trans_b, double alpha, const double* a,
                                 const tsr_mpi_descriptor* desc_a, const double* b,
                                 const tsr_mpi_descriptor* desc_b, double beta, double* c,
                                 const tsr_mpi_descriptor* desc_c);

/* A context for this rank's share of its node (tessera/mpi.hpp,
 * make_rank_context); options and policy as tsr_context_create_with_policy
 * (either may be NULL). Free it with tsr_context_destroy. */
TSR_API tsr_status tsr_mpi_rank_context_create(MPI_Comm comm, const tsr_context_options* options,
                                               const tsr_execution_policy* policy,
                                               tsr_context** out);

#ifdef __cplusplus
}
#endif

#endif /* TESSERA_MPI_H_ */
