// The core's resolver and the native pool apply one tier rule: the tier a
// GEMM plan names is the pool a region of that many participants really
// forks into, also when max_threads_per_kernel lowers a kernel's width
// below the pool's (the pool's tiers halve its own width, never the
// kernel's).
#include <doctest/doctest.h>

#include <cstdint>
#include <string>

#include "core/src/base/context_state.hpp"
#include "native/src/pool_registry.hpp"
#include "tessera/tessera.hpp"

namespace tessera {
namespace {

struct Machine {
  int cores;
  int max_threads_per_kernel;
  std::uint32_t pool_classes;
};

TEST_CASE("a GEMM plan's tier is the pool its region forks into, whatever max_threads_per_kernel") {
  const Machine machines[] = {{8, 6, 2}, {8, 5, 2}, {8, 3, 2}, {8, 8, 2},
                              {16, 12, 3}, {16, 7, 3}, {6, 4, 2}, {4, 3, 1}};
  const std::int64_t shapes[][3] = {
      {64, 64, 64},    {128, 128, 128}, {200, 180, 160}, {256, 256, 256},
      {384, 384, 384}, {512, 512, 512}, {1024, 64, 512}, {2048, 2048, 64},
      {1000, 1000, 1000}};
  for (const Machine& machine : machines) {
    ContextOptions options;
    options.read_environment = false;
    options.topology =
        platform::make_synthetic_topology(machine.cores, 1, 1 << 20, 32 << 20);
    options.policy.affinity_policy = AffinityPolicy::kNone;
    options.policy.num_threads = machine.cores;
    options.policy.max_threads_per_kernel = machine.max_threads_per_kernel;
    options.knobs.pool_classes = machine.pool_classes;
    Context context;
    REQUIRE(Context::create(options, &context).ok());
    auto* lease = dynamic_cast<native::PoolLease*>(context.state()->executor);
    REQUIRE(lease != nullptr);
    const native::TieredPool& pool = *lease->pool();
    REQUIRE(pool.width() == machine.cores);

    for (const auto& s : shapes) {
      for (int n = 0; n <= machine.cores; ++n) {
        const Parallelism parallelism = n == 0 ? Parallelism{} : Parallelism::threads(n);
        GemmPlan plan;
        REQUIRE(try_plan_gemm(context, Dtype::kF32, Layout::kRowMajor, s[0], s[1], s[2],
                              parallelism, &plan)
                    .ok());
        CAPTURE(machine.cores);
        CAPTURE(machine.max_threads_per_kernel);
        CAPTURE(n);
        CAPTURE(plan.to_string());
        CHECK(plan.workers <= machine.max_threads_per_kernel);
        if (plan.workers > 1) CHECK(plan.tier == pool.routed_width(plan.workers));
      }
    }
  }
}

}  // namespace
}  // namespace tessera
