/* A user's C MPI program on tessera/mpi.h: C = A^T B (40 x 24 x 56, f32) on
 * a size x 1 grid with 8 x 8 blocks, checked against a loop of its own
 * (small integers: exact), plus a bad argument reported on every rank. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tessera/mpi.h"

static float a_value(int p, int i) { return (float)((p * 7 + i * 3) % 11 - 5); }
static float b_value(int p, int j) { return (float)((p * 5 + j * 2) % 9 - 4); }

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int m = 40, n = 24, k = 56, nb = 8;
  /* A is stored k x m (trans_a), B k x n, C m x n; grid size x 1. */
  tsr_mpi_descriptor da = {k, m, nb, nb, size, 1, m};
  tsr_mpi_descriptor db = {k, n, nb, nb, size, 1, n};
  tsr_mpi_descriptor dc = {m, n, nb, nb, size, 1, n};
  const int64_t ka = tsr_mpi_local_extent(k, nb, rank, size);
  const int64_t mc = tsr_mpi_local_extent(m, nb, rank, size);
  float* a = calloc((size_t)(ka * m + 1), sizeof(float));
  float* b = calloc((size_t)(ka * n + 1), sizeof(float));
  float* c = calloc((size_t)(mc * n + 1), sizeof(float));
  /* Local row r is global row (r / nb * size + rank) * nb + r % nb. */
  for (int64_t r = 0; r < ka; ++r) {
    const int p = (int)((r / nb * size + rank) * nb + r % nb);
    for (int i = 0; i < m; ++i) a[r * m + i] = a_value(p, i);
    for (int j = 0; j < n; ++j) b[r * n + j] = b_value(p, j);
  }
  tsr_context* context = NULL;
  int wrong = 0;
  if (tsr_mpi_rank_context_create(MPI_COMM_WORLD, NULL, NULL, &context) != TSR_OK ||
      tsr_mpi_sgemm(context, MPI_COMM_WORLD, TSR_TRANS, TSR_NO_TRANS, 1.0f, a, &da, b, &db, 0.0f, c,
                    &dc) != TSR_OK) {
    printf("rank %d: %s\n", rank, tsr_last_error_message());
    wrong = 1;
  }
  for (int64_t r = 0; r < mc && !wrong; ++r) {
    const int i = (int)((r / nb * size + rank) * nb + r % nb);
    for (int j = 0; j < n; ++j) {
      float want = 0;
      for (int p = 0; p < k; ++p) want += a_value(p, i) * b_value(p, j);
      if (c[r * n + j] != want) ++wrong;
    }
  }
  /* A bad transpose value on the last rank only: every rank reports it. */
  const tsr_transpose bad = rank == size - 1 ? (tsr_transpose)7 : TSR_NO_TRANS;
  if (tsr_mpi_sgemm(context, MPI_COMM_WORLD, TSR_TRANS, bad, 1.0f, a, &da, b, &db, 0.0f, c, &dc) !=
          TSR_INVALID_ARGUMENT ||
      strstr(tsr_last_error_message(), "trans_b must be TSR_NO_TRANS or TSR_TRANS") == NULL) {
    printf("rank %d: bad trans_b not reported: %s\n", rank, tsr_last_error_message());
    ++wrong;
  }
  int total = 0;
  MPI_Allreduce(&wrong, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) printf("consumer_mpi_c: %d ranks, %d wrong\n", size, total);
  tsr_context_destroy(context);
  free(a);
  free(b);
  free(c);
  MPI_Finalize();
  return total == 0 ? 0 : 1;
}
