// libFuzzer harness: the execution policy and the knobs, where text and
// numbers from users (the environment, the C API, the JS package) enter.
//  - A TESSERA_* knob set to fuzzed text and read with
//    read_knobs_from_environment: plain decimal text within the knob's
//    documented range is accepted with exactly that value (describe_knobs
//    shows it); text with anything but blanks around the digits is
//    rejected, naming the variable; a rejection leaves the knobs as they
//    were.
//  - A tsr_execution_policy with fuzzed fields (names from the documented
//    sets and arbitrary strings, counts and budgets of any sign, explicit
//    CPU sets) passed to tsr_context_create_with_policy: creation succeeds
//    or fails with a message naming a field and leaves *out untouched; a
//    created context's resolved policy (tessera's JSON writer) is a
//    balanced JSON object and its thread count is within what was asked.
// tessera has no policy *parser* of JSON text (the JS package passes
// fields); the JSON here is the writer's output.
#include <fuzzer/FuzzedDataProvider.h>

#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "tessera/knobs.hpp"
#include "tessera/tessera.h"
#include "tests/fuzz/fuzz_support.hpp"

namespace tessera::fuzz {
namespace {

bool plain_decimal(const std::string& text, std::uint64_t* value) {
  std::size_t i = 0;
  while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;
  const std::size_t start = i;
  long double v = 0;
  while (i < text.size() && text[i] >= '0' && text[i] <= '9') v = v * 10 + (text[i++] - '0');
  if (i == start) return false;
  while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;
  if (i != text.size() || v > 18446744073709551615.0L) return false;
  // Exact value for what fits (the range checks below need no more).
  std::uint64_t exact = 0;
  for (std::size_t j = start; j < text.size() && text[j] >= '0' && text[j] <= '9'; ++j) {
    exact = exact * 10 + static_cast<std::uint64_t>(text[j] - '0');
  }
  *value = exact;
  return true;
}

void fuzz_knob(FuzzedDataProvider& in) {
  const std::vector<KnobInfo>& catalog = knob_catalog();
  const KnobInfo& knob = catalog[in.ConsumeIntegralInRange<std::size_t>(0, catalog.size() - 1)];
  std::string text;
  switch (in.ConsumeIntegralInRange<int>(0, 3)) {
    case 0: {  // a value in [0, max], mostly in range
      const std::uint64_t v = in.ConsumeIntegral<std::uint64_t>();
      text = std::to_string(knob.max == UINT64_MAX ? v : v % (knob.max + 1));
      break;
    }
    case 1: text = std::to_string(in.ConsumeIntegral<std::int64_t>()); break;
    default: text = in.ConsumeRandomLengthString(32); break;
  }
  if (text.find('\0') != std::string::npos) text.resize(text.find('\0'));
  setenv(knob.variable, text.c_str(), 1);
  Knobs knobs;
  knobs.pool_classes = 7;  // a field set before: kept on failure
  const Status s = read_knobs_from_environment(&knobs);
  unsetenv(knob.variable);
  const std::string name = knob.variable;
  if (name == "TESSERA_ISA") {
    require(s.ok() || s.message().find(name) != std::string::npos, "ISA error without the name");
    return;
  }
  std::uint64_t value = 0;
  const bool decimal = plain_decimal(text, &value);
  const bool in_range = decimal && text.size() < 40 && value >= knob.min && value <= knob.max;
  if (!s.ok()) {
    require(s.message().find(name) != std::string::npos, "knob error without the name");
    require(knobs.pool_classes == 7u && !knobs.num_threads && !knobs.isa,
            "a rejected knob changed the knobs");
    require(!in_range || text.size() >= 40, "an in-range decimal knob rejected", text.c_str());
    return;
  }
  require(decimal, "a non-decimal knob accepted", text.c_str());
  require(value >= knob.min && value <= knob.max, "an out-of-range knob accepted", text.c_str());
  bool shown = false;
  for (const std::string& line : describe_knobs(knobs)) {
    if (line == name + "=" + std::to_string(value)) shown = true;
  }
  require(shown, "the accepted value is not the one given", text.c_str());
}

const char* pick_name(FuzzedDataProvider& in, const std::vector<const char*>& names,
                      std::string* storage) {
  const int r = in.ConsumeIntegralInRange<int>(0, static_cast<int>(names.size()) + 1);
  if (r < static_cast<int>(names.size())) return names[static_cast<std::size_t>(r)];
  if (r == static_cast<int>(names.size())) return nullptr;
  *storage = in.ConsumeRandomLengthString(16);
  return storage->c_str();
}

bool balanced_object(const char* json) {
  if (json == nullptr || json[0] != '{') return false;
  int depth = 0;
  bool in_string = false;
  for (const char* p = json; *p != '\0'; ++p) {
    if (in_string) {
      if (*p == '\\' && p[1] != '\0') ++p;
      else if (*p == '"') in_string = false;
      else if (static_cast<unsigned char>(*p) < 0x20) return false;  // unescaped control
      continue;
    }
    if (*p == '"') in_string = true;
    else if (*p == '{' || *p == '[') ++depth;
    else if (*p == '}' || *p == ']') {
      if (--depth < 0) return false;
    }
  }
  return depth == 0 && !in_string;
}

void fuzz_policy(FuzzedDataProvider& in) {
  tsr_execution_policy policy;
  tsr_execution_policy_init(&policy);
  std::string s1, s2, s3;
  policy.num_threads = in.ConsumeIntegralInRange<int>(-3, 9);
  policy.spin_policy = pick_name(
      in, {"adaptive", "fixed_iterations", "fixed_duration", "park_immediately"}, &s1);
  policy.spin_budget = in.ConsumeIntegralInRange<long long>(-2, 3000);
  policy.affinity_policy = pick_name(
      in, {"none", "physical_cores", "performance_cores", "physical_then_smt", "explicit"}, &s2);
  std::vector<int> cpus(in.ConsumeIntegralInRange<std::size_t>(0, 5));
  for (int& c : cpus) c = in.ConsumeIntegralInRange<int>(-2, 5);
  policy.cpu_set = cpus.empty() ? nullptr : cpus.data();
  policy.cpu_set_count = cpus.size();
  if (in.ConsumeIntegralInRange<int>(0, 15) == 0) policy.cpu_set = nullptr;  // count without set
  policy.idle_policy = pick_name(in, {"keep_workers", "release_when_idle"}, &s3);
  policy.idle_release_ms = in.ConsumeIntegralInRange<long long>(-2, 5000);
  policy.allow_nested_parallelism = in.ConsumeIntegralInRange<int>(-1, 2);
  policy.max_threads_per_kernel = in.ConsumeIntegralInRange<int>(-2, 9);
  policy.counters = in.ConsumeIntegralInRange<int>(-1, 2);

  tsr_context* sentinel = reinterpret_cast<tsr_context*>(static_cast<std::uintptr_t>(0x1234));
  tsr_context* context = sentinel;
  const tsr_status s = tsr_context_create_with_policy(nullptr, &policy, &context);
  if (s != TSR_OK) {
    require(context == sentinel, "a failed creation wrote *out");
    require(std::strlen(tsr_last_error_message()) > 0, "a rejected policy without a message");
    return;
  }
  const char* json = nullptr;
  require(tsr_context_resolved_policy_json(context, &json) == TSR_OK, "no resolved policy");
  require(balanced_object(json), "the resolved policy is not a JSON object", json);
  tsr_context_destroy(context);
}

}  // namespace
}  // namespace tessera::fuzz

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzedDataProvider in(data, size);
  if (in.ConsumeBool()) {
    tessera::fuzz::fuzz_knob(in);
  } else {
    tessera::fuzz::fuzz_policy(in);
  }
  return 0;
}
