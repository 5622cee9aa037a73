// The process default context is made on first use (design.md §Pool
// ownership). `Context c; Context::create(options, &c);` is how every front
// door makes a context; the declaration must not start the default pool
// (a C caller asking for one thread used to get a machine-wide pool too).
// CTest runs this file in its own process, so no other test made the
// default context first.
#include <doctest/doctest.h>

#include "native/src/pool_registry.hpp"
#include "tessera/context.hpp"

namespace tessera {
namespace {

TEST_CASE("declaring a Context for create() starts no pool; the default context starts on first use") {
  REQUIRE(native::live_registry_pools() == 0);
  ContextOptions options;
  options.policy.num_threads = 2;
  // A spin setting the default context does not have: its own pool key.
  options.policy.spin_policy = platform::SpinPolicy::kFixedDuration;
  options.policy.spin_budget = 13;
  options.read_environment = false;
  {
    Context made;
    REQUIRE(Context::create(options, &made).ok());
    CHECK(native::live_registry_pools() == 1);
  }
  CHECK(native::live_registry_pools() == 0);
  Context process_default;
  CHECK(native::live_registry_pools() == 0);
  CHECK(process_default.status().ok());
  // First use: the default context resolves its policy and leases a pool
  // when it has more than one participant.
  const int participants = process_default.resolved_policy().effective_threads;
  CHECK(native::live_registry_pools() == (participants > 1 ? 1 : 0));
}

}  // namespace
}  // namespace tessera
