// aarch64 CPU feature detection from the kernel's HWCAP auxiliary vector:
// the kernel only reports a feature it lets user space use.
#include <sys/auxv.h>

#include <cstdio>
#include <string>

#include "tessera/platform/cpu_features.hpp"

namespace tessera::platform {
namespace {
// Bit positions from the Linux uapi <asm/hwcap.h> for arm64; spelled out so
// the file builds against any libc.
constexpr unsigned long kHwcapAsimd = 1ul << 1;
constexpr unsigned long kHwcapAsimdDp = 1ul << 20;
constexpr unsigned long kHwcapSve = 1ul << 22;
// MIDR_EL1 as Linux publishes it (cpu0's; big.LITTLE parts differ per
// core, and a profile keyed by the first core is still a per-machine key):
// the implementer as vendor, the part number as model. Unknown (the file
// absent, as under QEMU user mode) leaves "" and -1.
void read_midr(CpuFeatures* f) {
  std::FILE* file = std::fopen("/sys/devices/system/cpu/cpu0/regs/identification/midr_el1", "r");
  if (file == nullptr) return;
  unsigned long long midr = 0;
  const int read = std::fscanf(file, "%llx", &midr);
  std::fclose(file);
  if (read != 1) return;
  char vendor[16];
  std::snprintf(vendor, sizeof vendor, "arm-0x%02llx", (midr >> 24) & 0xff);
  f->vendor = vendor;
  f->model = static_cast<int>((midr >> 4) & 0xfff);
}

}  // namespace

CpuFeatures detect_cpu_features() noexcept {
  CpuFeatures f;
  f.arch = CpuArch::kAarch64;
  const unsigned long hwcap = getauxval(AT_HWCAP);
  f.neon = (hwcap & kHwcapAsimd) != 0;
  f.dotprod = (hwcap & kHwcapAsimdDp) != 0;
  f.sve = (hwcap & kHwcapSve) != 0;
  read_midr(&f);
  return f;
}

}  // namespace tessera::platform
