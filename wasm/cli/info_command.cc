// tessera-cli info: what this build and this machine offer, and what a call
// would use.
#include <cstdio>

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
    {"neon", &platform::CpuFeatures::neon},
    {"dotprod", &platform::CpuFeatures::dotprod},
    {"sve", &platform::CpuFeatures::sve},
    {"simd128", &platform::CpuFeatures::simd128},
};

std::string selection_reason(const Context& context) {
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
  std::printf("kernels:\n  %-8s %-6s %-10s %-8s %-9s %s\n", "op", "dtype",
              "family", "isa", "runnable", "selected");
  for (const KernelRecord& r : kernel_inventory(context)) {
    std::printf("  %-8s %-6s %-10s %-8s %-9s %s\n", r.op.c_str(),
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

}  // namespace

int run_info(const Args& args) {
  bool as_json = false;
  for (const std::string& a : args) {
    if (a == "--json") {
      as_json = true;
    } else {
      return usage_error("info: unknown option '" + a + "'");
    }
  }
  Context context;
  const Status status = context.status();
  if (!status.ok()) {
    std::fprintf(stderr, "tessera-cli: %s\n", status.to_string().c_str());
    return kExitFailure;
  }
  return as_json ? print_json(context) : print_text(context);
}

}  // namespace tessera::cli
