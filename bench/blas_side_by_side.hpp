// What the blas_* benches share: libtessera_blas loaded at run time next to
// the OpenBLAS linked in (RTLD_LOCAL, so neither stands in for the other),
// and the side-by-side rounds: every (case, library) pair once per round, in
// an order rotated per round, each timed call after a pause.
#pragma once

#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include "bench_support.hpp"

namespace tessera::bench {

struct BlasCase {
  std::string name;
  int n;
  double work;  // flops (or bytes): reported per second
  std::function<void()> tessera, openblas;
};

// libtessera_blas at `path`, or exit with the loader's reason.
void* open_tessera_blas(const char* path, const char* bench);

// The function `name` of the loaded library, with the type F of OpenBLAS's
// declaration of the same name; exit when it is missing.
template <class F>
F blas_symbol(void* lib, const char* name, const char* bench) {
  const auto f = reinterpret_cast<F>(dlsym(lib, name));
  if (f == nullptr) {
    std::fprintf(stderr, "%s: libtessera_blas lacks %s\n", bench, name);
    std::exit(1);
  }
  return f;
}

// The blas_* benches' options: --n 1000,4000 --rounds R --threads N
// --types sd --routines a,b (each optional; the caller gives the defaults).
struct BlasBenchArgs {
  std::vector<int> sizes;
  int rounds = 5, threads = 0;
  std::string types, routines;
};
void parse_blas_bench_args(int argc, char** argv, BlasBenchArgs* args);

// Whether `item` is in the comma-separated `list` (an empty list: all).
bool blas_bench_wants(const std::string& list, const std::string& item);

// With threads > 0, both libraries use that many: TESSERA_NUM_THREADS
// (before tessera's first call: its default context reads it once) and
// openblas_set_num_threads.
void set_blas_bench_threads(int threads);

struct SideBySide {
  std::vector<Summary> tessera, openblas;  // seconds per call
  std::vector<Summary> ratio;              // OpenBLAS / tessera, pair by pair
};

// One warm-up call of each, then `rounds` rounds. Each timed call follows
// a pause (quiet_ms) and one untimed call of the same: the pause lets
// OpenBLAS's idle threads, which spin (sched_yield) for a while after a
// call, stop taking a core from whichever library runs next on a small
// machine; the untimed call wakes the library's own pool, as a program's
// loop of calls finds it.
SideBySide run_side_by_side(const std::vector<BlasCase>& cases, int rounds, int quiet_ms);

// The table: per case the median rate (work / second, in giga`unit`) of
// each library with its spread, and the ratio OpenBLAS / tessera with its
// range, under a title line naming the rounds and threads.
void print_side_by_side(const char* title, const char* unit, const BlasBenchArgs& args,
                        const std::vector<BlasCase>& cases, const SideBySide& times);

}  // namespace tessera::bench
