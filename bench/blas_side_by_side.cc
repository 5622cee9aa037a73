#include "blas_side_by_side.hpp"

#include <chrono>
#include <thread>

namespace tessera::bench {

void* open_tessera_blas(const char* path, const char* bench) {
  void* lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (lib == nullptr) {
    std::fprintf(stderr, "%s: cannot load %s: %s\n", bench, path, dlerror());
    std::exit(1);
  }
  return lib;
}

SideBySide run_side_by_side(const std::vector<BlasCase>& cases, int rounds, int quiet_ms) {
  std::vector<std::vector<double>> tt(cases.size()), to(cases.size()), ratio(cases.size());
  for (const BlasCase& c : cases) c.tessera(), c.openblas();  // warm-up: pools, pages
  const auto timed = [quiet_ms](const std::function<void()>& f) {
    std::this_thread::sleep_for(std::chrono::milliseconds(quiet_ms));
    f();
    const auto t0 = std::chrono::steady_clock::now();
    f();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  };
  for (int round = 0; round < rounds; ++round) {
    for (std::size_t i = 0; i < cases.size(); ++i) {
      const std::size_t k = (i + static_cast<std::size_t>(round)) % cases.size();
      double t, o;
      if (round % 2 == 0) {
        t = timed(cases[k].tessera), o = timed(cases[k].openblas);
      } else {
        o = timed(cases[k].openblas), t = timed(cases[k].tessera);
      }
      tt[k].push_back(t), to[k].push_back(o), ratio[k].push_back(o / t);
    }
  }
  SideBySide out;
  for (std::size_t k = 0; k < cases.size(); ++k) {
    out.tessera.push_back(summarize(tt[k]));
    out.openblas.push_back(summarize(to[k]));
    out.ratio.push_back(summarize(ratio[k]));
  }
  return out;
}

}  // namespace tessera::bench
