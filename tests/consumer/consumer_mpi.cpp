// A user's MPI program on tessera::mpi: C = A B (40 x 24 x 56) on a
// 1 x size grid, each rank holding a column block of B and C and all of A,
// checked against a loop of its own (small integers: exact).
#include <mpi.h>

#include <cstdio>
#include <vector>

#include "tessera/mpi.hpp"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int m = 40, n = 24, k = 56, nb = (n + size - 1) / size;
  using tessera::mpi::make_descriptor;
  // A: all of it on every rank (one grid row; columns in blocks of k).
  const auto da = make_descriptor(m, k, m, k, 1, size, rank);
  const auto db = make_descriptor(k, n, k, nb, 1, size, rank);
  const auto dc = make_descriptor(m, n, m, nb, 1, size, rank);
  const long my_cols = tessera::mpi::local_extent(n, nb, rank, size);
  const long a_cols = tessera::mpi::local_extent(k, k, rank, size);
  std::vector<double> a(m * da.lld), b(k * db.lld), c(m * dc.lld, -1.0);
  for (int i = 0; i < m; ++i)
    for (int p = 0; p < a_cols; ++p) a[i * da.lld + p] = (i * 7 + p * 3) % 11 - 5;
  for (int p = 0; p < k; ++p)
    for (long j = 0; j < my_cols; ++j) b[p * db.lld + j] = ((p * 5 + (rank * nb + j) * 2) % 9) - 4;

  tessera::Context context;
  tessera::Status s = tessera::mpi::make_rank_context(MPI_COMM_WORLD, {}, &context);
  if (s.ok()) {
    s = tessera::mpi::gemm(context, MPI_COMM_WORLD, tessera::Transpose::kNo,
                           tessera::Transpose::kNo, 1.0, a.data(), da, b.data(), db, 0.0, c.data(),
                           dc);
  }
  int bad = s.ok() ? 0 : 1;
  if (!s.ok()) std::printf("rank %d: %s\n", rank, s.to_string().c_str());
  for (int i = 0; i < m && s.ok(); ++i) {
    for (long j = 0; j < my_cols; ++j) {
      double want = 0;
      for (int p = 0; p < k; ++p) {
        want += double((i * 7 + p * 3) % 11 - 5) * double(((p * 5 + (rank * nb + j) * 2) % 9) - 4);
      }
      if (c[i * dc.lld + j] != want) ++bad;
    }
  }
  int total = 0;
  MPI_Allreduce(&bad, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) std::printf("consumer_mpi: %d ranks, %d wrong\n", size, total);
  MPI_Finalize();
  return total == 0 ? 0 : 1;
}
