#include "support/test_support.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace tessera::test {

std::uint64_t Rng::next() {
  std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

float Rng::uniform_f32(float lo, float hi) {
  const float unit = static_cast<float>(next() >> 40) * (1.0f / 16777216.0f);
  return lo + (hi - lo) * unit;
}

double Rng::uniform_f64(double lo, double hi) {
  const double unit =
      static_cast<double>(next() >> 11) * (1.0 / 9007199254740992.0);
  return lo + (hi - lo) * unit;
}

std::int64_t Rng::uniform_int(std::int64_t lo, std::int64_t hi) {
  const std::uint64_t span = static_cast<std::uint64_t>(hi - lo) + 1;
  return lo + static_cast<std::int64_t>(next() % span);
}

std::vector<float> random_f32(std::size_t n, std::uint64_t seed, float lo,
                              float hi) {
  Rng rng(seed);
  std::vector<float> v(n);
  for (float& x : v) x = rng.uniform_f32(lo, hi);
  return v;
}

Context context_for(Isa isa) {
  ContextOptions options;
  options.isa = isa;
  options.read_environment = false;
  Context context;
  const Status status = Context::create(options, &context);
  if (!status.ok()) {
    // A test asked for a level host_isas() did not offer: a test bug.
    std::fprintf(stderr, "context_for(%s): %s\n", isa_name(isa),
                 status.to_string().c_str());
    std::abort();
  }
  return context;
}

Context naive_context() {
  ContextOptions options;
  options.family = KernelFamily::kNaive;
  options.read_environment = false;
  Context context;
  if (!Context::create(options, &context).ok()) std::abort();
  return context;
}

Context own_pool_context_8() {
  ContextOptions options;
  options.read_environment = false;
  options.knobs.parallel_threshold = 0;
  options.topology = platform::make_synthetic_topology(8, 1, 1 << 20, 32 << 20);
  options.policy.num_threads = 8;
  options.policy.affinity_policy = AffinityPolicy::kNone;
  Context context;
  const Status created = Context::create(options, &context);
  if (!created.ok()) {
    std::fprintf(stderr, "own_pool_context_8: %s\n", created.to_string().c_str());
    std::abort();
  }
  return context;
}

std::vector<Isa> host_isas() { return supported_isas(); }

std::vector<Context> contexts_under_test() {
  std::vector<Context> contexts = {naive_context()};
  for (Isa isa : host_isas()) contexts.push_back(context_for(isa));
  return contexts;
}

std::string level_label(const Context& context) {
  return context.family() == KernelFamily::kNaive ? "naive" : isa_name(context.isa());
}

void ReverseSerialExecutor::run(int participants,
                                FunctionRef<void(int)> body) {
  ++runs_;
  for (int p = participants - 1; p >= 0; --p) body(p);
}

std::vector<Isa> portable_128_isas() {
  std::vector<Isa> out;
  for (Isa isa : host_isas()) {
    if (isa == Isa::kSse2 || isa == Isa::kSimd128) out.push_back(isa);
  }
  if (out.empty()) MESSAGE("no 128-bit x86/wasm level on this target");
  return out;
}

bool same_bits_or_both_nan(float a, float b) {
  if (std::isnan(a) && std::isnan(b)) return true;
  std::uint32_t x, y;
  std::memcpy(&x, &a, 4);
  std::memcpy(&y, &b, 4);
  return x == y;
}

}  // namespace tessera::test
