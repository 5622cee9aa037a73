#include "native/src/cpuid_caches.hpp"

#include <algorithm>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

namespace tessera::native {
namespace {

constexpr std::uint32_t kIntelCaches = 4;
constexpr std::uint32_t kAmdCaches = 0x8000001Du;

bool vendor_is(const CpuidRegs& leaf0, const char (&name)[13]) {
  // The 12-byte vendor string is spread over ebx, edx, ecx in that order.
  auto word = [&](int i) {
    return static_cast<std::uint32_t>(static_cast<unsigned char>(name[i])) |
           static_cast<std::uint32_t>(static_cast<unsigned char>(name[i + 1])) << 8 |
           static_cast<std::uint32_t>(static_cast<unsigned char>(name[i + 2])) << 16 |
           static_cast<std::uint32_t>(static_cast<unsigned char>(name[i + 3])) << 24;
  };
  return leaf0.ebx == word(0) && leaf0.edx == word(4) && leaf0.ecx == word(8);
}

void add(std::vector<platform::CacheInfo>* caches, const platform::CacheInfo& c) {
  if (c.size_bytes == 0) return;
  for (const platform::CacheInfo& have : *caches) {
    if (have.level == c.level) return;  // the first cache of a level wins
  }
  caches->push_back(c);
}

// Leaf 4 and leaf 0x8000001D share one layout: eax type (1 data, 2
// instruction, 3 unified), level, sharing; ebx ways, partitions, line; ecx
// sets.
std::vector<platform::CacheInfo> deterministic_caches(const CpuidFn& cpuid, std::uint32_t leaf) {
  std::vector<platform::CacheInfo> caches;
  for (std::uint32_t sub = 0; sub < 16; ++sub) {
    const CpuidRegs r = cpuid(leaf, sub);
    const std::uint32_t type = r.eax & 0x1F;
    if (type == 0) break;
    if (type == 2) continue;
    const std::uint64_t ways = ((r.ebx >> 22) & 0x3FF) + 1;
    const std::uint64_t partitions = ((r.ebx >> 12) & 0x3FF) + 1;
    const std::uint64_t line = (r.ebx & 0xFFF) + 1;
    const std::uint64_t sets = static_cast<std::uint64_t>(r.ecx) + 1;
    platform::CacheInfo c;
    c.level = static_cast<int>((r.eax >> 5) & 0x7);
    c.size_bytes = ways * partitions * line * sets;
    // Bit 9 marks a fully associative cache: no ways to plan for.
    c.ways = (r.eax & (1u << 9)) != 0 ? 0 : static_cast<int>(ways);
    // An upper bound (the number of logical ids reserved), as the SDM says.
    c.shared_by_logical = static_cast<int>(((r.eax >> 14) & 0xFFF) + 1);
    add(&caches, c);
  }
  return caches;
}

}  // namespace

int amd_associativity_ways(std::uint32_t code) {
  switch (code & 0xF) {
    case 0x1:
      return 1;
    case 0x2:
      return 2;
    case 0x3:
      return 3;
    case 0x4:
      return 4;
    case 0x5:
      return 6;
    case 0x6:
      return 8;
    case 0x8:
      return 16;
    case 0xA:
      return 32;
    case 0xB:
      return 48;
    case 0xC:
      return 64;
    case 0xD:
      return 96;
    case 0xE:
      return 128;
    default:
      return 0;  // 0 disabled, 0xF fully associative, others reserved
  }
}

CpuidCaches decode_cpuid_caches(const CpuidFn& cpuid) {
  CpuidCaches out;
  const CpuidRegs leaf0 = cpuid(0, 0);
  const bool intel = vendor_is(leaf0, "GenuineIntel");
  const bool amd = vendor_is(leaf0, "AuthenticAMD") || vendor_is(leaf0, "HygonGenuine");
  const std::uint32_t max_ext = cpuid(0x80000000u, 0).eax;
  if (intel && leaf0.eax >= kIntelCaches) {
    out.caches = deterministic_caches(cpuid, kIntelCaches);
    out.source = "cpuid leaf 4";
  } else if (amd) {
    const bool topoext = max_ext >= 0x80000001u && (cpuid(0x80000001u, 0).ecx & (1u << 22)) != 0;
    if (topoext && max_ext >= kAmdCaches) {
      out.caches = deterministic_caches(cpuid, kAmdCaches);
      out.source = "cpuid leaf 0x8000001D";
    }
    if (out.caches.empty() && max_ext >= 0x80000006u) {
      const CpuidRegs l1 = cpuid(0x80000005u, 0);
      const CpuidRegs l2l3 = cpuid(0x80000006u, 0);
      platform::CacheInfo c;
      c.level = 1;
      c.size_bytes = static_cast<std::uint64_t>(l1.ecx >> 24) * 1024;
      const std::uint32_t l1_ways = (l1.ecx >> 16) & 0xFF;
      c.ways = l1_ways == 0xFF ? 0 : static_cast<int>(l1_ways);  // 0xFF: fully associative
      add(&out.caches, c);
      c.level = 2;
      c.size_bytes = static_cast<std::uint64_t>(l2l3.ecx >> 16) * 1024;
      c.ways = amd_associativity_ways(l2l3.ecx >> 12);
      add(&out.caches, c);
      c.level = 3;
      c.size_bytes = static_cast<std::uint64_t>(l2l3.edx >> 18) * 512 * 1024;
      c.ways = amd_associativity_ways(l2l3.edx >> 12);
      add(&out.caches, c);
      out.source = "cpuid leaves 0x80000005/0x80000006 (no sharing given)";
    }
  }
  if (out.caches.empty()) {
    out.source = intel || amd ? "cpuid lists no caches" : "cpuid: vendor without a cache leaf";
  }
  std::sort(
      out.caches.begin(), out.caches.end(),
      [](const platform::CacheInfo& a, const platform::CacheInfo& b) { return a.level < b.level; });
  return out;
}

CpuidCaches host_cpuid_caches() {
#if defined(__x86_64__) || defined(__i386__)
  return decode_cpuid_caches([](std::uint32_t leaf, std::uint32_t subleaf) {
    CpuidRegs r;
    __cpuid_count(leaf, subleaf, r.eax, r.ebx, r.ecx, r.edx);
    return r;
  });
#else
  return {{}, "no cpuid on this architecture"};
#endif
}

}  // namespace tessera::native
