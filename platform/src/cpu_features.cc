#include "tessera/platform/cpu_features.hpp"

namespace tessera::platform {

const char* cpu_arch_name(CpuArch arch) noexcept {
  switch (arch) {
    case CpuArch::kX86_64: return "x86_64";
    case CpuArch::kAarch64: return "aarch64";
    case CpuArch::kWasm32: return "wasm32";
    case CpuArch::kOther: return "other";
  }
  return "other";
}

const CpuFeatures& cpu_features() noexcept {
  // A function-local static: initialised once, thread-safe (C++11 magic
  // statics), and free afterwards.
  static const CpuFeatures features = detect_cpu_features();
  return features;
}

}  // namespace tessera::platform
