// JobCursor: the lock-free work distributor of the GEMM driver
// (design.md §Job cursor).
//
// A flat list of n_jobs jobs is claimed in contiguous chunks [begin, end) of
// `grain` jobs by whoever asks next, until it is exhausted. It replaces the
// serial loop
//     for (q = 0; q < n_jobs; ++q) job(q);
// with
//     while (cursor.next_chunk(&b, &e)) for (q = b; q < e; ++q) job(q);
// run by every participant: each job is claimed exactly once, fast
// participants simply claim more chunks (no static split, no queues, no
// locks).
//
// Memory ordering: one relaxed fetch_add per claim. The counter only hands
// out indices; it publishes no data. Everything a job reads (the packed B
// block, the shared A panels, C) was written before the executor's run()
// that starts the participants, and everything jobs write is read only after
// run() returns; the executor's fork and join provide those happens-before
// edges. Two claims can therefore never observe the same index (fetch_add is
// atomic whatever the ordering) and need nothing stronger than relaxed.
#pragma once

#include <atomic>
#include <cstdint>

namespace tessera::core {

class alignas(64) JobCursor {
 public:
  // grain >= 1 jobs per claim (the last chunk may be shorter).
  JobCursor(std::int64_t n_jobs, std::int64_t grain) noexcept;
  JobCursor(const JobCursor&) = delete;
  JobCursor& operator=(const JobCursor&) = delete;

  // Claims the next chunk; false once every job has been claimed.
  bool next_chunk(std::int64_t* begin, std::int64_t* end) noexcept {
    const std::int64_t start = next_.fetch_add(grain_, std::memory_order_relaxed);
    if (start >= n_jobs_) return false;
    *begin = start;
    *end = start + grain_ < n_jobs_ ? start + grain_ : n_jobs_;
    return true;
  }

  std::int64_t jobs() const noexcept { return n_jobs_; }
  std::int64_t grain() const noexcept { return grain_; }

 private:
  // Alone on its cache line: every claim writes it.
  std::atomic<std::int64_t> next_{0};
  alignas(64) std::int64_t n_jobs_;
  std::int64_t grain_;
};

}  // namespace tessera::core
