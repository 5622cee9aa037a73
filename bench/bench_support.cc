#include "bench_support.hpp"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#if defined(__linux__)
#include <sys/syscall.h>
#include <unistd.h>
#endif

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

namespace {

// CPU nanoseconds consumed so far by this process's threads other than the
// caller; -1 where the platform cannot say.
std::int64_t others_cpu_ns() {
#if defined(__linux__)
  const std::string self = std::to_string(static_cast<long>(syscall(SYS_gettid)));
  std::int64_t total = 0;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator("/proc/self/task", ec)) {
    if (entry.path().filename() == self) continue;
    std::ifstream in(entry.path() / "schedstat");
    long long on_cpu = 0;
    if (in >> on_cpu) total += on_cpu;
  }
  return ec ? -1 : total;
#else
  return -1;
#endif
}

}  // namespace

double wait_for_quiet_threads(int quiet_ms, int max_ms) {
  const auto t0 = std::chrono::steady_clock::now();
  auto waited_ms = [&] {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0)
        .count();
  };
  std::int64_t before = others_cpu_ns();
  if (before < 0) {
    std::this_thread::sleep_for(std::chrono::milliseconds(quiet_ms * 6));
    return waited_ms();
  }
  while (waited_ms() < max_ms) {
    std::this_thread::sleep_for(std::chrono::milliseconds(quiet_ms));
    const std::int64_t after = others_cpu_ns();
    // Quiet: the others used under a tenth of the window (threads exiting
    // or a timer tick may account a few microseconds).
    if (after - before < static_cast<std::int64_t>(quiet_ms) * 100000) break;
    before = after;
  }
  return waited_ms();
}

}  // namespace tessera::bench
