// What the execution-policy sources (platform/src/execution_policy_*.cc)
// share with one another and with nobody else: never installed, and not a
// seam for core/ or the backends, which use execution_policy.hpp. It lives
// here, not next to the sources, because platform/ spells every header from
// tessera/platform/ (tests/layering_check.cmake).
#pragma once

#include <cstdint>
#include <string>

#include "tessera/platform/execution_policy.hpp"

namespace tessera::platform::policy_detail {

// Whether `value` is one of Enum's named values, and those names as "a, b,
// c" (Enum: SpinPolicy, AffinityPolicy, IdlePolicy; defined next to the
// name tables). The value is an integer because a C or JS caller can store
// any number in an enum field, and validation must reject what it cannot
// name.
template <typename Enum>
bool is_named_value(std::int64_t value) noexcept;
template <typename Enum>
std::string name_list();

// The affinity a request means: unset + cpu_set = explicit; unset alone =
// the platform default. Validation and resolution must agree on it, or a
// policy could pass one and be read differently by the other.
inline AffinityPolicy requested_affinity(const ExecutionPolicy& policy,
                                         const PlatformFacts& facts) {
  if (policy.affinity_policy) return *policy.affinity_policy;
  if (!policy.cpu_set.empty()) return AffinityPolicy::kExplicit;
  return facts.affinity_supported ? AffinityPolicy::kPhysicalCores : AffinityPolicy::kNone;
}

// "1 CPU", "4 CPUs": counts in messages and reasons.
inline std::string plural(long long n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

}  // namespace tessera::platform::policy_detail
