// The data caches an x86 CPU describes through cpuid, as plain data: the
// topology's fallback when the OS lists no caches (VMs whose sysfs has no
// cache/indexN entries), so the GEMM blocking and the resolvers plan for the
// real L1d/L2 instead of defaults. Decoding is pure over a cpuid function, so
// tests feed it the registers of CPUs they do not run on.
//
// Leaves (Intel SDM vol. 2A "CPUID"; AMD APM vol. 3 appendix E):
//   4 (Intel) and 0x8000001D (AMD with TOPOEXT): one subleaf per cache with
//       type, level, ways, partitions, line size, sets and sharing;
//   0x80000005 / 0x80000006 (AMD, older or virtualised parts whose
//       0x8000001D is empty): L1d size and ways; L2 and L3 size with an
//       encoded associativity, no sharing.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "tessera/platform/topology.hpp"

namespace tessera::native {

struct CpuidRegs {
  std::uint32_t eax = 0, ebx = 0, ecx = 0, edx = 0;
};
using CpuidFn = std::function<CpuidRegs(std::uint32_t leaf, std::uint32_t subleaf)>;

struct CpuidCaches {
  std::vector<platform::CacheInfo> caches;  // data/unified, ascending by level
  std::string source;                       // "cpuid leaf 4", ... or why there are none
};

// The data and unified caches `cpuid` describes (level 1 data, 2, 3).
CpuidCaches decode_cpuid_caches(const CpuidFn& cpuid);

// This CPU's caches (cpuid on x86-64; none elsewhere, with the reason).
CpuidCaches host_cpuid_caches();

// AMD's 4-bit associativity code of leaf 0x80000006 in ways: 0 when
// disabled, reserved or fully associative (no set structure to plan for).
int amd_associativity_ways(std::uint32_t code);

}  // namespace tessera::native
