// What a public plan (GemmPlan, IntGemmPlan) reports of its driver's
// decision (GemmDecision, QGemmDecision): the same fields, filled one way.
#pragma once

#include "core/src/parallel/compute_resolver.hpp"

namespace tessera::core {

// The workers, their pool tier, the resolver's rule and reason, the grain
// and the jobs of one column block.
template <class Decision, class Plan>
void report_workers(const Decision& d, Plan* plan) {
  plan->workers = d.compute.workers;
  plan->tier = d.compute.tier;
  plan->worker_rule = compute_rule_name(d.compute.rule);
  plan->worker_reason = d.compute.reason;
  plan->grain = d.grain.to_string();
  plan->jobs_per_step = d.first_block.jobs;
}

}  // namespace tessera::core
