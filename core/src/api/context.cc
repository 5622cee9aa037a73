#include "tessera/context.hpp"

#include <algorithm>
#include <string>

#include "core/src/api/context_state.hpp"
#include "core/src/registry/kernel_registry.hpp"
#include "tessera/platform/cpu_features.hpp"
#include "tessera/platform/pool_provider.hpp"
#include "tessera/platform/pool_tiers.hpp"
#include "tessera/platform/serial_executor.hpp"

namespace tessera {
namespace {

// TESSERA_WASM_THREADS default (design.md §Wasm threads pool).
constexpr std::uint32_t kDefaultWasmThreads = 8;

// Fields set in `top` win over those in `base`.
Knobs merge(Knobs base, const Knobs& top) {
  auto over = [](auto& b, const auto& t) {
    if (t) b = t;
  };
  over(base.parallel_threshold, top.parallel_threshold);
  over(base.par_mnk_per_worker, top.par_mnk_per_worker);
  over(base.full_width_mnk, top.full_width_mnk);
  over(base.gemv_parallel_bytes, top.gemv_parallel_bytes);
  over(base.gemv_tier_step, top.gemv_tier_step);
  over(base.gemv_thread_cap, top.gemv_thread_cap);
  over(base.pool_classes, top.pool_classes);
  over(base.parallel_oversample, top.parallel_oversample);
  over(base.packed_oversample, top.packed_oversample);
  over(base.wasm_threads, top.wasm_threads);
  over(base.isa, top.isa);
  over(base.num_threads, top.num_threads);
  return base;
}

// Resolves options.policy against the topology (TESSERA_NUM_THREADS filling
// in num_threads = 0) and acquires the executor that realises it.
Status resolve_execution(const ContextOptions& options, detail::ContextState* state) {
  state->topology = options.topology ? *options.topology : platform::read_topology();
  platform::PlatformFacts facts = platform::platform_facts();
  if (facts.pool_width_from_wasm_threads) {
    // design.md §Wasm threads pool: the wasm threads pool is sized by the knob
    // (default 8).
    facts.wasm_pool_width =
        static_cast<int>(state->knobs.wasm_threads.value_or(kDefaultWasmThreads));
  }

  // The policy as given is checked first, so its errors name its fields.
  TESSERA_RETURN_IF_ERROR(
      platform::validate_execution_policy(options.policy, state->topology, facts));
  platform::ExecutionPolicy policy = options.policy;
  std::string source = "num_threads";
  if (policy.num_threads == 0 && state->knobs.num_threads && *state->knobs.num_threads > 0) {
    policy.num_threads = static_cast<int>(*state->knobs.num_threads);
    source = options.knobs.num_threads ? "Knobs::num_threads" : "TESSERA_NUM_THREADS";
    const bool explicit_set = !policy.cpu_set.empty();
    if (explicit_set && policy.num_threads > static_cast<int>(policy.cpu_set.size())) {
      return Status::invalid_argument(
          source + " = " + std::to_string(policy.num_threads) + " exceeds the " +
          std::to_string(policy.cpu_set.size()) +
          " CPUs of ExecutionPolicy::cpu_set with affinity_policy = explicit");
    }
  }
  platform::ResolvedExecutionPolicy resolved;
  TESSERA_RETURN_IF_ERROR(platform::resolve_execution_policy(
      policy, state->topology, facts, &resolved, source));

  // Size tiers of the native pool (design.md §Pool tiers): TESSERA_POOL_CLASSES
  // or the architecture's default.
  resolved.pool_classes = state->knobs.pool_classes
                              ? static_cast<int>(*state->knobs.pool_classes)
                              : platform::default_pool_classes(platform::cpu_features().arch);

  if (options.executor != nullptr) {
    // The application's executor decides how many participants exist.
    const int width = std::max(1, options.executor->width());
    resolved.fallbacks.push_back(
        "ContextOptions::executor supplied: effective threads = its width (" +
        std::to_string(width) + "); the policy resolved to " +
        std::to_string(resolved.effective_threads) +
        ", and tessera's spin, affinity and idle settings do not apply to it");
    resolved.threads_reason = "width of the application's executor";
    resolved.effective_threads = width;
    resolved.max_threads_per_kernel =
        policy.max_threads_per_kernel > 0 ? std::min(policy.max_threads_per_kernel, width)
                                          : width;
    resolved.executor = "application";
    resolved.affinity_policy = platform::AffinityPolicy::kNone;
    resolved.worker_cpus.clear();
    resolved.worker_cores.clear();
    resolved.worker_classes.clear();
    resolved.uses_smt_siblings = false;
    state->executor_owner = options.executor;
  } else {
    std::shared_ptr<platform::Executor> executor;
    const Status acquired = platform::acquire_executor(resolved, &executor);
    if (!acquired.ok() || executor == nullptr) {
      // Never fail a context because threads could not start: run serially
      // and say why.
      resolved.fallbacks.push_back(
          "could not start " + std::to_string(resolved.effective_threads) +
          " participants (" +
          (acquired.ok() ? std::string("no executor returned") : acquired.message()) +
          "): running serially");
      resolved.effective_threads = 1;
      resolved.max_threads_per_kernel = 1;
      resolved.executor = "serial";
      resolved.worker_cpus.clear();
      resolved.worker_cores.clear();
      resolved.worker_classes.clear();
      resolved.uses_smt_siblings = false;
      executor = nullptr;
    }
    state->executor_owner = std::move(executor);
  }
  state->executor = state->executor_owner != nullptr ? state->executor_owner.get()
                                                     : &platform::serial_executor();
  state->resolved = std::move(resolved);
  return {};
}

Status make_state(const ContextOptions& options,
                  std::shared_ptr<detail::ContextState>* out) {
  auto state = std::make_shared<detail::ContextState>();
  state->options = options;
  Knobs knobs;
  if (options.read_environment) {
    TESSERA_RETURN_IF_ERROR(read_knobs_from_environment(&knobs));
  }
  TESSERA_RETURN_IF_ERROR(validate_knobs(options.knobs));
  state->knobs = merge(knobs, options.knobs);
  state->compute_knobs = core::compute_knobs(state->knobs, platform::cpu_features().arch);

  // The isa option wins over TESSERA_ISA; the message names whichever asked.
  const Isa* forced = nullptr;
  const char* source = "";
  if (options.isa) {
    forced = &*options.isa;
    source = "ContextOptions::isa";
    state->knobs.isa = options.isa;
  } else if (state->knobs.isa) {
    forced = &*state->knobs.isa;
    source = options.knobs.isa ? "Knobs::isa" : "TESSERA_ISA";
  }
  TESSERA_RETURN_IF_ERROR(core::select_table(options.family, forced, source,
                                             platform::cpu_features(),
                                             &state->table));
  TESSERA_RETURN_IF_ERROR(resolve_execution(options, state.get()));
  *out = std::move(state);
  return {};
}

struct DefaultContext {
  Status status;
  std::shared_ptr<const detail::ContextState> state;
};

const DefaultContext& default_context() {
  static const DefaultContext instance = [] {
    DefaultContext d;
    std::shared_ptr<detail::ContextState> state;
    d.status = make_state(ContextOptions{}, &state);
    d.state = std::move(state);
    return d;
  }();
  return instance;
}

}  // namespace

Context::Context() noexcept : state_(default_context().state) {}

Status Context::create(const ContextOptions& options, Context* out) {
  std::shared_ptr<detail::ContextState> state;
  TESSERA_RETURN_IF_ERROR(make_state(options, &state));
  out->state_ = std::move(state);
  return {};
}

#if TESSERA_HAS_EXCEPTIONS
Context::Context(const ContextOptions& options) {
  throw_if_error(create(options, this));
}
#endif

Status Context::status() const {
  if (state_ != nullptr) return {};
  return default_context().status;
}

Isa Context::isa() const noexcept {
  return state_ != nullptr ? state_->table->isa : Isa::kScalar;
}

KernelFamily Context::family() const noexcept {
  return state_ != nullptr ? state_->table->family : KernelFamily::kOptimized;
}

const Knobs& Context::knobs() const noexcept {
  static const Knobs kEmpty;
  return state_ != nullptr ? state_->knobs : kEmpty;
}

ResolvedExecutionPolicy Context::resolved_policy() const {
  if (state_ == nullptr) return {};
  ResolvedExecutionPolicy resolved = state_->resolved;
  for (std::string& failure : state_->executor->pin_failures()) {
    resolved.fallbacks.push_back(std::move(failure));
  }
  return resolved;
}

const Topology& Context::topology() const noexcept {
  static const Topology kEmpty;
  return state_ != nullptr ? state_->topology : kEmpty;
}

ExecutionCounters Context::counters() const {
  return state_ != nullptr ? state_->executor->counters() : ExecutionCounters{};
}

std::vector<Isa> supported_isas() {
  return core::supported_isas(platform::cpu_features());
}

namespace detail {
Status context_state(const Context& context, const ContextState** out) {
  if (context.state() == nullptr) {
    const Status status = context.status();
    return status.ok() ? Status::internal("context has no state") : status;
  }
  *out = context.state();
  return {};
}
}  // namespace detail

}  // namespace tessera
