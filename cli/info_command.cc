// tessera-cli info: what this build and this machine offer, and what a call
// would use.
#include <cstdio>

#include "arg_parser.hpp"
#include "commands.hpp"
#include "tessera/platform/json_writer.hpp"
#include "tessera/tessera.hpp"

namespace tessera::cli {
namespace {

struct Flag {
  const char* name;
  bool platform::CpuFeatures::*field;
};

const Flag kFlags[] = {
    {"sse2", &platform::CpuFeatures::sse2},
    {"avx", &platform::CpuFeatures::avx},
    {"avx2", &platform::CpuFeatures::avx2},
    {"fma", &platform::CpuFeatures::fma},
    {"f16c", &platform::CpuFeatures::f16c},
    {"avx512f", &platform::CpuFeatures::avx512f},
    {"avx512bw", &platform::CpuFeatures::avx512bw},
    {"avx512dq", &platform::CpuFeatures::avx512dq},
    {"avx512vl", &platform::CpuFeatures::avx512vl},
    {"avx512vnni", &platform::CpuFeatures::avx512vnni},
    {"avx512bf16", &platform::CpuFeatures::avx512bf16},
    {"avxvnni", &platform::CpuFeatures::avxvnni},
    {"amx_int8", &platform::CpuFeatures::amx_int8},
    {"neon", &platform::CpuFeatures::neon},
    {"dotprod", &platform::CpuFeatures::dotprod},
    {"sve", &platform::CpuFeatures::sve},
    {"simd128", &platform::CpuFeatures::simd128},
    {"relaxed_simd", &platform::CpuFeatures::relaxed_simd},
};

std::string selection_reason(const Context& context) {
  for (const std::string& fallback : context.resolved_policy().fallbacks) {
    if (fallback.rfind("load self-test:", 0) == 0) {
      return "the load self-test dropped a level above it (see fallbacks)";
    }
  }
  if (context.knobs().isa) return "forced by TESSERA_ISA";
  return "highest level built and supported by this CPU";
}

int print_text(const Context& context) {
  const platform::CpuFeatures& cpu = platform::cpu_features();
  std::printf("tessera %s (%s, %s backend)\n", TESSERA_VERSION_STRING,
              TESSERA_TARGET_NAME, TESSERA_PLATFORM_BACKEND);
  std::printf("cpu:          %s%s%s\n", platform::cpu_arch_name(cpu.arch),
              cpu.brand.empty() ? "" : ", ", cpu.brand.c_str());
  std::printf("features:    ");
  for (const Flag& f : kFlags) {
    if (cpu.*(f.field)) std::printf(" %s", f.name);
  }
  std::printf("\nsupported:    ");
  const auto isas = supported_isas();
  for (std::size_t i = 0; i < isas.size(); ++i) {
    std::printf("%s%s", i ? ", " : "", isa_name(isas[i]));
  }
  std::printf("\nselected isa: %s (%s)\n", isa_name(context.isa()),
              selection_reason(context).c_str());
  std::printf("threads:      %s\n", TESSERA_THREADS_USABLE
                                        ? "usable on this target"
                                        : "unusable on this target (serial)");
  const auto knobs = describe_knobs(context.knobs());
  std::printf("knobs:        %s\n", knobs.empty() ? "(none set)" : "");
  for (const auto& k : knobs) std::printf("  %s\n", k.c_str());
  const Topology& topology = context.topology();
  std::printf("topology:     %s\n", topology.to_string().c_str());
  for (const std::string& note : topology.notes) std::printf("  note: %s\n", note.c_str());
  std::printf("execution:\n");
  const std::string resolved = context.resolved_policy().to_string();
  std::size_t start = 0;
  while (start < resolved.size()) {
    const std::size_t end = resolved.find('\n', start);
    const std::string line = resolved.substr(start, end == std::string::npos ? end : end - start);
    std::printf("  %s\n", line.c_str());
    if (end == std::string::npos) break;
    start = end + 1;
  }
  std::printf("kernels:\n  %-12s %-6s %-10s %-8s %-9s %s\n", "op", "dtype",
              "family", "isa", "runnable", "selected");
  for (const KernelRecord& r : kernel_inventory(context)) {
    std::printf("  %-12s %-6s %-10s %-8s %-9s %s\n", r.op.c_str(),
                r.dtype.c_str(), kernel_family_name(r.family), isa_name(r.isa),
                r.runnable ? "yes" : "no", r.selected ? "*" : "");
  }
  return kExitOk;
}

int print_json(const Context& context) {
  const platform::CpuFeatures& cpu = platform::cpu_features();
  platform::JsonWriter json;
  json.begin_object();
  json.key("version").value(TESSERA_VERSION_STRING);
  json.key("target").value(TESSERA_TARGET_NAME);
  json.key("backend").value(TESSERA_PLATFORM_BACKEND);
  json.key("threads_usable").value(TESSERA_THREADS_USABLE != 0);
  json.key("cpu").begin_object();
  json.key("arch").value(platform::cpu_arch_name(cpu.arch));
  json.key("brand").value(cpu.brand);
  json.key("features").begin_array();
  for (const Flag& f : kFlags) {
    if (cpu.*(f.field)) json.value(f.name);
  }
  json.end_array().end_object();
  json.key("supported_isas").begin_array();
  for (Isa isa : supported_isas()) json.value(isa_name(isa));
  json.end_array();
  json.key("selected_isa").value(isa_name(context.isa()));
  json.key("selection_reason").value(selection_reason(context));
  json.key("knobs").begin_array();
  for (const auto& k : describe_knobs(context.knobs())) json.value(k);
  json.end_array();
  json.key("topology").raw(context.topology().to_json());
  json.key("execution").raw(context.resolved_policy().to_json());
  const ExecutionCounters counters = context.counters();
  json.key("counters").begin_object();
  json.key("dispatches").value(counters.dispatches);
  json.key("serial_fallbacks").value(counters.serial_fallbacks);
  json.key("spins").value(counters.spins);
  json.key("parks").value(counters.parks);
  json.key("wakeups").value(counters.wakeups);
  json.key("caller_waits").value(counters.caller_waits);
  json.key("worker_active_ns").value(counters.worker_active_ns);
  json.end_object();
  json.key("kernels").begin_array();
  for (const KernelRecord& r : kernel_inventory(context)) {
    json.begin_object();
    json.key("op").value(r.op);
    json.key("dtype").value(r.dtype);
    json.key("family").value(kernel_family_name(r.family));
    json.key("isa").value(isa_name(r.isa));
    json.key("runnable").value(r.runnable);
    json.key("selected").value(r.selected);
    json.end_object();
  }
  json.end_array();
  json.end_object();
  std::printf("%s\n", json.str().c_str());
  return kExitOk;
}

// Every option but --json sets `custom`: a policy of the user's, not the
// process default.
ArgTable info_table(bool* as_json, bool* custom, ExecutionPolicy* policy) {
  constexpr IntegerSyntax kSigned = IntegerSyntax::kSigned;
  auto number = [custom](const char* name, std::int64_t low, std::int64_t high, auto* out) {
    return option(name, integer(kSigned, low, high, out),
                  {.bad = "'{}' is not an integer", .out_of_range = "{} is out of range"}, custom);
  };
  ArgTable table{
      .command = "info",
      .unknown_options = UnknownOptions::kEveryArgument,
      .options = {
          flag("--json", as_json),
          flag("--counters", &policy->counters, custom),
          flag("--nested", &policy->allow_nested_parallelism, custom),
          number("--threads", -1'000'000, 1'000'000, &policy->num_threads),
          number("--spin-budget", kInt64Min, kInt64Max, &policy->spin_budget),
          number("--idle-release-ms", kInt64Min, kInt64Max, &policy->idle_release_ms),
          number("--max-per-kernel", -1'000'000, 1'000'000, &policy->max_threads_per_kernel),
          option("--affinity", text(&parse_affinity_policy, &policy->affinity_policy),
                 {.bad = "'{}' is unknown: expected none, physical_cores, performance_cores, "
                      "physical_then_smt or explicit"},
                 custom),
          option("--cpu-set", text(&parse_cpu_list, &policy->cpu_set),
                 {.bad = "'{}' is not a CPU list (e.g. 0,2 or 0-3,8)"}, custom),
          option("--spin", text(&parse_spin_policy, &policy->spin_policy),
                 {.bad = "'{}' is unknown: expected adaptive, fixed_iterations, fixed_duration or "
                      "park_immediately"},
                 custom),
          option("--idle", text(&parse_idle_policy, &policy->idle_policy),
                 {.bad = "'{}' is unknown: expected keep_workers or release_when_idle"}, custom),
      }};
  // info words a missing value alike for every option.
  for (Option& row : table.options) {
    if (row.takes_value) row.messages.missing = "needs a value";
  }
  return table;
}

}  // namespace

int run_info(const Args& args) {
  bool as_json = false;
  bool custom = false;
  ContextOptions options;
  if (const int code = parse_args(info_table(&as_json, &custom, &options.policy), args);
      code != kExitOk || parse_only()) {
    return code;
  }
  // Without policy options: the process default context, as a program
  // calling tessera without a Context would get.
  Context context;
  const Status status = custom ? Context::create(options, &context) : context.status();
  if (!status.ok()) {
    std::fprintf(stderr, "tessera-cli: %s\n", status.to_string().c_str());
    return kExitFailure;
  }
  return as_json ? print_json(context) : print_text(context);
}

}  // namespace tessera::cli
