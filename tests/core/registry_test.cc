// Kernel registry and ISA dispatch (design.md §ISA dispatch).
#include <doctest/doctest.h>

#include <algorithm>

#include "core/src/registry/kernel_registry.hpp"
#include "support/test_support.hpp"

namespace tessera {
namespace {

TEST_CASE("ISA names round-trip and unknown names are rejected") {
  for (int i = 0; i < kIsaCount; ++i) {
    Isa parsed;
    REQUIRE(parse_isa(isa_name(static_cast<Isa>(i)), &parsed));
    CHECK(parsed == static_cast<Isa>(i));
  }
  Isa parsed;
  CHECK_FALSE(parse_isa("AVX2", &parsed));
  CHECK_FALSE(parse_isa("", &parsed));
  CHECK_FALSE(parse_isa("avx1024", &parsed));
}

TEST_CASE("supported levels: scalar always, ascending, all detected") {
  const auto isas = supported_isas();
  REQUIRE(!isas.empty());
  CHECK(isas.front() == Isa::kScalar);
  CHECK(std::is_sorted(isas.begin(), isas.end()));
  for (Isa isa : isas) CHECK(core::isa_detected(isa, platform::cpu_features()));
}

TEST_CASE("the default context selects the highest supported level") {
  ContextOptions options;
  options.read_environment = false;
  Context context;
  REQUIRE(Context::create(options, &context).ok());
  CHECK(context.isa() == supported_isas().back());
  CHECK(context.family() == KernelFamily::kOptimized);
}

TEST_CASE("forcing an unsupported level is an error listing the supported") {
  const auto supported = supported_isas();
  for (int i = 0; i < kIsaCount; ++i) {
    const Isa isa = static_cast<Isa>(i);
    ContextOptions options;
    options.isa = isa;
    options.read_environment = false;
    Context context;
    const Status s = Context::create(options, &context);
    if (std::find(supported.begin(), supported.end(), isa) != supported.end()) {
      CHECK(s.ok());
      CHECK(context.isa() == isa);
    } else {
      CHECK(s.code() == StatusCode::kUnsupported);
      CHECK(s.message().find("ContextOptions::isa") != std::string::npos);
      CHECK(s.message().find("supported levels: scalar") != std::string::npos);
    }
  }
}

TEST_CASE("inventory lists every registered kernel and marks the selection") {
  const Context context = test::context_for(Isa::kScalar);
  const auto records = kernel_inventory(context);
  int selected = 0, naive = 0;
  for (const KernelRecord& r : records) {
    if (r.selected) {
      ++selected;
      CHECK(r.isa == Isa::kScalar);
      CHECK(r.family == KernelFamily::kOptimized);
    }
    if (r.family == KernelFamily::kNaive) ++naive;
  }
  CHECK(selected >= 3);  // add, mul, relu at least
  CHECK(naive >= 3);
  for (Isa isa : supported_isas()) {
    CHECK(std::any_of(records.begin(), records.end(), [&](const KernelRecord& r) {
      return r.isa == isa && r.op == "add" && r.runnable;
    }));
  }
}

TEST_CASE("the naive family is selectable") {
  const Context context = test::naive_context();
  CHECK(context.family() == KernelFamily::kNaive);
}

}  // namespace
}  // namespace tessera
