#include "core/src/parallel/home_range_cursor.hpp"

namespace tessera::core {

HomeRangeCursor::HomeRangeCursor(std::int64_t n_jobs, std::int64_t grain, int participants)
    : n_jobs_(n_jobs < 0 ? 0 : n_jobs),
      grain_(grain < 1 ? 1 : grain),
      participants_(participants < 1 ? 1 : participants),
      ranges_(new Range[static_cast<std::size_t>(participants_)]) {
  // Home range p: chunks [chunks * p / w, chunks * (p + 1) / w).
  const std::int64_t chunks = (n_jobs_ + grain_ - 1) / grain_;
  for (int p = 0; p < participants_; ++p) {
    ranges_[p].next.store(chunks * p / participants_, std::memory_order_relaxed);
    ranges_[p].end = chunks * (p + 1) / participants_;
  }
}

}  // namespace tessera::core
