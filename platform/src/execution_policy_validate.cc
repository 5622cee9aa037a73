// validate_execution_policy as two tables of rules, applied in order; the
// first rule a policy breaks is its error. The order is part of the
// contract: when several fields are bad, tests and the C and JS layers see
// which message wins, so a new rule goes where its check belongs, not at
// the end.
//  - kFieldRules: one field at a time, each row a range or an enum's names.
//  - kCpuSetRules: the CPU set, read against the affinity it needs and the
//    CPUs this process can see (a small function each).
#include "tessera/platform/execution_policy.hpp"

#include <cstdint>
#include <limits>
#include <optional>
#include <set>
#include <string>
#include <string_view>

#include "tessera/platform/execution_policy_internal.hpp"

namespace tessera::platform {
namespace {

using policy_detail::plural;
using policy_detail::requested_affinity;

Status field_error(const char* field, const std::string& what) {
  return Status::invalid_argument(std::string("ExecutionPolicy::") + field + " " + what);
}

// ---------------------------------------------------------------------------
// Rules on one field

// What a field may hold: a value in [min, max] and, for an enum field, one
// of the enum's named values.
struct Allowed {
  std::int64_t min = std::numeric_limits<std::int64_t>::min();
  std::int64_t max = std::numeric_limits<std::int64_t>::max();
  bool (*is_named)(std::int64_t) = nullptr;  // nullptr: any number in range
  std::string (*names)() = nullptr;          // the names, for {names}
};

constexpr Allowed at_least(std::int64_t min) { return {.min = min}; }
constexpr Allowed at_most(std::int64_t max) { return {.max = max}; }
template <typename Enum>
constexpr Allowed one_of() {
  return {.is_named = &policy_detail::is_named_value<Enum>,
          .names = &policy_detail::name_list<Enum>};
}

bool allows(const Allowed& allowed, std::int64_t value) {
  if (value < allowed.min || value > allowed.max) return false;
  return allowed.is_named == nullptr || allowed.is_named(value);
}

struct FieldRule {
  const char* field;                             // as in ExecutionPolicy::<field>
  bool (*applies)(const ExecutionPolicy&);       // which policies the rule is for
  std::int64_t (*read)(const ExecutionPolicy&);  // the field, as a number
  Allowed allowed;
  // The error after "ExecutionPolicy::<field> ". Filled in: {value} the
  // field's value, {max} allowed.max, {names} the enum's names,
  // {spin_policy} the name of the policy's spin_policy.
  const char* message;
};

// An enum field is read as its number, so an unnamed value (which a C or JS
// caller can store) reaches the message as that number.
template <auto kMember>
std::int64_t value_of(const ExecutionPolicy& policy) {
  return static_cast<std::int64_t>(policy.*kMember);
}
std::int64_t affinity_value(const ExecutionPolicy& policy) {
  return static_cast<std::int64_t>(*policy.affinity_policy);
}

bool always(const ExecutionPolicy&) { return true; }
bool spin_is_fixed_iterations(const ExecutionPolicy& p) {
  return p.spin_policy == SpinPolicy::kFixedIterations;
}
bool spin_is_fixed_duration(const ExecutionPolicy& p) {
  return p.spin_policy == SpinPolicy::kFixedDuration;
}
bool spin_takes_no_budget(const ExecutionPolicy& p) {
  return p.spin_policy == SpinPolicy::kAdaptive || p.spin_policy == SpinPolicy::kParkImmediately;
}
bool affinity_is_set(const ExecutionPolicy& p) { return p.affinity_policy.has_value(); }
bool idle_releases_workers(const ExecutionPolicy& p) {
  return p.idle_policy == IdlePolicy::kReleaseWhenIdle;
}

// Two rows say it: a negative delay is wrong for every idle policy, a zero
// one only for the policy that waits it out.
constexpr const char* kIdleReleaseNotPositive =
    "= {value} must be > 0 (milliseconds without work before workers are released)";

constexpr FieldRule kFieldRules[] = {
    {"num_threads", always, value_of<&ExecutionPolicy::num_threads>, at_least(0),
     "= {value} is negative: expected 0 (topology default), 1 (serial) or a participant count"},
    {"num_threads", always, value_of<&ExecutionPolicy::num_threads>, at_most(kMaxNumThreads),
     "= {value} is out of range: expected at most {max}"},

    {"spin_policy", always, value_of<&ExecutionPolicy::spin_policy>, one_of<SpinPolicy>(),
     "has unknown value {value}: expected one of {names}"},
    // The budget's ceiling depends on its unit, so it comes after the spin
    // policy is known to be a named one.
    {"spin_budget", always, value_of<&ExecutionPolicy::spin_budget>, at_least(0),
     "= {value} is negative"},
    {"spin_budget", spin_is_fixed_iterations, value_of<&ExecutionPolicy::spin_budget>,
     at_most(kMaxSpinIterations), "= {value} iterations is absurd: expected at most {max}"},
    {"spin_budget", spin_is_fixed_duration, value_of<&ExecutionPolicy::spin_budget>,
     at_most(kMaxSpinDurationUs),
     "= {value} microseconds is absurd: expected at most {max} (1 s)"},
    // At most 0 after the row above: the budget must be exactly 0.
    {"spin_budget", spin_takes_no_budget, value_of<&ExecutionPolicy::spin_budget>, at_most(0),
     "= {value} is impossible with spin_policy = {spin_policy}: only fixed_iterations and "
     "fixed_duration take a budget"},

    // Unset means the platform default (or explicit, with a cpu_set).
    {"affinity_policy", affinity_is_set, affinity_value, one_of<AffinityPolicy>(),
     "has unknown value {value}: expected one of {names}"},

    {"idle_policy", always, value_of<&ExecutionPolicy::idle_policy>, one_of<IdlePolicy>(),
     "has unknown value {value}: expected one of {names}"},
    {"idle_release_ms", always, value_of<&ExecutionPolicy::idle_release_ms>, at_least(0),
     kIdleReleaseNotPositive},
    {"idle_release_ms", idle_releases_workers, value_of<&ExecutionPolicy::idle_release_ms>,
     at_least(1), kIdleReleaseNotPositive},
    {"idle_release_ms", always, value_of<&ExecutionPolicy::idle_release_ms>,
     at_most(kMaxIdleReleaseMs), "= {value} is absurd: expected at most {max} (one day)"},

    {"max_threads_per_kernel", always, value_of<&ExecutionPolicy::max_threads_per_kernel>,
     at_least(0), "= {value} is negative: expected 0 (no limit) or a count"},
    {"max_threads_per_kernel", always, value_of<&ExecutionPolicy::max_threads_per_kernel>,
     at_most(kMaxNumThreads), "= {value} is out of range: expected at most {max}"},
};

// The rule's message with its placeholders filled in.
std::string message_of(const FieldRule& rule, std::int64_t value, const ExecutionPolicy& policy) {
  std::string text;
  std::string_view rest = rule.message;
  for (;;) {
    const std::size_t open = rest.find('{');
    const std::size_t close = rest.find('}', open);
    if (close == std::string_view::npos) break;  // no placeholder left
    const std::string_view key = rest.substr(open + 1, close - open - 1);
    text += rest.substr(0, open);
    if (key == "value") {
      text += std::to_string(value);
    } else if (key == "max") {
      text += std::to_string(rule.allowed.max);
    } else if (key == "names") {
      text += rule.allowed.names();
    } else if (key == "spin_policy") {
      text += spin_policy_name(policy.spin_policy);
    } else {
      text += rest.substr(open, close - open + 1);  // a typo stays visible
    }
    rest.remove_prefix(close + 1);
  }
  text += rest;
  return text;
}

// ---------------------------------------------------------------------------
// Rules on the CPU set

// The error after "ExecutionPolicy::<field> ", or nothing when the rule holds.
using Broken = std::optional<std::string>;

struct CpuSetRule {
  const char* field;  // the field the message names
  Broken (*broken)(const ExecutionPolicy&, const Topology&, const PlatformFacts&);
};

bool affinity_is_explicit(const ExecutionPolicy& policy, const PlatformFacts& facts) {
  return requested_affinity(policy, facts) == AffinityPolicy::kExplicit;
}

// Any other affinity would ignore the set without a word.
Broken set_without_explicit_affinity(const ExecutionPolicy& policy, const Topology&,
                                     const PlatformFacts& facts) {
  const AffinityPolicy affinity = requested_affinity(policy, facts);
  if (policy.cpu_set.empty() || affinity == AffinityPolicy::kExplicit) return {};
  return "is given but affinity_policy = " + std::string(affinity_policy_name(affinity)) +
         ": a CPU set needs affinity_policy = explicit";
}

// An empty explicit request is an error, distinct from a platform that
// cannot pin (a fallback of resolution).
Broken empty_explicit_set(const ExecutionPolicy& policy, const Topology&,
                          const PlatformFacts& facts) {
  if (!affinity_is_explicit(policy, facts) || !policy.cpu_set.empty()) return {};
  return "is empty but affinity_policy = explicit: list the logical CPUs to use "
         "(affinity_policy = none means no pinning)";
}

// One pass, so the first bad id in the list wins whichever way it is bad.
Broken negative_or_repeated_cpu(const ExecutionPolicy& policy, const Topology&,
                                const PlatformFacts& facts) {
  if (!affinity_is_explicit(policy, facts)) return {};
  std::set<int> seen;
  for (int id : policy.cpu_set) {
    if (id < 0) return "contains " + std::to_string(id) + ": CPU ids are >= 0";
    if (!seen.insert(id).second) return "lists CPU " + std::to_string(id) + " twice";
  }
  return {};
}

Broken more_threads_than_set_cpus(const ExecutionPolicy& policy, const Topology&,
                                  const PlatformFacts& facts) {
  if (!affinity_is_explicit(policy, facts) ||
      policy.num_threads <= static_cast<int>(policy.cpu_set.size())) {
    return {};
  }
  return "= " + std::to_string(policy.num_threads) + " exceeds the " +
         plural(static_cast<long long>(policy.cpu_set.size()), "CPU", "CPUs") +
         " of cpu_set with affinity_policy = explicit: at most one participant per listed CPU";
}

// Where the platform cannot pin, the set cannot be checked against anything
// real; resolution reports that it is ignored.
Broken invisible_cpu(const ExecutionPolicy& policy, const Topology& topology,
                     const PlatformFacts& facts) {
  if (!affinity_is_explicit(policy, facts) || !facts.affinity_supported) return {};
  for (int id : policy.cpu_set) {
    if (topology.find_cpu(id) == nullptr) {
      return "contains CPU " + std::to_string(id) + ", which is not in the process-visible set {" +
             format_cpu_list(topology.cpu_ids()) + "}";
    }
  }
  return {};
}

constexpr CpuSetRule kCpuSetRules[] = {
    {"cpu_set", set_without_explicit_affinity},
    {"cpu_set", empty_explicit_set},
    {"cpu_set", negative_or_repeated_cpu},
    {"num_threads", more_threads_than_set_cpus},
    {"cpu_set", invisible_cpu},
};

}  // namespace

Status validate_execution_policy(const ExecutionPolicy& policy, const Topology& topology,
                                 const PlatformFacts& facts) {
  for (const FieldRule& rule : kFieldRules) {
    if (!rule.applies(policy)) continue;
    const std::int64_t value = rule.read(policy);
    if (!allows(rule.allowed, value)) {
      return field_error(rule.field, message_of(rule, value, policy));
    }
  }
  for (const CpuSetRule& rule : kCpuSetRules) {
    if (Broken what = rule.broken(policy, topology, facts)) return field_error(rule.field, *what);
  }
  return {};
}

}  // namespace tessera::platform
