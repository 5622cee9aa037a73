// The C API: status codes, messages, contexts, kernels.
#include <doctest/doctest.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "support/test_support.hpp"
#include "tessera/tessera.h"
#include "tessera/tessera.hpp"

namespace {

TEST_CASE("status strings are fixed and never null") {
  CHECK(std::string(tsr_status_string(TSR_OK)) == "ok");
  CHECK(std::string(tsr_status_string(TSR_INVALID_ARGUMENT)) == "invalid argument");
  CHECK(std::string(tsr_status_string(TSR_UNSUPPORTED)) == "unsupported");
  CHECK(tsr_status_string(static_cast<tsr_status>(77)) != nullptr);
}

TEST_CASE("C kernels match the naive family on every level") {
  const auto a = tessera::test::random_f32(999, 1);
  const auto b = tessera::test::random_f32(999, 2);
  tsr_context_options naive_options = {nullptr, 1, 1, nullptr, nullptr, 0};
  tsr_context* naive = nullptr;
  REQUIRE(tsr_context_create(&naive_options, &naive) == TSR_OK);
  std::vector<float> expected(999), actual(999);
  REQUIRE(tsr_mul_f32(naive, a.data(), b.data(), expected.data(), 999) == TSR_OK);
  for (tessera::Isa isa : tessera::supported_isas()) {
    tsr_context_options options = {tessera::isa_name(isa), 0, 1, nullptr, nullptr, 0};
    tsr_context* context = nullptr;
    REQUIRE(tsr_context_create(&options, &context) == TSR_OK);
    const char* name = nullptr;
    REQUIRE(tsr_context_isa(context, &name) == TSR_OK);
    CHECK(std::string(name) == tessera::isa_name(isa));
    REQUIRE(tsr_mul_f32(context, a.data(), b.data(), actual.data(), 999) == TSR_OK);
    CHECK(std::memcmp(actual.data(), expected.data(), 999 * 4) == 0);
    tsr_context_destroy(context);
  }
  tsr_context_destroy(naive);
}

TEST_CASE("C errors: codes and messages naming the argument") {
  float y[4] = {5, 5, 5, 5};
  const float x[4] = {1, 2, 3, 4};
  CHECK(tsr_relu_f32(nullptr, nullptr, y, 4) == TSR_INVALID_ARGUMENT);
  CHECK(std::string(tsr_last_error_message()).find("x is null") != std::string::npos);
  CHECK(y[0] == 5.0f);
  CHECK(tsr_add_f32(nullptr, x, x, y, 4) == TSR_OK);
  CHECK(std::string(tsr_last_error_message()).empty());

  tsr_context_options bad = {"sse9", 0, 1, nullptr, nullptr, 0};
  tsr_context* context = nullptr;
  CHECK(tsr_context_create(&bad, &context) == TSR_INVALID_ARGUMENT);
  CHECK(std::string(tsr_last_error_message()).find("options->isa") != std::string::npos);
  CHECK(context == nullptr);
  CHECK(tsr_context_create(nullptr, nullptr) == TSR_INVALID_ARGUMENT);
}

TEST_CASE("C policy: defaults, resolved JSON, topology JSON and counters") {
  tsr_execution_policy defaults;
  std::memset(&defaults, 0x5a, sizeof defaults);
  tsr_execution_policy_init(&defaults);
  CHECK(defaults.num_threads == 0);
  CHECK(defaults.spin_policy == nullptr);
  CHECK(defaults.cpu_set_count == 0);

  tsr_context_options options = {nullptr, 0, 1, nullptr, nullptr, 0};
  tsr_execution_policy policy;
  tsr_execution_policy_init(&policy);
  policy.num_threads = 1;
  policy.spin_policy = "park_immediately";
  policy.counters = 1;
  tsr_context* context = nullptr;
  REQUIRE(tsr_context_create_with_policy(&options, &policy, &context) == TSR_OK);
  const char* json = nullptr;
  REQUIRE(tsr_context_resolved_policy_json(context, &json) == TSR_OK);
  const std::string resolved = json;
  CHECK(resolved.find("\"effective_threads\":1") != std::string::npos);
  CHECK(resolved.find("\"spin_policy\":\"park_immediately\"") != std::string::npos);
  CHECK(resolved.find("\"counters\":true") != std::string::npos);
  REQUIRE(tsr_context_topology_json(context, &json) == TSR_OK);
  CHECK(std::string(json).find("\"logical_cpus\":") != std::string::npos);
  tsr_counters counters;
  std::memset(&counters, 0x5a, sizeof counters);
  REQUIRE(tsr_context_counters(context, &counters) == TSR_OK);
  CHECK(counters.dispatches == 0);  // one participant: nothing dispatched
  CHECK(counters.parks == 0);
  tsr_context_destroy(context);

  // NULL policy and NULL context (the process default) work too.
  REQUIRE(tsr_context_create_with_policy(nullptr, nullptr, &context) == TSR_OK);
  tsr_context_destroy(context);
  REQUIRE(tsr_context_resolved_policy_json(nullptr, &json) == TSR_OK);
  CHECK(std::string(json).find("\"fallbacks\":[") != std::string::npos);
  CHECK(tsr_context_counters(nullptr, nullptr) == TSR_INVALID_ARGUMENT);
  CHECK(tsr_context_resolved_policy_json(nullptr, nullptr) == TSR_INVALID_ARGUMENT);
}

TEST_CASE("C policy errors name the field; nothing is created") {
  tsr_context_options options = {nullptr, 0, 1, nullptr, nullptr, 0};
  auto expect_error = [&](const tsr_execution_policy& policy, const char* text) {
    tsr_context* context = nullptr;
    CHECK(tsr_context_create_with_policy(&options, &policy, &context) == TSR_INVALID_ARGUMENT);
    INFO(tsr_last_error_message());
    CHECK(std::string(tsr_last_error_message()).find(text) != std::string::npos);
    CHECK(context == nullptr);
  };
  tsr_execution_policy p;
  tsr_execution_policy_init(&p);
  p.spin_policy = "spin_forever";
  expect_error(p, "policy->spin_policy \"spin_forever\"");
  tsr_execution_policy_init(&p);
  p.affinity_policy = "everywhere";
  expect_error(p, "policy->affinity_policy");
  tsr_execution_policy_init(&p);
  p.idle_policy = "nap";
  expect_error(p, "policy->idle_policy");
  tsr_execution_policy_init(&p);
  p.num_threads = -3;
  expect_error(p, "num_threads");
  tsr_execution_policy_init(&p);
  p.spin_policy = "fixed_duration";
  p.spin_budget = 5'000'000;
  expect_error(p, "spin_budget");
  tsr_execution_policy_init(&p);
  p.cpu_set_count = 2;
  expect_error(p, "policy->cpu_set is null");
  tsr_execution_policy_init(&p);
  p.counters = 2;
  expect_error(p, "policy->counters");
  tsr_execution_policy_init(&p);
  p.affinity_policy = "explicit";
  expect_error(p, "cpu_set is empty");
  if (tessera::platform::platform_facts().affinity_supported) {
    const int ids[] = {0, 99999};
    tsr_execution_policy_init(&p);
    p.cpu_set = ids;
    p.cpu_set_count = 2;
    expect_error(p, "CPU 99999");
  }
}

// A tuned profile through tsr_context_options: as text or as a file, its
// source named in the resolved policy, a foreign one rejected unless
// profile_portable, a malformed one an error naming the field and the key.
std::string c_profile_json(int model_offset) {
  tessera::ContextOptions defaults;
  defaults.read_environment = false;
  tessera::Context here;
  REQUIRE(tessera::Context::create(defaults, &here).ok());
  tessera::Profile p;
  p.measured_on = tessera::this_host_profile_key(here.isa());
  p.measured_on.cpu_model += model_offset;
  p.knobs.par_mnk_per_worker = 3000000;
  p.gemm_f32 = tessera::GemmBlockingChoice{136, 48, 1024};
  p.changes_bits = true;
  return tessera::profile_to_json(p);
}

std::string c_resolved_json(const tsr_context* context) {
  const char* json = nullptr;
  REQUIRE(tsr_context_resolved_policy_json(context, &json) == TSR_OK);
  return json;
}

TEST_CASE("a C context applies a profile given as text or as a file") {
  const std::string json = c_profile_json(0);
  tsr_context_options options = {nullptr, 0, 1, json.c_str(), nullptr, 0};
  tsr_context* context = nullptr;
  REQUIRE(tsr_context_create(&options, &context) == TSR_OK);
  std::string resolved = c_resolved_json(context);
  INFO(resolved);
  CHECK(resolved.find("applied from tsr_context_options.profile_json") != std::string::npos);
  CHECK(resolved.find("TESSERA_PAR_MNK_PER_WORKER=3000000") != std::string::npos);

  // The C context computes what a C++ context with the same profile does,
  // bit for bit, and the profile's kc 136 is in force.
  const std::int64_t m = 23, n = 41, k = 300;
  const auto a = tessera::test::random_f32(static_cast<std::size_t>(m * k), 5);
  const auto b = tessera::test::random_f32(static_cast<std::size_t>(k * n), 6);
  std::vector<float> from_c(static_cast<std::size_t>(m * n)), from_cpp(from_c.size());
  REQUIRE(tsr_sgemm(context, TSR_ROW_MAJOR, TSR_NO_TRANS, TSR_NO_TRANS, m, n, k, 1.0f, a.data(),
                    k, b.data(), n, 0.0f, from_c.data(), n, TSR_THREADS_SERIAL) == TSR_OK);
  tsr_context_destroy(context);
  tessera::ContextOptions cpp;
  cpp.read_environment = false;
  REQUIRE(tessera::parse_profile(json, &cpp.profile.emplace()).ok());
  tessera::Context profiled;
  REQUIRE(tessera::Context::create(cpp, &profiled).ok());
  REQUIRE(tessera::try_gemm(profiled, tessera::Layout::kRowMajor, tessera::Transpose::kNo,
                            tessera::Transpose::kNo, m, n, k, 1.0f, a.data(), k, b.data(), n,
                            0.0f, from_cpp.data(), n, tessera::Parallelism::serial())
              .ok());
  CHECK(std::memcmp(from_c.data(), from_cpp.data(), from_c.size() * sizeof(float)) == 0);
  tessera::GemmPlan plan;
  REQUIRE(tessera::try_plan_gemm(profiled, tessera::Dtype::kF32, tessera::Layout::kRowMajor, m,
                                 n, k, tessera::Parallelism::serial(), &plan)
              .ok());
  CHECK(plan.kc == 136);

  const char* path = "tessera-capi-profile-test.json";
  std::FILE* file = std::fopen(path, "wb");
  REQUIRE(file != nullptr);
  REQUIRE(std::fwrite(json.data(), 1, json.size(), file) == json.size());
  std::fclose(file);
  options = {nullptr, 0, 1, nullptr, path, 0};
  REQUIRE(tsr_context_create(&options, &context) == TSR_OK);
  resolved = c_resolved_json(context);
  CHECK(resolved.find("applied from tsr_context_options.profile_path") != std::string::npos);
  tsr_context_destroy(context);
  std::remove(path);
}

TEST_CASE("a foreign profile is rejected with the reason unless profile_portable") {
  const std::string json = c_profile_json(1);
  tsr_context_options options = {nullptr, 0, 1, json.c_str(), nullptr, 0};
  tsr_context* context = nullptr;
  REQUIRE(tsr_context_create(&options, &context) == TSR_OK);
  std::string resolved = c_resolved_json(context);
  INFO(resolved);
  CHECK(resolved.find("profile tsr_context_options.profile_json not applied: measured on") !=
        std::string::npos);
  CHECK(resolved.find("TESSERA_PAR_MNK_PER_WORKER=3000000") == std::string::npos);
  tsr_context_destroy(context);
  options.profile_portable = 1;
  REQUIRE(tsr_context_create(&options, &context) == TSR_OK);
  resolved = c_resolved_json(context);
  CHECK(resolved.find("applied although measured on") != std::string::npos);
  CHECK(resolved.find("TESSERA_PAR_MNK_PER_WORKER=3000000") != std::string::npos);
  tsr_context_destroy(context);
}

TEST_CASE("a bad profile option is an error naming the field; nothing is created") {
  const std::string json = c_profile_json(0);
  auto expect_error = [](const tsr_context_options& options, const char* text) {
    tsr_context* context = nullptr;
    CHECK(tsr_context_create(&options, &context) == TSR_INVALID_ARGUMENT);
    INFO(tsr_last_error_message());
    CHECK(std::string(tsr_last_error_message()).find(text) != std::string::npos);
    CHECK(context == nullptr);
  };
  expect_error({nullptr, 0, 1, "{\"tessera_profile\":1}", nullptr, 0},
               "options->profile_json: profile: changes_bits is missing");
  expect_error({nullptr, 0, 1, "{\"tessera_profile\":1,", nullptr, 0}, "options->profile_json");
  expect_error({nullptr, 0, 1, nullptr, "no-such-dir/profile.json", 0},
               "options->profile_path: profile: cannot open 'no-such-dir/profile.json'");
  expect_error({nullptr, 0, 1, json.c_str(), "p.json", 0},
               "options->profile_json and options->profile_path are both set");
  expect_error({nullptr, 0, 1, json.c_str(), nullptr, 2}, "options->profile_portable must be 0 or 1");
}

}  // namespace
