// Native targets other than x86-64 and aarch64: no SIMD backend is built, so
// nothing needs detecting; the scalar kernels serve.
#include "tessera/platform/cpu_features.hpp"

namespace tessera::platform {

CpuFeatures detect_cpu_features() noexcept { return CpuFeatures{}; }

}  // namespace tessera::platform
