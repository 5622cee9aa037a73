// bench-mpi_bcast: MPI_Bcast time against message size on this machine's
// ranks, the communication input of the SUMMA scaling model
// (docs/distributed-scaling.md, bench/mpi/summa_model.mjs).
//
//   mpirun -np 2 build/bench/bench/bench-mpi_bcast [--reps R]
//
// For each size (8 B to 64 MiB) every rank times R broadcasts from rank 0
// (a barrier before each); the slowest rank's time per broadcast is kept and
// the median over R printed with min and max, then a fit of the model
// t(n) = alpha + n / beta: alpha from the smallest size, beta from the
// largest sizes' bandwidth.
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int reps = 21;
  for (int i = 1; i + 1 < argc; ++i) {
    if (std::strcmp(argv[i], "--reps") == 0) reps = std::max(3, std::atoi(argv[i + 1]));
  }
  std::vector<char> buffer(std::size_t{64} << 20, 1);
  if (rank == 0) {
    std::printf(
        "MPI_Bcast from rank 0 to %d ranks, median of %d (slowest rank "
        "each time)\n",
        size, reps);
    std::printf("%12s %14s %14s %14s %10s\n", "bytes", "median us", "min us", "max us", "GB/s");
  }
  double alpha = 0, beta = 0;
  for (std::size_t bytes = 8; bytes <= buffer.size(); bytes *= 4) {
    std::vector<double> times;
    for (int r = 0; r < reps + 2; ++r) {  // two warm-up rounds
      MPI_Barrier(MPI_COMM_WORLD);
      const double t0 = MPI_Wtime();
      MPI_Bcast(buffer.data(), static_cast<int>(bytes), MPI_CHAR, 0, MPI_COMM_WORLD);
      double mine = MPI_Wtime() - t0, slowest = 0;
      MPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
      if (r >= 2) times.push_back(slowest);
    }
    std::sort(times.begin(), times.end());
    const double median = times[times.size() / 2];
    if (bytes == 8) alpha = median;
    if (bytes >= (std::size_t{16} << 20)) beta = std::max(beta, bytes / median);
    if (rank == 0) {
      std::printf("%12zu %14.2f %14.2f %14.2f %10.2f\n", bytes, median * 1e6, times.front() * 1e6,
                  times.back() * 1e6, bytes / median * 1e-9);
    }
  }
  if (rank == 0) {
    std::printf("fit: alpha %.2f us, beta %.2f GB/s (t(n) = alpha + n / beta)\n", alpha * 1e6,
                beta * 1e-9);
  }
  MPI_Finalize();
  return 0;
}
