// The cpuid cache decoder against register images built from the vendors'
// documented encodings (Intel SDM leaf 4, AMD APM leaves 0x8000001D,
// 0x80000005 and 0x80000006) for parts with known caches: an Intel server
// core (48 KiB 12-way L1d, 2 MiB 16-way L2, 105 MiB 15-way L3), a Zen 4 core
// through leaf 0x8000001D, and the Zen 5 VM this project develops on, whose
// 0x8000001D is empty (the legacy leaves then serve).
#include "native/src/cpuid_caches.hpp"

#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>
#include <map>
#include <string>
#include <utility>

namespace tessera::native {
namespace {

using Leaves = std::map<std::pair<std::uint32_t, std::uint32_t>, CpuidRegs>;

CpuidRegs vendor(const char (&name)[13], std::uint32_t max_leaf) {
  CpuidRegs r;
  r.eax = max_leaf;
  std::memcpy(&r.ebx, name, 4);
  std::memcpy(&r.edx, name + 4, 4);
  std::memcpy(&r.ecx, name + 8, 4);
  return r;
}

// One subleaf of leaf 4 / 0x8000001D: type 1 data, 2 instruction, 3 unified.
CpuidRegs described(int type, int level, std::uint32_t ways, std::uint32_t sets, int shared) {
  CpuidRegs r;
  r.eax = static_cast<std::uint32_t>(type) | static_cast<std::uint32_t>(level) << 5 |
          static_cast<std::uint32_t>(shared - 1) << 14;
  r.ebx = (ways - 1) << 22 | 0u << 12 | (64 - 1);  // one partition, 64-byte lines
  r.ecx = sets - 1;
  return r;
}

CpuidFn fake(Leaves leaves) {
  return [leaves = std::move(leaves)](std::uint32_t leaf, std::uint32_t sub) {
    const auto it = leaves.find({leaf, sub});
    return it == leaves.end() ? CpuidRegs{} : it->second;
  };
}

TEST_CASE("Intel: leaf 4 gives sizes, ways and sharing; the instruction cache is skipped") {
  Leaves l;
  l[{0, 0}] = vendor("GenuineIntel", 0x1F);
  l[{0x80000000u, 0}] = {0x80000008u, 0, 0, 0};
  l[{4, 0}] = described(1, 1, 12, 64, 2);
  l[{4, 1}] = described(2, 1, 8, 64, 2);
  l[{4, 2}] = described(3, 2, 16, 2048, 2);
  l[{4, 3}] = described(3, 3, 15, 114688, 128);
  const CpuidCaches c = decode_cpuid_caches(fake(l));
  CHECK(c.source == "cpuid leaf 4");
  REQUIRE(c.caches.size() == 3);
  CHECK(c.caches[0].level == 1);
  CHECK(c.caches[0].size_bytes == 48 * 1024);
  CHECK(c.caches[0].ways == 12);
  CHECK(c.caches[0].shared_by_logical == 2);
  CHECK(c.caches[1].size_bytes == 2u << 20);
  CHECK(c.caches[1].ways == 16);
  CHECK(c.caches[2].size_bytes == 105ull << 20);
  CHECK(c.caches[2].ways == 15);
  CHECK(c.caches[2].shared_by_logical == 128);
}

TEST_CASE("AMD with TOPOEXT: leaf 0x8000001D") {
  Leaves l;
  l[{0, 0}] = vendor("AuthenticAMD", 0x10);
  l[{0x80000000u, 0}] = {0x80000021u, 0, 0, 0};
  l[{0x80000001u, 0}] = {0, 0, 1u << 22, 0};
  l[{0x8000001Du, 0}] = described(1, 1, 8, 64, 2);
  l[{0x8000001Du, 1}] = described(2, 1, 8, 64, 2);
  l[{0x8000001Du, 2}] = described(3, 2, 8, 2048, 2);
  l[{0x8000001Du, 3}] = described(3, 3, 16, 32768, 16);
  const CpuidCaches c = decode_cpuid_caches(fake(l));
  CHECK(c.source == "cpuid leaf 0x8000001D");
  REQUIRE(c.caches.size() == 3);
  CHECK(c.caches[0].size_bytes == 32 * 1024);
  CHECK(c.caches[1].size_bytes == 1u << 20);
  CHECK(c.caches[1].ways == 8);
  CHECK(c.caches[2].size_bytes == 32u << 20);
  CHECK(c.caches[2].shared_by_logical == 16);
}

TEST_CASE("AMD with an empty 0x8000001D: the legacy leaves (the Zen 5 VM's registers)") {
  Leaves l;
  l[{0, 0}] = vendor("AuthenticAMD", 0x0D);
  l[{0x80000000u, 0}] = {0x80000021u, 0, 0, 0};
  l[{0x80000001u, 0}] = {0, 0, 1u << 22, 0};
  // L1d 48 KiB 12-way, 64-byte lines.
  l[{0x80000005u, 0}] = {0, 0, 48u << 24 | 12u << 16 | 1u << 8 | 64u, 0};
  // L2 1024 KiB with code 6 (8-way); L3 1016 x 512 KiB with code 6.
  l[{0x80000006u, 0}] = {0, 0, 1024u << 16 | 6u << 12 | 64u, 1016u << 18 | 6u << 12 | 64u};
  const CpuidCaches c = decode_cpuid_caches(fake(l));
  CHECK(c.source.find("0x80000005") != std::string::npos);
  REQUIRE(c.caches.size() == 3);
  CHECK(c.caches[0].size_bytes == 48 * 1024);
  CHECK(c.caches[0].ways == 12);
  CHECK(c.caches[1].size_bytes == 1u << 20);
  CHECK(c.caches[1].ways == 8);
  CHECK(c.caches[2].size_bytes == 508ull << 20);
  CHECK(c.caches[2].shared_by_logical == 1);  // the legacy leaves say nothing of sharing
}

TEST_CASE("AMD without an L3: a zero size is no cache") {
  Leaves l;
  l[{0, 0}] = vendor("AuthenticAMD", 0x0D);
  l[{0x80000000u, 0}] = {0x80000008u, 0, 0, 0};
  l[{0x80000005u, 0}] = {0, 0, 64u << 24 | 2u << 16, 0};
  l[{0x80000006u, 0}] = {0, 0, 512u << 16 | 8u << 12, 0};
  const CpuidCaches c = decode_cpuid_caches(fake(l));
  REQUIRE(c.caches.size() == 2);
  CHECK(c.caches[0].ways == 2);
  CHECK(c.caches[1].size_bytes == 512 * 1024);
  CHECK(c.caches[1].ways == 16);
}

TEST_CASE("other vendors and empty leaves: no caches, and the reason") {
  Leaves l;
  l[{0, 0}] = vendor("VIA VIA VIA ", 0x0D);
  const CpuidCaches other = decode_cpuid_caches(fake(l));
  CHECK(other.caches.empty());
  CHECK(other.source.find("vendor") != std::string::npos);
  Leaves empty;
  empty[{0, 0}] = vendor("GenuineIntel", 0x1F);
  const CpuidCaches none = decode_cpuid_caches(fake(empty));
  CHECK(none.caches.empty());
  CHECK(none.source == "cpuid lists no caches");
}

TEST_CASE("AMD associativity codes") {
  CHECK(amd_associativity_ways(0x0) == 0);
  CHECK(amd_associativity_ways(0x2) == 2);
  CHECK(amd_associativity_ways(0x5) == 6);
  CHECK(amd_associativity_ways(0x6) == 8);
  CHECK(amd_associativity_ways(0x8) == 16);
  CHECK(amd_associativity_ways(0xA) == 32);
  CHECK(amd_associativity_ways(0xF) == 0);  // fully associative
  CHECK(amd_associativity_ways(0x7) == 0);  // reserved
}

}  // namespace
}  // namespace tessera::native
