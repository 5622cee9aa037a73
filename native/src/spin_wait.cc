#include "native/src/spin_wait.hpp"

#include <algorithm>

namespace tessera::native {

SpinBudget::SpinBudget(platform::SpinPolicy policy, std::int64_t budget,
                       bool oversubscribed) noexcept
    : policy_(policy) {
  switch (policy) {
    case platform::SpinPolicy::kAdaptive:
      if (oversubscribed) {
        // Fixed short yielding spin: learn() leaves it alone.
        policy_ = platform::SpinPolicy::kFixedDuration;
        yield_ = true;
        budget_ns_ = kOversubscribedSpinNs;
      } else {
        budget_ns_ = kAdaptiveInitialNs;
      }
      break;
    case platform::SpinPolicy::kFixedIterations:
      iterations_ = std::max<std::int64_t>(0, budget);
      break;
    case platform::SpinPolicy::kFixedDuration:
      // spin_budget is in microseconds (validated <= 1 s by the policy).
      budget_ns_ = std::max<std::int64_t>(0, budget) * 1000;
      break;
    case platform::SpinPolicy::kParkImmediately:
      break;
  }
}

void SpinBudget::learn(std::int64_t waited_ns, bool parked) noexcept {
  if (policy_ != platform::SpinPolicy::kAdaptive) return;
  if (preempted_) {
    // The CPUs are oversubscribed right now: spin less.
    budget_ns_ = std::max(kAdaptiveFloorNs, budget_ns_ / 2);
  } else if (waited_ns <= kAdaptiveCapNs) {
    // A spin of twice this wait would have caught it (or did): keep at
    // least that much, within the cap. Short waits never shrink the budget:
    // they end long before it runs out, so a large budget costs them
    // nothing.
    budget_ns_ = std::clamp(std::max(budget_ns_, 2 * waited_ns),
                            kAdaptiveFloorNs, kAdaptiveCapNs);
  } else if (parked) {
    // Longer than any spin we allow: the spin was wasted. Halve it, down to
    // the floor, so an idle-most-of-the-time pool stops burning CPU.
    budget_ns_ = std::max(kAdaptiveFloorNs, budget_ns_ / 2);
  }
}

}  // namespace tessera::native
