// The execution layer's public types (design.md §Execution policy), re-exported
// into namespace tessera: the policy a Context is created with, what it
// resolved to, the topology it was resolved against, the diagnostics counters,
// and ExternalExecutor (an application's own parallel-for lent to tessera via
// ContextOptions::executor).
//
//   tessera::ContextOptions options;
//   options.policy.num_threads = 4;
//   options.policy.spin_policy = tessera::SpinPolicy::kParkImmediately;
//   tessera::Context context(options);
//   std::puts(context.resolved_policy().to_string().c_str());
#pragma once

#include "tessera/platform/execution_counters.hpp"
#include "tessera/platform/execution_policy.hpp"
#include "tessera/platform/executor.hpp"
#include "tessera/platform/external_executor.hpp"
#include "tessera/platform/node_share.hpp"
#include "tessera/platform/topology.hpp"
#include "tessera/platform/build_config.h"  // TESSERA_CXX_API_BEGIN

TESSERA_CXX_API_BEGIN
namespace tessera {

using platform::AffinityPolicy;
using platform::CacheInfo;
using platform::CoreClass;
using platform::ExecutionCounters;
using platform::ExecutionPolicy;
using platform::Executor;
using platform::ExternalExecutor;
using platform::ExternalExecutorOptions;
using platform::ParallelFor;
using platform::make_external_executor;
using platform::IdlePolicy;
using platform::LogicalCpu;
using platform::NodeShare;
using platform::ResolvedExecutionPolicy;
using platform::SpinPolicy;
using platform::Topology;

using platform::affinity_policy_name;
using platform::core_class_name;
using platform::idle_policy_name;
using platform::parse_affinity_policy;
using platform::parse_cpu_list;
using platform::parse_idle_policy;
using platform::parse_spin_policy;
using platform::spin_policy_name;

}  // namespace tessera
TESSERA_CXX_API_END
