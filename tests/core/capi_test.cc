// The C API: status codes, messages, contexts, kernels.
#include <doctest/doctest.h>

#include <cstring>
#include <string>
#include <vector>

#include "support/test_support.hpp"
#include "tessera/tessera.h"

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
  tsr_context_options naive_options = {nullptr, 1, 1};
  tsr_context* naive = nullptr;
  REQUIRE(tsr_context_create(&naive_options, &naive) == TSR_OK);
  std::vector<float> expected(999), actual(999);
  REQUIRE(tsr_mul_f32(naive, a.data(), b.data(), expected.data(), 999) == TSR_OK);
  for (tessera::Isa isa : tessera::supported_isas()) {
    tsr_context_options options = {tessera::isa_name(isa), 0, 1};
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

  tsr_context_options bad = {"sse9", 0, 1};
  tsr_context* context = nullptr;
  CHECK(tsr_context_create(&bad, &context) == TSR_INVALID_ARGUMENT);
  CHECK(std::string(tsr_last_error_message()).find("options->isa") != std::string::npos);
  CHECK(context == nullptr);
  CHECK(tsr_context_create(nullptr, nullptr) == TSR_INVALID_ARGUMENT);
}

}  // namespace
