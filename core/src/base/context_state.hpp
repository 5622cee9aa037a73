// What a Context holds. Immutable after creation; shared by handle copies.
#pragma once

#include <algorithm>
#include <cstdint>

#include "core/src/parallel/bandwidth_resolver.hpp"
#include "core/src/parallel/compute_resolver.hpp"
#include "core/src/parallel/execute_ranges.hpp"
#include "core/src/registry/kernel_table.hpp"
#include "tessera/context.hpp"
#include "tessera/platform/executor.hpp"

namespace tessera::detail {

struct ContextState {
  ContextOptions options;
  Knobs knobs;  // environment merged with options.knobs
  // The compute-bound resolver's knobs, defaults filled in: made once here,
  // not per call.
  core::ComputeKnobs compute_knobs;
  const core::KernelTable* table = nullptr;
  // GEMM blocking from the context's tuned profile, f32 and f64 (kc 0: none,
  // the model's), as the profile gave it: gemm_call.hpp's context_blocking
  // rounds it to the kernel set's tile.
  struct TunedBlocking {
    std::int64_t kc = 0, mc = 0, nc = 0;
  };
  TunedBlocking tuned_blocking[2];
  // TESSERA_DIRECT_SLICE_BYTES (a knob or the profile's), 0: the cache
  // model's budget (gemm_call.hpp's direct_slice_budget).
  std::uint64_t direct_slice_bytes = 0;
  platform::Topology topology;
  platform::ResolvedExecutionPolicy resolved;
  // Keeps the executor alive: the pool lease from acquire_executor, the
  // application's executor, or null for the process-wide serial executor.
  std::shared_ptr<platform::Executor> executor_owner;
  platform::Executor* executor = nullptr;  // never null

  // Participants one kernel call may use: the executor's width lowered by
  // max_threads_per_kernel (design.md §Parallelism). Every driver passes this
  // (and `executor`) explicitly; nothing reads a thread-local executor.
  int kernel_width() const noexcept {
    const int width = std::min(executor->width(), resolved.max_threads_per_kernel);
    return width > 1 ? width : 1;
  }
  // What the bandwidth resolver and the batch plan are told about where a
  // call may run (kernel_width(), the executor's width and its tiers, the
  // host's caches): made once here, because building them per call (a
  // vector and a copied string) was a measurable part of a small dot's cost.
  core::BandwidthFacts parallel_facts;
  // The call is made from inside a parallel region (a pool worker, or a
  // range callback) and the policy does not allow nested parallelism: it
  // runs as one block on the calling thread.
  bool nested_call() const noexcept {
    return platform::parallel_body_depth() > 0 && !resolved.allow_nested_parallelism;
  }
  // Where a compute-bound call (GEMM, integer GEMM) may run: a request
  // with everything but the shape's mnk and jobs, which the driver fills.
  core::ComputeRequest compute_request(Parallelism parallelism, bool explain) const noexcept {
    core::ComputeRequest request;
    request.parallelism = parallelism;
    request.width = kernel_width();
    request.pool_width = executor->width();
    request.pool_classes = resolved.pool_classes;
    request.nested = nested_call();
    request.explain = explain;
    return request;
  }
  // Where this context's range kernels (elementwise, ...) run.
  core::RangeTarget range_target() const noexcept {
    return {executor, kernel_width(), nested_call()};
  }
};

// The state behind `context`, or the reason there is none.
Status context_state(const Context& context, const ContextState** out);

}  // namespace tessera::detail
