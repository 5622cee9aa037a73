#include "blas_side_by_side.hpp"

#include <chrono>
#include <cstring>
#include <sstream>
#include <thread>

#if defined(TESSERA_BENCH_HAVE_OPENBLAS)
#include <cblas.h>
#endif

namespace tessera::bench {

void* open_tessera_blas(const char* path, const char* bench) {
  void* lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (lib == nullptr) {
    std::fprintf(stderr, "%s: cannot load %s: %s\n", bench, path, dlerror());
    std::exit(1);
  }
  return lib;
}

void parse_blas_bench_args(int argc, char** argv, BlasBenchArgs* args) {
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--n") == 0) {
      args->sizes.clear();
      std::stringstream ss(argv[i + 1]);
      std::string w;
      while (std::getline(ss, w, ',')) args->sizes.push_back(std::atoi(w.c_str()));
    }
    if (std::strcmp(argv[i], "--rounds") == 0) args->rounds = std::atoi(argv[i + 1]);
    if (std::strcmp(argv[i], "--threads") == 0) args->threads = std::atoi(argv[i + 1]);
    if (std::strcmp(argv[i], "--types") == 0) args->types = argv[i + 1];
    if (std::strcmp(argv[i], "--routines") == 0) args->routines = argv[i + 1];
  }
}

bool blas_bench_wants(const std::string& list, const std::string& item) {
  if (list.empty()) return true;
  std::stringstream ss(list);
  std::string w;
  while (std::getline(ss, w, ',')) {
    if (w == item) return true;
  }
  return false;
}

void set_blas_bench_threads(int threads) {
  if (threads <= 0) return;
  setenv("TESSERA_NUM_THREADS", std::to_string(threads).c_str(), 1);
#if defined(TESSERA_BENCH_HAVE_OPENBLAS)
  openblas_set_num_threads(threads);
#endif
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

void print_side_by_side(const char* title, const char* unit, const BlasBenchArgs& args,
                        const std::vector<BlasCase>& cases, const SideBySide& times) {
  std::printf("%s: column-major, %d rounds (order rotated), threads %s\n", title, args.rounds,
              args.threads > 0 ? std::to_string(args.threads).c_str() : "default");
  const std::string t = std::string("tessera ") + unit, o = std::string("OpenBLAS ") + unit;
  std::printf("  %-14s %5s %22s %22s %24s\n", "routine", "n", t.c_str(), o.c_str(),
              "OpenBLAS/tessera time");
  for (std::size_t k = 0; k < cases.size(); ++k) {
    const Summary &st = times.tessera[k], &so = times.openblas[k], &r = times.ratio[k];
    std::printf("  %-14s %5d %14.1f (%4.1f%%) %14.1f (%4.1f%%) %10.2fx (%.2f..%.2f)\n",
                cases[k].name.c_str(), cases[k].n, cases[k].work / st.median * 1e-9,
                st.spread * 100, cases[k].work / so.median * 1e-9, so.spread * 100, r.median,
                r.min, r.max);
  }
}

}  // namespace tessera::bench
