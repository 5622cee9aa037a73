// aarch64 CPU feature detection from the kernel's HWCAP auxiliary vector:
// the kernel only reports a feature it lets user space use.
#include <sys/auxv.h>

#include "tessera/platform/cpu_features.hpp"

namespace tessera::platform {
namespace {
// Bit positions from the Linux uapi <asm/hwcap.h> for arm64; spelled out so
// the file builds against any libc.
constexpr unsigned long kHwcapAsimd = 1ul << 1;
constexpr unsigned long kHwcapAsimdDp = 1ul << 20;
constexpr unsigned long kHwcapSve = 1ul << 22;
}  // namespace

CpuFeatures detect_cpu_features() noexcept {
  CpuFeatures f;
  f.arch = CpuArch::kAarch64;
  const unsigned long hwcap = getauxval(AT_HWCAP);
  f.neon = (hwcap & kHwcapAsimd) != 0;
  f.dotprod = (hwcap & kHwcapAsimdDp) != 0;
  f.sve = (hwcap & kHwcapSve) != 0;
  return f;
}

}  // namespace tessera::platform
