// A batch plan's BatchParallel kind, run (batch_plan.hpp): whole entries per
// worker, each serial inside, claimed in runs of consecutive entries from a
// home range per worker (home_range_cursor.hpp), so a worker walks its
// operands in address order and the hardware prefetchers keep their
// streams; one entry per claim from a shared cursor had two workers
// alternate entries and each jump 48 KiB per entry (1000 x 64^3 f32 at 2
// workers against OpenBLAS in an OpenMP loop: 0.62x with single entries,
// 0.82x with runs). Sixteen runs per worker still let a fast worker take
// over entries of a slow one. Shared by batched f32 GEMM and batched
// MatMulInteger.
#pragma once

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "core/src/parallel/home_range_cursor.hpp"
#include "tessera/platform/executor.hpp"
#include "tessera/platform/status.hpp"

namespace tessera::core {

// Runs run_entry(i, end) for every i in [0, batch) on `workers`
// participants of `executor` (end: the end of the run i belongs to, for a
// prefetch hint of the next entry). Returns the lowest failing entry's
// Status, its index in *failed (-1 when every entry succeeded).
template <class F>
Status run_entries_parallel(platform::Executor* executor, int workers, std::int64_t batch,
                            F&& run_entry, std::int64_t* failed) {
  struct Failure {
    std::int64_t entry = -1;
    Status status;
  };
  std::vector<Failure> failures(static_cast<std::size_t>(workers));
  constexpr std::int64_t kRunsPerWorker = 16;
  HomeRangeCursor cursor(batch, std::max<std::int64_t>(1, batch / (workers * kRunsPerWorker)),
                         workers);
  executor->run(workers, [&](int participant) {
    const platform::ParallelBodyScope region;
    Failure& mine = failures[static_cast<std::size_t>(participant)];
    std::int64_t b, e;
    while (cursor.next_chunk(participant, &b, &e)) {
      for (std::int64_t i = b; i < e; ++i) {
        Status s = run_entry(i, e);
        if (!s.ok() && (mine.entry < 0 || i < mine.entry)) mine = {i, std::move(s)};
      }
    }
  });
  const Failure* first = nullptr;
  for (const Failure& f : failures) {
    if (f.entry >= 0 && (first == nullptr || f.entry < first->entry)) first = &f;
  }
  *failed = first != nullptr ? first->entry : -1;
  return first != nullptr ? first->status : Status();
}

}  // namespace tessera::core
