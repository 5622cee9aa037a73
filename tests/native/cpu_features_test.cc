// CPU detection against an independent source: the kernel's own view in
// /proc/cpuinfo (Linux). The kernel clears a flag it does not enable, so
// cpuid+xgetbv and /proc/cpuinfo must agree feature for feature.
#include <doctest/doctest.h>

#include <cstdio>
#include <set>
#include <sstream>
#include <string>

#include "tessera/platform/cpu_features.hpp"

namespace tessera::platform {
namespace {

std::set<std::string> proc_cpuinfo_flags() {
  std::set<std::string> flags;
  FILE* f = std::fopen("/proc/cpuinfo", "r");
  if (f == nullptr) return flags;
  char line[8192];
  while (std::fgets(line, sizeof line, f) != nullptr) {
    std::string text(line);
    // x86: "flags : ..."; aarch64: "Features : ..."
    if (text.rfind("flags", 0) == 0 || text.rfind("Features", 0) == 0) {
      std::istringstream words(text.substr(text.find(':') + 1));
      std::string w;
      while (words >> w) flags.insert(w);
      break;
    }
  }
  std::fclose(f);
  return flags;
}

TEST_CASE("detected features agree with /proc/cpuinfo") {
  const auto flags = proc_cpuinfo_flags();
  if (flags.empty()) {
    MESSAGE("no /proc/cpuinfo flags here; skipping");
    return;
  }
  const CpuFeatures& f = cpu_features();
  auto has = [&](const char* name) { return flags.count(name) != 0; };
  if (f.arch == CpuArch::kX86_64) {
    CHECK(f.sse2 == has("sse2"));
    CHECK(f.avx == has("avx"));
    CHECK(f.avx2 == has("avx2"));
    CHECK(f.fma == has("fma"));
    CHECK(f.f16c == has("f16c"));
    CHECK(f.avx512f == has("avx512f"));
    CHECK(f.avx512bw == has("avx512bw"));
    CHECK(f.avx512dq == has("avx512dq"));
    CHECK(f.avx512vl == has("avx512vl"));
    CHECK(f.avx512vnni == has("avx512_vnni"));
    CHECK(f.avx512bf16 == has("avx512_bf16"));
    CHECK(f.avxvnni == has("avx_vnni"));
    // The kernel lists amx_int8 when it enables the tile state; detection
    // also needs the process's permission, which a Linux that lists the flag
    // grants.
    CHECK(f.amx_int8 == (has("amx_tile") && has("amx_int8")));
  } else if (f.arch == CpuArch::kAarch64) {
    // Under qemu-user /proc/cpuinfo is the host's, not the emulated CPU's.
    if (has("asimd")) {
      CHECK(f.neon);
      CHECK(f.dotprod == has("asimddp"));
    } else {
      MESSAGE("/proc/cpuinfo describes another CPU (qemu-user); checking NEON only");
      CHECK(f.neon);
    }
  }
}

TEST_CASE("detection is cached and stable") {
  CHECK(&cpu_features() == &cpu_features());
  const CpuFeatures again = detect_cpu_features();
  CHECK(again.avx2 == cpu_features().avx2);
  CHECK(again.neon == cpu_features().neon);
}

}  // namespace
}  // namespace tessera::platform
