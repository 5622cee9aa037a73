// tessera-cli selftest: every registered kernel on every ISA level this host
// supports (up to the level the default context selects, so TESSERA_ISA
// bounds it), checked against the naive family.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

#include "commands.hpp"
#include "tessera/tessera.hpp"

namespace tessera::cli {
namespace {

// Deterministic inputs with the IEEE special values mixed in.
std::vector<float> inputs(std::size_t n, std::uint32_t seed) {
  std::vector<float> v(n);
  std::uint32_t s = seed * 2654435761u + 1;
  const float specials[] = {NAN, -0.0f, INFINITY, -INFINITY, 1e-45f};
  for (std::size_t i = 0; i < n; ++i) {
    s = s * 1664525u + 1013904223u;
    v[i] = (static_cast<float>(s >> 8) / 16777216.0f - 0.5f) * 8.0f;
    if (i % 97 == 3) v[i] = specials[(i / 97) % 5];
  }
  return v;
}

bool same(float a, float b) {
  if (std::isnan(a) && std::isnan(b)) return true;
  return std::memcmp(&a, &b, sizeof a) == 0;
}

using Runner = Status (*)(const Context&, const std::vector<float>&,
                          const std::vector<float>&, std::vector<float>&);

struct Check {
  const char* op;
  Runner run;
};

const Check kChecks[] = {
    {"add", [](const Context& c, const std::vector<float>& a,
               const std::vector<float>& b, std::vector<float>& y) {
       return try_add(c, a, b, y);
     }},
    {"mul", [](const Context& c, const std::vector<float>& a,
               const std::vector<float>& b, std::vector<float>& y) {
       return try_mul(c, a, b, y);
     }},
    {"relu", [](const Context& c, const std::vector<float>& a,
                const std::vector<float>&, std::vector<float>& y) {
       return try_relu(c, a, y);
     }},
};

}  // namespace

int run_selftest(const Args& args) {
  if (!args.empty()) return usage_error("selftest: unknown option '" + args[0] + "'");
  const Context current;
  if (Status s = current.status(); !s.ok()) {
    std::fprintf(stderr, "tessera-cli: %s\n", s.to_string().c_str());
    return kExitFailure;
  }
  ContextOptions naive_options;
  naive_options.family = KernelFamily::kNaive;
  Context naive;
  if (Status s = Context::create(naive_options, &naive); !s.ok()) {
    std::fprintf(stderr, "tessera-cli: %s\n", s.to_string().c_str());
    return kExitFailure;
  }

  const std::size_t lengths[] = {0, 1, 3, 17, 64, 1000, 65537};
  int failures = 0, passes = 0;
  for (Isa isa : supported_isas()) {
    if (static_cast<int>(isa) > static_cast<int>(current.isa())) continue;
    ContextOptions options;
    options.isa = isa;
    Context context;
    if (Status s = Context::create(options, &context); !s.ok()) {
      std::fprintf(stderr, "tessera-cli: %s\n", s.to_string().c_str());
      return kExitFailure;
    }
    for (const Check& check : kChecks) {
      std::size_t bad = 0;
      for (std::size_t n : lengths) {
        const auto a = inputs(n, 1), b = inputs(n, 2);
        std::vector<float> expected(n), actual(n);
        Status s1 = check.run(naive, a, b, expected);
        Status s2 = check.run(context, a, b, actual);
        if (!s1.ok() || !s2.ok()) {
          ++bad;
          continue;
        }
        for (std::size_t i = 0; i < n; ++i) bad += same(expected[i], actual[i]) ? 0 : 1;
      }
      std::printf("%s %-6s f32 %-8s\n", bad == 0 ? "PASS" : "FAIL", check.op,
                  isa_name(isa));
      (bad == 0 ? passes : failures) += 1;
    }
  }
  std::printf("selftest: %d passed, %d failed\n", passes, failures);
  return failures == 0 ? kExitOk : kExitFailure;
}

}  // namespace tessera::cli
