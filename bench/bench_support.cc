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

std::vector<int> parse_count_list(const char* text) {
  std::vector<int> out;
  for (const char* p = text; *p;) {
    char* end = nullptr;
    const long v = std::strtol(p, &end, 10);
    if (end == p || v < 1 || v > 1024) return {};
    out.push_back(static_cast<int>(v));
    if (*end != ',' && *end != '\0') return {};
    p = *end == ',' ? end + 1 : end;
  }
  return out;
}

std::vector<Summary> alternate(const std::vector<Library>& libs, double work, int inner,
                               int rounds, int per_round, const char* bench) {
  inner = std::max(1, inner);
  std::vector<std::vector<double>> round_medians(libs.size());
  for (int round = 0; round < rounds; ++round) {
    for (std::size_t step = 0; step < libs.size(); ++step) {
      const std::size_t pos = (step + static_cast<std::size_t>(round)) % libs.size();
      const std::size_t l = round % 2 == 0 ? pos : libs.size() - 1 - pos;
      wait_for_quiet_threads();
      bool ok = libs[l].run();
      std::vector<double> samples;
      for (int rep = 0; ok && rep < per_round; ++rep) {
        const auto t0 = std::chrono::steady_clock::now();
        for (int i = 0; ok && i < inner; ++i) ok = libs[l].run();
        const double sec =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() / inner;
        samples.push_back(work / sec / 1e9);
      }
      if (!ok) {
        std::fprintf(stderr, "%s: %s failed; no figure can be reported\n", bench,
                     libs[l].name.c_str());
        std::exit(1);
      }
      round_medians[l].push_back(summarize(samples).median);
    }
  }
  std::vector<Summary> out;
  for (const auto& r : round_medians) out.push_back(summarize(r));
  return out;
}

}  // namespace tessera::bench
