#include "tessera/knobs.hpp"

#include <cstdlib>
#include <limits>

#include "tessera/platform/execution_policy.hpp"
#include "tessera/platform/pool_tiers.hpp"
#include "core/src/api/knobs_by_name.hpp"
#include "core/src/registry/isa_levels.hpp"

namespace tessera {
namespace {

constexpr std::uint64_t kU64Max = std::numeric_limits<std::uint64_t>::max();

// One row per numeric knob: where it lives in Knobs and its legal range.
struct NumericKnob {
  KnobInfo info;
  std::optional<std::uint64_t> Knobs::*u64 = nullptr;
  std::optional<std::uint32_t> Knobs::*u32 = nullptr;
};

const std::vector<NumericKnob>& numeric_knobs() {
  static const std::vector<NumericKnob> knobs = {
      {{"TESSERA_PARALLEL_THRESHOLD", 0, kU64Max,
        "GEMM m*n*k below which a call is serial"},
       &Knobs::parallel_threshold, nullptr},
      {{"TESSERA_PAR_MNK_PER_WORKER", 1, kU64Max,
        "GEMM m*n*k per worker on the automatic path"},
       &Knobs::par_mnk_per_worker, nullptr},
      {{"TESSERA_FULL_WIDTH_MNK", 0, kU64Max,
        "GEMM m*n*k from which the automatic path uses full width"},
       &Knobs::full_width_mnk, nullptr},
      {{"TESSERA_GEMV_PARALLEL_BYTES", 0, kU64Max,
        "bytes touched below which gemv/dot are serial"},
       &Knobs::gemv_parallel_bytes, nullptr},
      {{"TESSERA_GEMV_TIER_STEP", 2, 1024,
        "gemv: one pool tier up per this factor more bytes"},
       nullptr, &Knobs::gemv_tier_step},
      {{"TESSERA_GEMV_THREAD_CAP", 1, 4096,
        "gemv: fixed width replacing the tier ladder"},
       nullptr, &Knobs::gemv_thread_cap},
      {{"TESSERA_POOL_CLASSES", 0, platform::kMaxPoolClasses, "halving pool tiers below full width"},
       nullptr, &Knobs::pool_classes},
      {{"TESSERA_DIRECT_SLICE_BYTES", 1024, std::uint64_t{1} << 30,
        "GEMM: bytes of A's depth slice up to which small products skip packing"},
       &Knobs::direct_slice_bytes, nullptr},
      {{"TESSERA_PARALLEL_OVERSAMPLE", 1, 1024,
        "job-cursor chunks per worker"},
       nullptr, &Knobs::parallel_oversample},
      {{"TESSERA_PACKED_OVERSAMPLE", 1, 1024,
        "packed-LHS chunks per worker"},
       nullptr, &Knobs::packed_oversample},
      {{"TESSERA_WASM_THREADS", platform::kMinWasmThreads, platform::kMaxWasmThreads, "participants of the wasm pool"},
       nullptr, &Knobs::wasm_threads},
      {{"TESSERA_NUM_THREADS", 0, platform::kMaxNumThreads,
        "participants of a context (0 = topology default)"},
       nullptr, &Knobs::num_threads},
      {{"TESSERA_SELFTEST", 0, 1,
        "1: check the selected ISA level when a context is first made on it "
        "(default 1 on wasm, 0 natively)"},
       nullptr, &Knobs::selftest},
  };
  return knobs;
}

// Strict decimal parse: digits only (optional surrounding spaces), no sign,
// no suffix, no overflow.
bool parse_decimal(const char* text, std::uint64_t* out) {
  const char* p = text;
  while (*p == ' ' || *p == '\t') ++p;
  if (*p < '0' || *p > '9') return false;
  std::uint64_t value = 0;
  for (; *p >= '0' && *p <= '9'; ++p) {
    const std::uint64_t digit = static_cast<std::uint64_t>(*p - '0');
    if (value > (kU64Max - digit) / 10) return false;
    value = value * 10 + digit;
  }
  while (*p == ' ' || *p == '\t') ++p;
  if (*p != '\0') return false;
  *out = value;
  return true;
}

std::string range_text(const KnobInfo& info) {
  std::string text = "an integer >= " + std::to_string(info.min);
  if (info.max != kU64Max) {
    text = "an integer in [" + std::to_string(info.min) + ", " +
           std::to_string(info.max) + "]";
  }
  return text;
}

std::optional<std::uint64_t> get(const Knobs& k, const NumericKnob& n) {
  if (n.u64 != nullptr) return k.*(n.u64);
  const auto& v = k.*(n.u32);
  if (!v) return std::nullopt;
  return *v;
}

void set(Knobs& k, const NumericKnob& n, std::uint64_t value) {
  if (n.u64 != nullptr) {
    k.*(n.u64) = value;
  } else {
    k.*(n.u32) = static_cast<std::uint32_t>(value);
  }
}

}  // namespace

const std::vector<KnobInfo>& knob_catalog() {
  static const std::vector<KnobInfo> catalog = [] {
    std::vector<KnobInfo> c;
    for (const NumericKnob& n : numeric_knobs()) c.push_back(n.info);
    static const std::string isa_meaning =
        "force a lower ISA level: " + core::isa_list(core::all_isas());
    c.push_back({"TESSERA_ISA", 0, 0, isa_meaning.c_str()});
    return c;
  }();
  return catalog;
}

Status read_knobs_from_environment(Knobs* out) {
  Knobs knobs = *out;
  for (const NumericKnob& n : numeric_knobs()) {
    const char* text = std::getenv(n.info.variable);
    if (text == nullptr) continue;
    std::uint64_t value = 0;
    if (!parse_decimal(text, &value) || value < n.info.min ||
        value > n.info.max) {
      return Status::invalid_argument(std::string(n.info.variable) + "=\"" +
                                      text + "\" is not valid: expected " +
                                      range_text(n.info));
    }
    set(knobs, n, value);
  }
  if (const char* text = std::getenv("TESSERA_ISA")) {
    Isa isa;
    if (!parse_isa(text, &isa)) {
      return Status::invalid_argument(
          std::string("TESSERA_ISA=\"") + text +
          "\" is not an ISA level: expected one of " +
          core::isa_list(core::all_isas()));
    }
    knobs.isa = isa;
  }
  *out = knobs;
  return {};
}

Status validate_knobs(const Knobs& knobs) {
  for (const NumericKnob& n : numeric_knobs()) {
    const auto value = get(knobs, n);
    if (value && (*value < n.info.min || *value > n.info.max)) {
      return Status::invalid_argument(
          std::string(n.info.variable) + " = " + std::to_string(*value) +
          " is out of range: expected " + range_text(n.info));
    }
  }
  return {};
}

std::vector<std::string> describe_knobs(const Knobs& knobs) {
  std::vector<std::string> lines;
  for (const NumericKnob& n : numeric_knobs()) {
    if (const auto value = get(knobs, n)) {
      lines.push_back(std::string(n.info.variable) + "=" +
                      std::to_string(*value));
    }
  }
  if (knobs.isa) lines.push_back(std::string("TESSERA_ISA=") + isa_name(*knobs.isa));
  return lines;
}

namespace core {

Status set_numeric_knob(Knobs* knobs, std::string_view variable, std::uint64_t value,
                        std::string_view context) {
  for (const NumericKnob& n : numeric_knobs()) {
    if (variable != n.info.variable) continue;
    if (value < n.info.min || value > n.info.max) {
      return Status::invalid_argument(std::string(context) + std::string(variable) + " = " +
                                      std::to_string(value) + " is out of range: expected " +
                                      range_text(n.info));
    }
    set(*knobs, n, value);
    return {};
  }
  return Status::invalid_argument(std::string(context) + std::string(variable) +
                                  " is not a numeric knob");
}

std::optional<std::uint64_t> numeric_knob(const Knobs& knobs, std::string_view variable) {
  for (const NumericKnob& n : numeric_knobs()) {
    if (variable == n.info.variable) return get(knobs, n);
  }
  return std::nullopt;
}

}  // namespace core
}  // namespace tessera
