#include "bench_support.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>

namespace tessera::bench {

Summary summarize(std::vector<double> values) {
  Summary s;
  if (values.empty()) return s;
  std::sort(values.begin(), values.end());
  auto at = [&](double q) {
    const double pos = q * static_cast<double>(values.size() - 1);
    const auto lo = static_cast<std::size_t>(pos);
    const auto hi = std::min(lo + 1, values.size() - 1);
    return values[lo] + (values[hi] - values[lo]) * (pos - static_cast<double>(lo));
  };
  s.median = at(0.5);
  s.min = values.front();
  s.max = values.back();
  s.spread = s.median > 0 ? (at(0.75) - at(0.25)) / s.median : 0;
  return s;
}

std::vector<std::string> unset_variables(const std::vector<std::string>& names) {
  std::vector<std::string> removed;
  for (const std::string& name : names) {
    if (const char* value = std::getenv(name.c_str())) {
      removed.push_back(name + "=" + value);
      unsetenv(name.c_str());
    }
  }
  return removed;
}

namespace {
constexpr const char* kReexecMarker = "TESSERA_BENCH_OPENBLAS_REMOVED";
}  // namespace

void reexec_without_openblas_overrides(char** argv, const char* bench) {
#if defined(__linux__)
  if (std::getenv(kReexecMarker) != nullptr) return;
  const std::vector<std::string> removed =
      unset_variables({"OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE"});
  if (removed.empty()) return;
  std::string joined;
  for (const std::string& r : removed) joined += (joined.empty() ? "" : " ") + r;
  setenv(kReexecMarker, joined.c_str(), 1);
  execv("/proc/self/exe", argv);
  std::fprintf(stderr, "%s: re-exec failed; OpenBLAS initialised with %s\n", bench, joined.c_str());
#else
  (void)argv;
  (void)bench;
#endif
}

const char* openblas_overrides_removed() { return std::getenv(kReexecMarker); }

}  // namespace tessera::bench
