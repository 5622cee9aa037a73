#include "tessera/context.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "core/src/base/context_state.hpp"
#include "core/src/parallel/cache_facts.hpp"
#include "core/src/api/knobs_by_name.hpp"
#include "core/src/gemm/gemm_blocking.hpp"
#include "core/src/registry/kernel_registry.hpp"
#include "core/src/selftest/load_selftest.hpp"
#include "tessera/platform/cpu_features.hpp"
#include "tessera/platform/pool_provider.hpp"
#include "tessera/platform/pool_tiers.hpp"
#include "tessera/platform/serial_executor.hpp"

namespace tessera {
namespace {

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
  over(base.direct_slice_bytes, top.direct_slice_bytes);
  over(base.parallel_oversample, top.parallel_oversample);
  over(base.packed_oversample, top.packed_oversample);
  over(base.wasm_threads, top.wasm_threads);
  over(base.isa, top.isa);
  over(base.num_threads, top.num_threads);
  over(base.selftest, top.selftest);
  return base;
}

// Resolves options.policy against the topology, with every input the
// context gathered (knobs, an application executor), then acquires the
// executor that realises it. The one correction after resolution: a pool
// that cannot start its threads collapses the policy to serial.
Status resolve_execution(const ContextOptions& options, const platform::PlatformFacts& facts,
                         detail::ContextState* state) {
  const Knobs& knobs = state->knobs;
  platform::ResolutionInputs inputs;
  if (knobs.num_threads && *knobs.num_threads > 0) {
    inputs.default_num_threads = static_cast<int>(*knobs.num_threads);
    inputs.num_threads_source =
        options.knobs.num_threads ? "Knobs::num_threads" : "TESSERA_NUM_THREADS";
  }
  if (knobs.wasm_threads) inputs.wasm_threads = static_cast<int>(*knobs.wasm_threads);
  if (knobs.pool_classes) inputs.pool_classes = static_cast<int>(*knobs.pool_classes);
  if (options.executor != nullptr) inputs.application_width = options.executor->width();
  inputs.node_share = options.node_share;

  platform::ResolvedExecutionPolicy resolved;
  TESSERA_RETURN_IF_ERROR(platform::resolve_execution_policy(
      options.policy, state->topology, facts, &resolved, inputs));

  std::shared_ptr<platform::Executor> executor = options.executor;
  if (executor == nullptr) {
    const Status acquired = platform::acquire_executor(resolved, &executor);
    if (!acquired.ok() || executor == nullptr) {
      // Never fail a context because threads could not start: run serially
      // and say why.
      platform::collapse_to_width(
          &resolved, 1, "serial",
          "could not start " + std::to_string(resolved.effective_threads) +
              " participants (" +
              (acquired.ok() ? std::string("no executor returned") : acquired.message()) +
              "): running serially");
      executor = nullptr;
    }
  }
  state->executor_owner = std::move(executor);
  state->executor = state->executor_owner != nullptr ? state->executor_owner.get()
                                                     : &platform::serial_executor();
  state->resolved = std::move(resolved);
  return {};
}

std::string milliseconds_text(double ms) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2f ms", ms);
  return text;
}

// The load-time self-test (core/src/selftest/load_selftest.hpp), on where
// TESSERA_SELFTEST (or Knobs::selftest) says so, else where the platform
// has it on by default. A level that fails gives way to the next one down,
// each failure a fallback; below scalar only the naive family is left.
// `report` takes its load_selftest line and fallbacks.
void check_level(const ContextOptions& options, const platform::PlatformFacts& facts,
                 detail::ContextState* state, platform::ResolvedExecutionPolicy* report) {
  platform::ResolvedExecutionPolicy& resolved = *report;
  if (state->table->family == KernelFamily::kNaive) {
    resolved.load_selftest = "not run: the naive family is the reference it checks against";
    return;
  }
  const char* source = options.knobs.selftest ? "Knobs::selftest" : "TESSERA_SELFTEST";
  if (state->knobs.selftest && *state->knobs.selftest == 0) {
    resolved.load_selftest = std::string("off (") + source + " = 0)";
    return;
  }
  if (!state->knobs.selftest && !facts.load_selftest_default) {
    resolved.load_selftest = "off (the native default; TESSERA_SELFTEST=1 turns it on)";
    return;
  }
  const platform::CpuFeatures& cpu = platform::cpu_features();
  const std::vector<Isa> levels = core::supported_isas(cpu);  // ascending
  Isa level = state->table->isa;
  for (;;) {
    const core::LoadSelftestOutcome outcome = core::load_selftest(level, state->topology);
    if (outcome.passed) {
      if (level != state->table->isa) {
        // select_table cannot fail here: `level` is one of supported_isas.
        const core::KernelTable* table = nullptr;
        if (!core::select_table(KernelFamily::kOptimized, &level, "the load self-test", cpu,
                                &table)
                 .ok()) {
          break;
        }
        state->table = core::table_in_use(table);
      }
      resolved.load_selftest = std::string("passed on ") + isa_name(level) +
                               " (sgemm, dgemm, sdot, ddot and exp against double-precision "
                               "loops; " + milliseconds_text(outcome.milliseconds) +
                               " when first run in this process)";
      return;
    }
    const auto below = std::find(levels.begin(), levels.end(), level);
    const bool lower_left = below != levels.end() && below != levels.begin();
    resolved.fallbacks.push_back(
        std::string("load self-test: ") + isa_name(level) + " failed (" + outcome.failure +
        "): " + (lower_left ? std::string("trying ") + isa_name(*(below - 1))
                            : std::string("no level below it, so the naive family runs")));
    if (!lower_left) break;
    level = *(below - 1);
  }
  static_cast<void>(core::select_table(KernelFamily::kNaive, nullptr, "", cpu, &state->table));
  resolved.load_selftest = "failed on every level checked: the naive family runs";
}

// The tuned profile (tessera/profile.hpp): ContextOptions::profile, else
// the file TESSERA_PROFILE names. Matched against this host on the level
// the context finally runs (after the self-test) and before the execution
// policy is resolved (its TESSERA_POOL_CLASSES shapes the pool); its knobs
// fill those still unset, its blocking replaces the model's. `report`
// takes its profile line and fallbacks.
Status apply_profile(const ContextOptions& options, detail::ContextState* state,
                     platform::ResolvedExecutionPolicy* report) {
  platform::ResolvedExecutionPolicy& resolved = *report;
  std::optional<Profile> profile = options.profile;
  std::string source =
      options.profile_source.empty() ? "ContextOptions::profile" : options.profile_source;
  bool portable = options.profile_portable;
  if (profile) {
    TESSERA_RETURN_IF_ERROR(validate_profile(*profile));
  } else if (options.read_environment) {
    const char* path = std::getenv("TESSERA_PROFILE");
    if (path != nullptr && *path != '\0') {
      Profile from_file;
      TESSERA_RETURN_IF_ERROR(read_profile_file(path, &from_file));
      profile = std::move(from_file);
      source = std::string("TESSERA_PROFILE='") + path + "'";
    }
  }
  if (options.read_environment) {
    if (const char* text = std::getenv("TESSERA_PROFILE_PORTABLE")) {
      const std::string value = text;
      if (value != "0" && value != "1") {
        return Status::invalid_argument("TESSERA_PROFILE_PORTABLE=\"" + value +
                                        "\" is not valid: expected 0 or 1");
      }
      portable = portable || value == "1";
    }
  }
  if (!profile) {
    resolved.profile = "none";
    return {};
  }
  const std::string mismatch =
      profile_key_mismatch(profile->measured_on, this_host_profile_key(state->table->isa));
  if (!mismatch.empty() && !portable) {
    resolved.fallbacks.push_back("profile " + source + " not applied: " + mismatch +
                                 " (TESSERA_PROFILE_PORTABLE=1 applies it anyway)");
    resolved.profile = "none (" + source + " was measured elsewhere: see fallbacks)";
    return {};
  }
  if (!mismatch.empty()) {
    resolved.fallbacks.push_back("profile " + source + " applied although " + mismatch +
                                 " (profile_portable): its settings were measured elsewhere");
  }
  std::string applied;
  for (const std::string& line : describe_knobs(profile->knobs)) {
    const std::string name = line.substr(0, line.find('='));
    const bool kept = core::numeric_knob(state->knobs, name).has_value();
    applied += (applied.empty() ? "" : ", ") + line;
    if (kept) applied += " (overridden by the setting in force)";
  }
  state->knobs = merge(profile->knobs, state->knobs);
  state->compute_knobs = core::compute_knobs(state->knobs, platform::cpu_features().arch);
  const std::optional<GemmBlockingChoice>* blockings[2] = {&profile->gemm_f32, &profile->gemm_f64};
  const core::CacheFacts& caches = core::host_cache_facts();
  std::string bits;
  for (int i = 0; i < 2; ++i) {
    if (!*blockings[i]) continue;
    const GemmBlockingChoice& b = **blockings[i];
    state->tuned_blocking[i] = {b.kc, b.mc, b.nc};
    // The model's kc on this level: a profile's kc that differs from it
    // slices every sum otherwise (the file's changes_bits is the tuner's
    // word for the same; this is the context's own check).
    auto model_kc_of = [&](const auto* set, int bytes) -> std::int64_t {
      if (set == nullptr) return 0;
      return core::gemm_blocking(set->mr, set->nr, bytes, set->blocking, caches).kc;
    };
    const std::int64_t model_kc =
        i == 0 ? model_kc_of(state->table->gemm.f32, 4) : model_kc_of(state->table->gemm.f64, 8);
    if (model_kc != 0 && model_kc != b.kc) {
      bits += std::string(bits.empty() ? "" : ", ") + (i == 0 ? "sgemm" : "dgemm") + " kc " +
              std::to_string(b.kc) + " against the model's " + std::to_string(model_kc);
    }
    applied += std::string(applied.empty() ? "" : ", ") + (i == 0 ? "sgemm" : "dgemm") +
               " kc " + std::to_string(b.kc) + " mc " + std::to_string(b.mc) + " nc " +
               std::to_string(b.nc);
  }
  resolved.profile = "applied from " + source + ": " + (applied.empty() ? "no settings" : applied) +
                     (!bits.empty()
                          ? "; it changes results (" + bits +
                                "): the same bits for every worker count with this profile, not "
                                "those of the defaults"
                          : "; results are those of the defaults");
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
  state->table = core::table_in_use(state->table);
  // The level is checked and the profile matched first (each may change
  // what the pool is resolved with); their lines and fallbacks follow the
  // execution policy's own in the report.
  state->topology = options.topology ? *options.topology : platform::read_topology();
  const platform::PlatformFacts platform_here = platform::platform_facts();
  platform::ResolvedExecutionPolicy early;
  check_level(options, platform_here, state.get(), &early);
  TESSERA_RETURN_IF_ERROR(apply_profile(options, state.get(), &early));
  TESSERA_RETURN_IF_ERROR(resolve_execution(options, platform_here, state.get()));
  state->resolved.load_selftest = std::move(early.load_selftest);
  state->resolved.profile = std::move(early.profile);
  for (std::string& line : early.fallbacks) state->resolved.fallbacks.push_back(std::move(line));
  state->direct_slice_bytes = state->knobs.direct_slice_bytes.value_or(0);
  core::BandwidthFacts& facts = state->parallel_facts;
  facts.width = state->kernel_width();
  facts.pool_width = state->executor->width();
  facts.tiers = platform::pool_tier_widths(facts.pool_width, state->resolved.pool_classes);
  facts.cache = core::host_cache_facts();
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

// The default context is made on first use, not here: a Context declared
// only to receive Context::create() must not start the default pool.
Context::Context() noexcept = default;

const detail::ContextState* Context::state() const noexcept {
  return state_ != nullptr ? state_.get() : default_context().state.get();
}

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
  const detail::ContextState* s = state();
  return s != nullptr ? s->table->isa : Isa::kScalar;
}

KernelFamily Context::family() const noexcept {
  const detail::ContextState* s = state();
  return s != nullptr ? s->table->family : KernelFamily::kOptimized;
}

const Knobs& Context::knobs() const noexcept {
  static const Knobs kEmpty;
  const detail::ContextState* s = state();
  return s != nullptr ? s->knobs : kEmpty;
}

ResolvedExecutionPolicy Context::resolved_policy() const {
  const detail::ContextState* s = state();
  if (s == nullptr) return {};
  ResolvedExecutionPolicy resolved = s->resolved;
  for (std::string& failure : s->executor->pin_failures()) {
    resolved.fallbacks.push_back(std::move(failure));
  }
  return resolved;
}

const Topology& Context::topology() const noexcept {
  static const Topology kEmpty;
  const detail::ContextState* s = state();
  return s != nullptr ? s->topology : kEmpty;
}

ExecutionCounters Context::counters() const {
  const detail::ContextState* s = state();
  return s != nullptr ? s->executor->counters() : ExecutionCounters{};
}

std::vector<Isa> supported_isas() {
  return core::supported_isas(platform::cpu_features());
}

namespace detail {
Status context_state(const Context& context, const ContextState** out) {
  // One state() call: it is on the path of every kernel call.
  const ContextState* state = context.state();
  if (state == nullptr) [[unlikely]] {
    const Status status = context.status();
    return status.ok() ? Status::internal("context has no state") : status;
  }
  *out = state;
  return {};
}
}  // namespace detail

}  // namespace tessera
