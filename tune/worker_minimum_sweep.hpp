// The per-worker minimum sweep (TESSERA_PAR_MNK_PER_WORKER): how much GEMM
// work (m n k) the automatic path gives each worker, which decides how many
// workers a mid-size GEMM gets. Timed at `threads` participants on square
// sgemms from 96 to 320 (where one worker, two or all are each the right
// answer on some machine), every challenger side by side with the default.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tessera::tune {

struct WorkerMinimumOutcome {
  bool swept = false;
  std::optional<std::uint64_t> chosen;  // nullopt: the default kept
  double confirmed_gain = 1.0;
  std::vector<std::string> notes;
};

WorkerMinimumOutcome sweep_worker_minimum(int threads, int rounds, double margin,
                                          double* budget_seconds, bool dry_run);

}  // namespace tessera::tune
