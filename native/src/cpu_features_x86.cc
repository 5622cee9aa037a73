// x86-64 CPU feature detection: cpuid for what the CPU implements, xgetbv for
// what the OS actually saves across context switches. AVX needs XCR0 bits 1-2
// (SSE and YMM state); AVX-512 additionally needs bits 5-7 (opmask, ZMM0-15
// upper halves, ZMM16-31). A CPU advertising AVX-512 under an OS (or VM) that
// does not enable that state would fault on the first ZMM instruction. AMX
// needs bits 17-18 (tile configuration and data) and, on Linux, a per-process
// permission for the 8 KiB of tile data, which detection requests.
#include <cpuid.h>
#if defined(__linux__)
#include <sys/syscall.h>
#include <unistd.h>
#endif

#include <cstdint>
#include <cstring>

#include "tessera/platform/cpu_features.hpp"

namespace tessera::platform {
namespace {

struct Regs {
  uint32_t eax = 0, ebx = 0, ecx = 0, edx = 0;
};

Regs cpuid(uint32_t leaf, uint32_t subleaf) {
  Regs r;
  __cpuid_count(leaf, subleaf, r.eax, r.ebx, r.ecx, r.edx);
  return r;
}

uint64_t read_xcr0() {
  uint32_t eax = 0, edx = 0;
  // xgetbv with ecx = 0; encoded by hand so no -mxsave flag is needed.
  __asm__ volatile(".byte 0x0f, 0x01, 0xd0" : "=a"(eax), "=d"(edx) : "c"(0));
  return (static_cast<uint64_t>(edx) << 32) | eax;
}

bool bit(uint32_t value, int index) { return ((value >> index) & 1u) != 0; }

// Whether this process may use the AMX tile data state. Linux (5.16+) keeps
// it off until the process asks (arch_prctl ARCH_REQ_XCOMP_PERM for
// XFEATURE_XTILEDATA); asking again once granted is a no-op. Elsewhere no
// permission step is known, so AMX stays off.
bool amx_permitted() {
#if defined(__linux__) && defined(SYS_arch_prctl)
  constexpr long kArchReqXcompPerm = 0x1023;
  constexpr long kXfeatureXtiledata = 18;
  return syscall(SYS_arch_prctl, kArchReqXcompPerm, kXfeatureXtiledata) == 0;
#else
  return false;
#endif
}

std::string read_brand() {
  if (cpuid(0x80000000u, 0).eax < 0x80000004u) return {};
  char text[49] = {};
  for (uint32_t i = 0; i < 3; ++i) {
    Regs r = cpuid(0x80000002u + i, 0);
    std::memcpy(text + 16 * i + 0, &r.eax, 4);
    std::memcpy(text + 16 * i + 4, &r.ebx, 4);
    std::memcpy(text + 16 * i + 8, &r.ecx, 4);
    std::memcpy(text + 16 * i + 12, &r.edx, 4);
  }
  std::string brand(text);
  size_t first = brand.find_first_not_of(' ');
  size_t last = brand.find_last_not_of(' ');
  return first == std::string::npos ? std::string()
                                    : brand.substr(first, last - first + 1);
}

}  // namespace

CpuFeatures detect_cpu_features() noexcept {
  CpuFeatures f;
  f.arch = CpuArch::kX86_64;
  f.brand = read_brand();
  const Regs leaf0 = cpuid(0, 0);
  const uint32_t max_leaf = leaf0.eax;
  char vendor[13] = {};
  std::memcpy(vendor, &leaf0.ebx, 4);
  std::memcpy(vendor + 4, &leaf0.edx, 4);
  std::memcpy(vendor + 8, &leaf0.ecx, 4);
  f.vendor = vendor;
  if (max_leaf < 1) return f;

  const Regs leaf1 = cpuid(1, 0);
  // The display family and model (Intel SDM vol. 2, CPUID leaf 1): the
  // extended family adds in only at base family 15, the extended model
  // prefixes the model at families 6 and 15 and above.
  const int base_family = static_cast<int>((leaf1.eax >> 8) & 0xf);
  const int base_model = static_cast<int>((leaf1.eax >> 4) & 0xf);
  f.family = base_family == 15 ? base_family + static_cast<int>((leaf1.eax >> 20) & 0xff)
                               : base_family;
  f.model = base_family == 6 || base_family == 15
                ? base_model | static_cast<int>(((leaf1.eax >> 16) & 0xf) << 4)
                : base_model;
  f.sse2 = bit(leaf1.edx, 26);
  const bool osxsave = bit(leaf1.ecx, 27);
  const uint64_t xcr0 = osxsave ? read_xcr0() : 0;
  const bool os_ymm = (xcr0 & 0x6) == 0x6;     // XMM | YMM
  const bool os_zmm = (xcr0 & 0xE6) == 0xE6;   // + opmask, ZMM_Hi256, Hi16_ZMM
  const bool os_tiles = (xcr0 & 0x60000) == 0x60000;  // XTILECFG, XTILEDATA

  f.avx = os_ymm && bit(leaf1.ecx, 28);
  f.fma = f.avx && bit(leaf1.ecx, 12);
  f.f16c = f.avx && bit(leaf1.ecx, 29);
  if (max_leaf >= 7) {
    const Regs leaf7 = cpuid(7, 0);
    f.avx2 = f.avx && bit(leaf7.ebx, 5);
    f.avx512f = os_zmm && bit(leaf7.ebx, 16);
    f.avx512dq = f.avx512f && bit(leaf7.ebx, 17);
    f.avx512bw = f.avx512f && bit(leaf7.ebx, 30);
    f.avx512vl = f.avx512f && bit(leaf7.ebx, 31);
    f.avx512vnni = f.avx512f && bit(leaf7.ecx, 11);
    f.amx_int8 = os_tiles && bit(leaf7.edx, 24) && bit(leaf7.edx, 25) && amx_permitted();
    if (leaf7.eax >= 1) {
      const Regs leaf7_1 = cpuid(7, 1);
      f.avx512bf16 = f.avx512f && bit(leaf7_1.eax, 5);
      f.avxvnni = f.avx2 && bit(leaf7_1.eax, 4);
    }
  }
  return f;
}

}  // namespace tessera::platform
