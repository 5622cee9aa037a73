#include "core/src/parallel/job_cursor.hpp"

namespace tessera::core {

// The counter can overshoot n_jobs by at most (participants x grain): every
// participant's final, failing claim adds one grain. With n_jobs and grain
// bounded by the problem's int64 extents this cannot overflow.
JobCursor::JobCursor(std::int64_t n_jobs, std::int64_t grain) noexcept
    : n_jobs_(n_jobs < 0 ? 0 : n_jobs), grain_(grain < 1 ? 1 : grain) {}

}  // namespace tessera::core
