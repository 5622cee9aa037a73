// WebAssembly has no run-time feature query: a module containing SIMD128
// instructions either validated (and is running) or failed to load. So the
// answer is the build's own, fixed at compile time. The JS loader is the one
// that picks the SIMD or non-SIMD module by feature detection.
#include "tessera/platform/build_config.h"
#include "tessera/platform/cpu_features.hpp"

namespace tessera::platform {

CpuFeatures detect_cpu_features() noexcept {
  CpuFeatures f;
  f.arch = CpuArch::kWasm32;
#if defined(__wasm_simd128__)
  f.simd128 = true;
#endif
  // Only the simd128_relaxed kernels are compiled with -mrelaxed-simd, so
  // this file cannot test __wasm_relaxed_simd__: the backend's presence in
  // the module is the answer.
  f.relaxed_simd = TESSERA_BUILT_SIMD128_RELAXED != 0;
  return f;
}

}  // namespace tessera::platform
