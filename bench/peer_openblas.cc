#include "peer_openblas.hpp"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#if defined(TESSERA_BENCH_HAVE_OPENBLAS)
#include <cblas.h>
#endif

namespace tessera::bench {
namespace {

// Markers of the re-executions, read back for the report.
constexpr const char* kRemoved = "TESSERA_BENCH_OPENBLAS_REMOVED";
constexpr const char* kDetected = "TESSERA_BENCH_OPENBLAS_DETECTED";
constexpr const char* kReason = "TESSERA_BENCH_OPENBLAS_REASON";
constexpr const char* kForced = "TESSERA_BENCH_OPENBLAS_CORE";

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// The widest vector ISA a core's kernels use: 3 AVX-512, 2 AVX2+FMA, 1 AVX,
// 0 SSE. Core names as openblas_get_corename() prints them in 0.3.21.
int core_tier(const std::string& core) {
  const std::string c = lower(core);
  for (const char* n : {"skylakex", "cooperlake", "sapphirerapids"}) {
    if (c == n) return 3;
  }
  for (const char* n : {"haswell", "zen", "skylake", "excavator", "steamroller"}) {
    if (c == n) return 2;
  }
  for (const char* n : {"sandybridge", "bulldozer", "piledriver"}) {
    if (c == n) return 1;
  }
  return 0;
}

[[noreturn]] void reexec(char** argv, const char* bench) {
  execv("/proc/self/exe", argv);
  std::fprintf(stderr, "%s: cannot re-execute itself to choose OpenBLAS's core\n", bench);
  std::exit(1);
}

std::string env_or(const char* name, const char* fallback) {
  const char* v = std::getenv(name);
  return v != nullptr ? v : fallback;
}

}  // namespace

std::string best_openblas_core_for_host(std::string* tier) {
#if defined(__x86_64__) || defined(_M_X64)
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
      __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl")) {
    if (tier != nullptr) *tier = "avx512";
    // Cooperlake adds BF16 kernels; its sgemm/dgemm are SkylakeX's.
    return __builtin_cpu_supports("avx512bf16") ? "Cooperlake" : "SkylakeX";
  }
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) {
    if (tier != nullptr) *tier = "avx2";
    return __builtin_cpu_is("amd") ? "Zen" : "Haswell";
  }
  if (__builtin_cpu_supports("avx")) {
    if (tier != nullptr) *tier = "avx";
    return "Sandybridge";
  }
#endif
  if (tier != nullptr) *tier = "baseline";
  return "";
}

void select_openblas_core(char** argv, const char* bench) {
#if defined(TESSERA_BENCH_HAVE_OPENBLAS) && defined(__linux__)
  if (std::getenv(kDetected) != nullptr) return;  // the measuring process
  if (std::getenv(kRemoved) == nullptr) {
    // Step 1: OpenBLAS already initialised in this process, with whatever
    // the environment said; without overrides its detection stands.
    std::string removed;
    for (const char* name : {"OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE"}) {
      if (const char* v = std::getenv(name)) {
        // Appended piece by piece: GCC 12 warns (-Wrestrict, a false
        // positive) on the temporaries of one concatenation here.
        if (!removed.empty()) removed += ' ';
        removed += name;
        removed += '=';
        removed += v;
        unsetenv(name);
      }
    }
    setenv(kRemoved, removed.c_str(), 1);
    if (!removed.empty()) reexec(argv, bench);
  }
  // Step 2: this process's OpenBLAS detected its core by itself.
  const std::string detected = openblas_get_corename();
  setenv(kDetected, detected.c_str(), 1);
  std::string tier;
  const std::string best = best_openblas_core_for_host(&tier);
  std::string target;
  if (const char* forced = std::getenv(kForced); forced != nullptr && *forced != '\0') {
    target = forced;
    setenv(kReason, (std::string("forced by ") + kForced).c_str(), 1);
  } else if (!best.empty() && core_tier(detected) < core_tier(best)) {
    target = best;
    setenv(kReason, ("set by the bench: the best OpenBLAS core for " + tier).c_str(), 1);
  } else {
    setenv(kReason, ("detected by OpenBLAS; the best tier for this " + tier + " host").c_str(), 1);
  }
  if (!target.empty() && lower(target) != lower(detected)) {
    setenv("OPENBLAS_CORETYPE", target.c_str(), 1);
    reexec(argv, bench);
  }
#else
  (void)argv;
  (void)bench;
#endif
}

std::string openblas_core() {
#if defined(TESSERA_BENCH_HAVE_OPENBLAS)
  return openblas_get_corename();
#else
  return "";
#endif
}

std::string openblas_report() {
#if defined(TESSERA_BENCH_HAVE_OPENBLAS)
  std::string text = std::string("OpenBLAS ") + openblas_get_config() + ", core detected " +
                     env_or(kDetected, "?") + ", used " + openblas_get_corename() + " (" +
                     env_or(kReason, "not selected") + ")";
  const std::string removed = env_or(kRemoved, "");
  if (!removed.empty()) text += "; removed from the environment: " + removed;
  return text;
#else
  return "OpenBLAS: not found at configure time (not measured)";
#endif
}

}  // namespace tessera::bench
