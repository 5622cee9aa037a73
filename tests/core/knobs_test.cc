// Knobs (design.md §Knobs): environment parsing, ranges, errors naming the
// variable, programmatic values winning over the environment.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>

#include "support/test_support.hpp"

namespace tessera {
namespace {

using test::ScopedEnv;

TEST_CASE("numeric knobs are read from the environment") {
  ScopedEnv a("TESSERA_PAR_MNK_PER_WORKER", "123456");
  ScopedEnv b("TESSERA_POOL_CLASSES", " 2 ");
  Knobs knobs;
  REQUIRE(read_knobs_from_environment(&knobs).ok());
  CHECK(knobs.par_mnk_per_worker == 123456u);
  CHECK(knobs.pool_classes == 2u);
}

TEST_CASE("bad knob values are errors naming the variable") {
  const char* cases[][2] = {
      {"TESSERA_PAR_MNK_PER_WORKER", "abc"},
      {"TESSERA_PAR_MNK_PER_WORKER", "-5"},
      {"TESSERA_PAR_MNK_PER_WORKER", "0"},          // below the minimum of 1
      {"TESSERA_PARALLEL_THRESHOLD", "12x"},
      {"TESSERA_PARALLEL_THRESHOLD", "99999999999999999999999"},  // overflow
      {"TESSERA_POOL_CLASSES", "4"},                 // at most 3
      {"TESSERA_WASM_THREADS", "0"},
      {"TESSERA_GEMV_TIER_STEP", "1"},
      {"TESSERA_NUM_THREADS", ""},
      {"TESSERA_SELFTEST", "2"},                     // 0 or 1
      {"TESSERA_ISA", "avx9000"},
  };
  for (auto& c : cases) {
    CAPTURE(c[0]);
    CAPTURE(c[1]);
    ScopedEnv env(c[0], c[1]);
    Knobs knobs;
    const Status s = read_knobs_from_environment(&knobs);
    CHECK(s.code() == StatusCode::kInvalidArgument);
    CHECK(s.message().find(c[0]) != std::string::npos);
    // And a context cannot be created from that environment.
    Context context;
    CHECK(Context::create(ContextOptions{}, &context).code() ==
          StatusCode::kInvalidArgument);
  }
}

TEST_CASE("programmatic knobs win over the environment and are validated") {
  ScopedEnv env("TESSERA_PARALLEL_OVERSAMPLE", "4");
  ContextOptions options;
  options.knobs.parallel_oversample = 16;
  Context context;
  REQUIRE(Context::create(options, &context).ok());
  CHECK(context.knobs().parallel_oversample == 16u);

  options.knobs.pool_classes = 9;
  const Status s = Context::create(options, &context);
  CHECK(s.code() == StatusCode::kInvalidArgument);
  CHECK(s.message().find("TESSERA_POOL_CLASSES") != std::string::npos);
}

TEST_CASE("TESSERA_ISA forces a level; unsupported levels name the variable") {
  ScopedEnv env("TESSERA_ISA", "scalar");
  Context context;
  REQUIRE(Context::create(ContextOptions{}, &context).ok());
  CHECK(context.isa() == Isa::kScalar);
  // A level of another architecture is never supported here.
  const auto supported = supported_isas();
  const bool has_neon = std::find(supported.begin(), supported.end(), Isa::kNeon) != supported.end();
  const Isa foreign = has_neon ? Isa::kAvx2 : Isa::kNeon;
  ScopedEnv env2("TESSERA_ISA", isa_name(foreign));
  const Status s = Context::create(ContextOptions{}, &context);
  CHECK(s.code() == StatusCode::kUnsupported);
  CHECK(s.message().find("TESSERA_ISA") != std::string::npos);
  CHECK(s.message().find("supported levels") != std::string::npos);
}

TEST_CASE("read_environment = false ignores the variables") {
  ScopedEnv env("TESSERA_ISA", "bogus");
  ContextOptions options;
  options.read_environment = false;
  Context context;
  CHECK(Context::create(options, &context).ok());
}

}  // namespace
}  // namespace tessera
