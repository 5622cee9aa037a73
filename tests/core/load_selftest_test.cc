// The load-time self-test (design.md §Load-time self-test): every supported
// level passes it, it is off natively and on in wasm unless
// TESSERA_SELFTEST says otherwise, and a level whose kernel is corrupted
// (a test-build hook) is dropped for the next one down with the reason,
// while without the self-test that corruption reaches the caller.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/src/selftest/load_selftest.hpp"
#include "support/test_support.hpp"
#include "tessera/platform/execution_policy.hpp"

namespace tessera {
namespace {

Context make(std::optional<Isa> isa, std::optional<std::uint32_t> selftest) {
  ContextOptions options;
  options.isa = isa;
  options.read_environment = false;
  options.knobs.selftest = selftest;
  Context context;
  REQUIRE(Context::create(options, &context).ok());
  return context;
}

bool starts_with(const std::string& text, const std::string& prefix) {
  return text.compare(0, prefix.size(), prefix) == 0;
}

// sdot over 67 elements against a double-precision sum: the error.
double sdot_error(const Context& context) {
  std::vector<float> x(67), y(67);
  double expected = 0;
  for (int i = 0; i < 67; ++i) {
    x[i] = static_cast<float>((i % 13) - 6) * 0.25f;
    y[i] = static_cast<float>((i % 7) - 3) * 0.5f;
    expected += static_cast<double>(x[i]) * y[i];
  }
  float result = 0;
  REQUIRE(try_dot(context, 67, x.data(), 1, y.data(), 1, &result).ok());
  return std::fabs(result - expected);
}

bool has_fallback(const Context& context, const std::string& prefix) {
  const auto fallbacks = context.resolved_policy().fallbacks;
  return std::any_of(fallbacks.begin(), fallbacks.end(),
                     [&](const std::string& f) { return starts_with(f, prefix); });
}

TEST_CASE("every supported level passes the load self-test") {
  for (Isa isa : supported_isas()) {
    CAPTURE(isa_name(isa));
    const Context context = make(isa, 1);
    CHECK(context.isa() == isa);
    CHECK(context.family() == KernelFamily::kOptimized);
    const std::string text = context.resolved_policy().load_selftest;
    CAPTURE(text);
    CHECK(starts_with(text, std::string("passed on ") + isa_name(isa) + " ("));
    CHECK_FALSE(has_fallback(context, "load self-test"));
  }
}

TEST_CASE("the self-test's default is the platform's; 0 turns it off") {
  const Context by_default = make(std::nullopt, std::nullopt);
  const std::string text = by_default.resolved_policy().load_selftest;
  CAPTURE(text);
  if (platform::platform_facts().load_selftest_default) {
    CHECK(starts_with(text, "passed on "));
  } else {
    CHECK(text == "off (the native default; TESSERA_SELFTEST=1 turns it on)");
  }
  CHECK(make(std::nullopt, 0).resolved_policy().load_selftest == "off (Knobs::selftest = 0)");
}

TEST_CASE("a level with a corrupted kernel is dropped for the next one down") {
  const std::vector<Isa> levels = supported_isas();
  const Isa top = levels.back();
  core::corrupt_level_for_tests(top);
  // Without the self-test the corruption reaches the caller: the hook is
  // real, so what follows shows the self-test catching it.
  const Context unchecked = make(top, 0);
  CHECK(unchecked.isa() == top);
  CHECK(sdot_error(unchecked) > 0.5);

  const Context checked = make(top, 1);
  CAPTURE(checked.resolved_policy().to_string());
  CHECK(has_fallback(checked, std::string("load self-test: ") + isa_name(top) +
                                  " failed (sdot n = 67: "));
  if (levels.size() >= 2) {
    const Isa below = levels[levels.size() - 2];
    CHECK(checked.isa() == below);
    CHECK(checked.family() == KernelFamily::kOptimized);
    CHECK(starts_with(checked.resolved_policy().load_selftest,
                      std::string("passed on ") + isa_name(below)));
  } else {
    CHECK(checked.family() == KernelFamily::kNaive);
    CHECK(checked.resolved_policy().load_selftest ==
          "failed on every level checked: the naive family runs");
  }
  CHECK(sdot_error(checked) < 1e-4);
  // A failed outcome of a corrupted level is not remembered: with the hook
  // off, the top level passes again.
  core::corrupt_level_for_tests(std::nullopt);
  const Context restored = make(top, 1);
  CHECK(restored.isa() == top);
  CHECK(sdot_error(restored) < 1e-4);
}

}  // namespace
}  // namespace tessera
