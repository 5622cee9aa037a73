#include "paired_rounds.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>

namespace tessera::tune {
namespace {

double seconds_of(const std::function<bool()>& work, bool* ok) {
  const auto start = std::chrono::steady_clock::now();
  if (!work()) *ok = false;
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 == 1 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

}  // namespace

PairedResult run_paired(const std::function<bool()>& incumbent,
                        const std::function<bool()>& challenger, int rounds, double margin,
                        bool* ok) {
  *ok = true;
  seconds_of(incumbent, ok);  // warm both (page faults, packing buffers)
  seconds_of(challenger, ok);
  std::vector<double> a, b;
  PairedResult r;
  r.rounds = rounds;
  for (int i = 0; i < rounds; ++i) {
    double ta = 0, tb = 0;
    if (i % 2 == 0) {
      ta = seconds_of(incumbent, ok);
      tb = seconds_of(challenger, ok);
    } else {
      tb = seconds_of(challenger, ok);
      ta = seconds_of(incumbent, ok);
    }
    a.push_back(ta);
    b.push_back(tb);
    if (tb < ta) ++r.challenger_wins;
  }
  r.incumbent_median = median(a);
  r.challenger_median = median(b);
  r.challenger_better = r.challenger_median * (1.0 + margin) <= r.incumbent_median &&
                        r.challenger_wins * 5 >= rounds * 4;
  return r;
}

std::string fixed(double x, int digits) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.*f", digits, x);
  return buffer;
}

double time_once(const std::function<bool()>& work, bool* ok) {
  *ok = true;
  seconds_of(work, ok);
  double best = seconds_of(work, ok);
  for (int i = 0; i < 2; ++i) best = std::min(best, seconds_of(work, ok));
  return best;
}

}  // namespace tessera::tune
