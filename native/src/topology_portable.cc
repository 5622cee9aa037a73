// Topology and platform facts for native systems other than Linux (macOS,
// Windows, BSDs): a conservative fallback. tessera does not read their
// topology or pin threads yet, so the facts say exactly that.
#if !defined(__linux__)

#include <thread>

#include "native/src/launcher_node_share.hpp"
#include "tessera/platform/build_config.h"
#include "tessera/platform/execution_policy.hpp"
#include "tessera/platform/topology.hpp"

namespace tessera::platform {

Topology read_topology() {
  Topology t;
  const unsigned n = std::thread::hardware_concurrency();
  const int count = n == 0 ? 1 : static_cast<int>(n);
  for (int id = 0; id < count; ++id) t.cpus.push_back({id, id, 0, CoreClass::kUnknown});
  t.online_count = count;
  t.from_os = false;
  t.notes.push_back(
      n == 0 ? "topology not read on this OS and hardware_concurrency() unknown: one CPU "
               "assumed"
             : "topology not read on this OS: " + std::to_string(count) +
                   " logical CPUs from std::thread::hardware_concurrency, each counted as "
                   "a core (SMT and caches unknown)");
  return t;
}

PlatformFacts platform_facts() {
  PlatformFacts facts;
  facts.arch = cpu_features().arch;
  facts.threads_usable = TESSERA_THREADS_USABLE != 0;
  if (!facts.threads_usable) facts.threads_unusable_reason = "built without threads";
  facts.affinity_supported = false;
  facts.caller_cpu = -1;
  // No affinity masks here: every process sees every CPU.
  facts.node_share = native::launcher_node_share(1, 1);
#if defined(__APPLE__)
  facts.platform_name = "macOS";
#elif defined(_WIN32)
  facts.platform_name = "Windows";
#else
  facts.platform_name = "this OS";
#endif
  return facts;
}

}  // namespace tessera::platform

#endif
