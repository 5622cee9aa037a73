// CPU features as plain data. Detection lives in native/ (cpuid + xgetbv on
// x86-64, HWCAP on aarch64) and wasm/ (compile-time SIMD128); the core only
// reads this struct. A flag is true only when the CPU has the feature AND the
// OS saves the register state it needs (XCR0 for AVX and AVX-512).
#pragma once

#include <string>

#include "tessera/platform/build_config.h"  // TESSERA_CXX_API_BEGIN

TESSERA_CXX_API_BEGIN
namespace tessera::platform {

enum class CpuArch { kX86_64, kAarch64, kWasm32, kOther };

struct CpuFeatures {
  CpuArch arch = CpuArch::kOther;
  // x86-64
  bool sse2 = false;
  bool avx = false;
  bool avx2 = false;
  bool fma = false;
  bool f16c = false;
  bool avx512f = false;
  bool avx512bw = false;
  bool avx512dq = false;
  bool avx512vl = false;
  bool avx512vnni = false;
  bool avx512bf16 = false;
  bool avxvnni = false;  // AVX-VNNI: VEX-encoded vpdpbusd on ymm (cpuid 7.1 eax bit 4)
  // AMX-TILE + AMX-INT8 (cpuid 7.0 edx bits 24-25) with the tile state in
  // XCR0 (bits 17-18) and, on Linux, the process's permission to use it
  // granted (arch_prctl(ARCH_REQ_XCOMP_PERM): detection asks for it; a
  // process without it dies of SIGILL on the first tile instruction).
  bool amx_int8 = false;
  // aarch64
  bool neon = false;
  bool dotprod = false;
  bool sve = false;
  // wasm32 (decided at compile time: the module either validated with
  // SIMD128 instructions in it or was built without them)
  bool simd128 = false;
  // Relaxed SIMD (relaxed_madd): likewise the build's own answer, true in
  // a module built with it (which only a host with relaxed SIMD loads).
  bool relaxed_simd = false;
  // "AMD EPYC 9R14" or "" when the platform does not say.
  std::string brand;
  // Who made the CPU and which one it is, as the hardware reports it: what
  // a tuned profile is keyed by (tessera/profile.hpp). x86-64: cpuid's
  // vendor string ("AuthenticAMD", "GenuineIntel") and its display family
  // and model (family 25 model 17: Zen 4); aarch64: MIDR_EL1's implementer
  // ("arm-0x41") and part number (family -1); "" and -1 where unknown.
  std::string vendor;
  int family = -1;
  int model = -1;
};

const char* cpu_arch_name(CpuArch arch) noexcept;

// Detected once per process and cached; thread-safe.
const CpuFeatures& cpu_features() noexcept;

// The uncached detection, implemented by native/ or wasm/.
CpuFeatures detect_cpu_features() noexcept;

}  // namespace tessera::platform
TESSERA_CXX_API_END
