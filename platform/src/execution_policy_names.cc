// The names of the execution policy's enums, one table per enum: text,
// JSON, the C API and the JS options all spell a value the way its row
// does, and validation lists a table's names when a value is unknown.
#include "tessera/platform/execution_policy.hpp"

#include <string>
#include <string_view>

#include "tessera/platform/execution_policy_internal.hpp"

namespace tessera::platform {
namespace {

template <typename Enum>
struct NameRow {
  Enum value;
  const char* name;
};

constexpr NameRow<SpinPolicy> kSpinNames[] = {
    {SpinPolicy::kAdaptive, "adaptive"},
    {SpinPolicy::kFixedIterations, "fixed_iterations"},
    {SpinPolicy::kFixedDuration, "fixed_duration"},
    {SpinPolicy::kParkImmediately, "park_immediately"},
};
constexpr NameRow<AffinityPolicy> kAffinityNames[] = {
    {AffinityPolicy::kNone, "none"},
    {AffinityPolicy::kPhysicalCores, "physical_cores"},
    {AffinityPolicy::kPerformanceCores, "performance_cores"},
    {AffinityPolicy::kPhysicalThenSmt, "physical_then_smt"},
    {AffinityPolicy::kExplicit, "explicit"},
};
constexpr NameRow<IdlePolicy> kIdleNames[] = {
    {IdlePolicy::kKeepWorkers, "keep_workers"},
    {IdlePolicy::kReleaseWhenIdle, "release_when_idle"},
};

// Each enum's table, so the templates below take the enum alone.
constexpr const auto& name_rows(SpinPolicy) { return kSpinNames; }
constexpr const auto& name_rows(AffinityPolicy) { return kAffinityNames; }
constexpr const auto& name_rows(IdlePolicy) { return kIdleNames; }

template <typename Enum>
const char* name_of(Enum value) noexcept {
  for (const auto& row : name_rows(Enum{})) {
    if (row.value == value) return row.name;
  }
  return "unknown";
}

template <typename Enum>
bool parse_name(std::string_view name, Enum* out) noexcept {
  for (const auto& row : name_rows(Enum{})) {
    if (name == row.name) {
      *out = row.value;
      return true;
    }
  }
  return false;
}

}  // namespace

const char* spin_policy_name(SpinPolicy p) noexcept { return name_of(p); }
const char* affinity_policy_name(AffinityPolicy p) noexcept { return name_of(p); }
const char* idle_policy_name(IdlePolicy p) noexcept { return name_of(p); }

bool parse_spin_policy(std::string_view name, SpinPolicy* out) noexcept {
  return parse_name(name, out);
}
bool parse_affinity_policy(std::string_view name, AffinityPolicy* out) noexcept {
  return parse_name(name, out);
}
bool parse_idle_policy(std::string_view name, IdlePolicy* out) noexcept {
  return parse_name(name, out);
}

namespace policy_detail {

template <typename Enum>
bool is_named_value(std::int64_t value) noexcept {
  for (const auto& row : name_rows(Enum{})) {
    if (static_cast<std::int64_t>(row.value) == value) return true;
  }
  return false;
}

template <typename Enum>
std::string name_list() {
  std::string text;
  for (const auto& row : name_rows(Enum{})) {
    if (!text.empty()) text += ", ";
    text += row.name;
  }
  return text;
}

template bool is_named_value<SpinPolicy>(std::int64_t) noexcept;
template bool is_named_value<AffinityPolicy>(std::int64_t) noexcept;
template bool is_named_value<IdlePolicy>(std::int64_t) noexcept;
template std::string name_list<SpinPolicy>();
template std::string name_list<AffinityPolicy>();
template std::string name_list<IdlePolicy>();

}  // namespace policy_detail
}  // namespace tessera::platform
