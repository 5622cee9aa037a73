// The C ABI the JavaScript package writes and reads by hand, described by
// the C side: the wasm32 size and field offsets of every struct it passes
// (sizeof, offsetof) and the value of every enumerator and constant it
// sends. js/build-package.mjs writes this description into the package's
// lib/generated.js at build time, and the package compares the two when it
// loads a module (lib/inline.js): a struct that gains a field, or an enum
// that is renumbered, in a module whose package was not regenerated is an
// explicit error at load, never a word written at the wrong offset.
#include <emscripten/emscripten.h>

#include <cstddef>
#include <initializer_list>
#include <string>

#include "tessera/tessera.h"

namespace {

// {"a":1,"b":{...}} from name/JSON-text pairs, in the order given.
std::string object(std::initializer_list<std::pair<const char*, std::string>> members) {
  std::string text = "{";
  for (const auto& [name, value] : members) {
    if (text.size() > 1) text += ',';
    text += '"';
    text += name;
    text += "\":";
    text += value;
  }
  return text + "}";
}

std::string number(long long v) { return std::to_string(v); }

// "field": {"offset": o, "size": s} of one struct member.
#define TSR_ABI_FIELD(type, field)                                     \
  std::pair<const char*, std::string> {                                \
    #field, object({{"offset", number(offsetof(type, field))},         \
                    {"size", number(sizeof(static_cast<type*>(nullptr)->field))}}) \
  }
#define TSR_ABI_STRUCT(type, ...) \
  { #type, object({{"size", number(sizeof(type))}, {"fields", object({__VA_ARGS__})}}) }
#define TSR_ABI_VALUE(name) \
  std::pair<const char*, std::string> { #name, number(static_cast<long long>(name)) }

std::string describe() {
  return object({
      {"pointer_size", number(sizeof(void*))},
      {"structs",
       object({
           TSR_ABI_STRUCT(tsr_context_options, TSR_ABI_FIELD(tsr_context_options, isa),
                          TSR_ABI_FIELD(tsr_context_options, naive),
                          TSR_ABI_FIELD(tsr_context_options, ignore_environment),
                          TSR_ABI_FIELD(tsr_context_options, profile_json),
                          TSR_ABI_FIELD(tsr_context_options, profile_path),
                          TSR_ABI_FIELD(tsr_context_options, profile_portable)),
           TSR_ABI_STRUCT(tsr_execution_policy, TSR_ABI_FIELD(tsr_execution_policy, num_threads),
                          TSR_ABI_FIELD(tsr_execution_policy, spin_policy),
                          TSR_ABI_FIELD(tsr_execution_policy, spin_budget),
                          TSR_ABI_FIELD(tsr_execution_policy, affinity_policy),
                          TSR_ABI_FIELD(tsr_execution_policy, cpu_set),
                          TSR_ABI_FIELD(tsr_execution_policy, cpu_set_count),
                          TSR_ABI_FIELD(tsr_execution_policy, idle_policy),
                          TSR_ABI_FIELD(tsr_execution_policy, idle_release_ms),
                          TSR_ABI_FIELD(tsr_execution_policy, allow_nested_parallelism),
                          TSR_ABI_FIELD(tsr_execution_policy, max_threads_per_kernel),
                          TSR_ABI_FIELD(tsr_execution_policy, counters)),
           TSR_ABI_STRUCT(tsr_counters, TSR_ABI_FIELD(tsr_counters, dispatches),
                          TSR_ABI_FIELD(tsr_counters, serial_fallbacks),
                          TSR_ABI_FIELD(tsr_counters, spins), TSR_ABI_FIELD(tsr_counters, parks),
                          TSR_ABI_FIELD(tsr_counters, wakeups),
                          TSR_ABI_FIELD(tsr_counters, caller_waits),
                          TSR_ABI_FIELD(tsr_counters, worker_active_ns)),
       })},
      {"values",
       object({
           TSR_ABI_VALUE(TSR_OK), TSR_ABI_VALUE(TSR_INVALID_ARGUMENT),
           TSR_ABI_VALUE(TSR_UNSUPPORTED), TSR_ABI_VALUE(TSR_OUT_OF_MEMORY),
           TSR_ABI_VALUE(TSR_INTERNAL),
           TSR_ABI_VALUE(TSR_ROW_MAJOR), TSR_ABI_VALUE(TSR_COL_MAJOR),
           TSR_ABI_VALUE(TSR_NO_TRANS), TSR_ABI_VALUE(TSR_TRANS),
           TSR_ABI_VALUE(TSR_BIAS_NONE), TSR_ABI_VALUE(TSR_BIAS_PER_COLUMN),
           TSR_ABI_VALUE(TSR_BIAS_PER_ROW),
           TSR_ABI_VALUE(TSR_ACT_NONE), TSR_ABI_VALUE(TSR_ACT_RELU), TSR_ABI_VALUE(TSR_ACT_GELU),
           TSR_ABI_VALUE(TSR_ACT_SIGMOID),
           TSR_ABI_VALUE(TSR_THREADS_SERIAL), TSR_ABI_VALUE(TSR_THREADS_AUTO),
           TSR_ABI_VALUE(TSR_U8), TSR_ABI_VALUE(TSR_S8),
           TSR_ABI_VALUE(TSR_STORAGE_F32), TSR_ABI_VALUE(TSR_STORAGE_F16),
           TSR_ABI_VALUE(TSR_STORAGE_BF16),
           TSR_ABI_VALUE(TSR_HALF_EXACT), TSR_ABI_VALUE(TSR_HALF_FAST),
       })},
  });
}

}  // namespace

// The description as JSON, made once; valid for the module's lifetime.
extern "C" EMSCRIPTEN_KEEPALIVE const char* tsr_js_abi(void) {
  static const std::string text = describe();
  return text.c_str();
}
