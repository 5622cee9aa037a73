// A resolved policy for people (to_string), for programs (to_json: the CLI
// and the JS package) and for the pool registry (registry_key).
#include "tessera/platform/execution_policy.hpp"

#include <string>
#include <vector>

#include "tessera/platform/json_writer.hpp"

namespace tessera::platform {
namespace {

// "0,2,4": one id per worker, in the workers' order, which
// format_cpu_list's sorted ranges would hide.
std::string cpus_text(const std::vector<int>& ids) {
  std::string text;
  for (int id : ids) {
    if (!text.empty()) text += ',';
    text += std::to_string(id);
  }
  return text;
}

}  // namespace

std::string ResolvedExecutionPolicy::to_string() const {
  std::string text;
  text += "effective threads: " + std::to_string(effective_threads) + " (" +
          threads_reason + ")\n";
  text += "max per kernel:    " + std::to_string(max_threads_per_kernel) + "\n";
  text += "executor:          " + executor + "\n";
  text += std::string("affinity:          ") + affinity_policy_name(affinity_policy);
  if (!worker_cpus.empty()) {
    text += "; workers on CPUs " + cpus_text(worker_cpus) + " (cores " +
            cpus_text(worker_cores) + "; classes ";
    for (std::size_t i = 0; i < worker_classes.size(); ++i) {
      if (i != 0) text += ',';
      text += core_class_name(worker_classes[i]);
    }
    text += ")";
  }
  text += "; caller not pinned";
  if (caller_cpu >= 0) text += " (on CPU " + std::to_string(caller_cpu) + ")";
  text += std::string("; SMT siblings ") + (uses_smt_siblings ? "used" : "not used") + "\n";
  text += std::string("spin:              ") + spin_policy_name(spin_policy);
  if (spin_policy == SpinPolicy::kFixedIterations) {
    text += " (" + std::to_string(spin_budget) + " iterations)";
  } else if (spin_policy == SpinPolicy::kFixedDuration) {
    text += " (" + std::to_string(spin_budget) + " us)";
  }
  text += "\n";
  text += std::string("idle:              ") + idle_policy_name(idle_policy);
  if (idle_policy == IdlePolicy::kReleaseWhenIdle) {
    text += " (after " + std::to_string(idle_release_ms) + " ms)";
  }
  text += "\n";
  text += std::string("nested:            ") +
          (allow_nested_parallelism ? "allowed" : "serial") + "\n";
  text += std::string("counters:          ") + (counters ? "on" : "off") + "\n";
  text += "pool tiers:        " + std::to_string(pool_classes) + " below full width\n";
  if (!load_selftest.empty()) text += "load self-test:    " + load_selftest + "\n";
  if (!profile.empty()) text += "profile:           " + profile + "\n";
  text += fallbacks.empty() ? "fallbacks:         none" : "fallbacks:";
  for (const std::string& f : fallbacks) text += "\n  - " + f;
  text += "\n";
  return text;
}

std::string ResolvedExecutionPolicy::to_json() const {
  JsonWriter json;
  json.begin_object();
  json.key("effective_threads").value(effective_threads);
  json.key("max_threads_per_kernel").value(max_threads_per_kernel);
  json.key("threads_usable").value(threads_usable);
  json.key("threads_reason").value(threads_reason);
  json.key("executor").value(executor);
  json.key("affinity_policy").value(affinity_policy_name(affinity_policy));
  json.key("worker_cpus").begin_array();
  for (int id : worker_cpus) json.value(id);
  json.end_array();
  json.key("worker_cores").begin_array();
  for (int id : worker_cores) json.value(id);
  json.end_array();
  json.key("worker_classes").begin_array();
  for (CoreClass c : worker_classes) json.value(core_class_name(c));
  json.end_array();
  json.key("uses_smt_siblings").value(uses_smt_siblings);
  json.key("caller_cpu").value(caller_cpu);
  json.key("caller_pinned").value(false);
  json.key("spin_policy").value(spin_policy_name(spin_policy));
  json.key("spin_budget").value(spin_budget);
  json.key("idle_policy").value(idle_policy_name(idle_policy));
  json.key("idle_release_ms").value(idle_release_ms);
  json.key("allow_nested_parallelism").value(allow_nested_parallelism);
  json.key("counters").value(counters);
  json.key("pool_classes").value(pool_classes);
  json.key("fallbacks").begin_array();
  for (const std::string& f : fallbacks) json.value(f);
  json.end_array();
  json.key("load_selftest").value(load_selftest);
  json.key("profile").value(profile);
  json.end_object();
  return json.str();
}

std::string ResolvedExecutionPolicy::registry_key() const {
  std::string key = "threads=" + std::to_string(effective_threads);
  key += ";cpus=" + (worker_cpus.empty() ? std::string("unpinned") : cpus_text(worker_cpus));
  key += std::string(";spin=") + spin_policy_name(spin_policy);
  if (spin_policy == SpinPolicy::kFixedIterations ||
      spin_policy == SpinPolicy::kFixedDuration) {
    // Appended in two steps: GCC 12 at -O3 warns (-Wrestrict, a false
    // positive) on ":" + std::to_string(...) once this file inlines it.
    key += ':';
    key += std::to_string(spin_budget);
  }
  key += std::string(";idle=") + idle_policy_name(idle_policy);
  if (idle_policy == IdlePolicy::kReleaseWhenIdle) {
    key += ':';
    key += std::to_string(idle_release_ms);
  }
  key += std::string(";nested=") + (allow_nested_parallelism ? "1" : "0");
  key += std::string(";counters=") + (counters ? "1" : "0");
  key += ";tiers=" + std::to_string(pool_classes);
  return key;
}

}  // namespace tessera::platform
