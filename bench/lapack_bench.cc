// LAPACK on tessera's BLAS against LAPACK on OpenBLAS: Debian's reference
// LAPACK (liblapack3) factorizing n x n matrices (dgetrf: LU with partial
// pivoting, dpotrf: Cholesky, dgeqrf: QR) with its BLAS calls (dgemm, dtrsm,
// dsyrk, dtrmm, dgemv, ...) going to
//   - tessera's libblas.so.3 (blas/system/),
//   - OpenBLAS's libblas.so.3,
// and, as the best a user of OpenBLAS gets, OpenBLAS's own LAPACK (its
// liblapack.so.3, with getrf and potrf rewritten on its kernels).
//
// Each (round, configuration) runs in a child process of this program whose
// LD_LIBRARY_PATH selects the libraries, so the three never share a
// process; the child dlopen()s liblapack.so.3 with RTLD_DEEPBIND (its BLAS
// calls resolve in its own dependencies, not in the OpenBLAS this program
// links for its core report), reports which library its dgemm_ came from,
// times one call of each routine on fresh copies after a warm-up, and
// prints the seconds. The parent alternates the configurations per round
// and prints medians and the per-round ratios (above 1: tessera faster).
//
//   ./dev bench lapack        (TESSERA_BENCH_ARGS="--n 2000 --rounds 5 --threads 2")
#include <dlfcn.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "bench_support.hpp"
#include "peer_openblas.hpp"

extern char** environ;

namespace {

using Getrf = void (*)(const int*, const int*, double*, const int*, int*, int*);
using Potrf = void (*)(const char*, const int*, double*, const int*, int*);
using Geqrf = void (*)(const int*, const int*, double*, const int*, double*, double*,
                       const int*, int*);

const char* const kRoutines[] = {"dgetrf", "dpotrf", "dgeqrf"};

double seconds_of(const std::chrono::steady_clock::time_point& t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// The child: one timed call of each routine; prints "<library of dgemm_>"
// then one line of three times.
int child(int n) {
  void* lapack = dlopen("liblapack.so.3", RTLD_NOW | RTLD_LOCAL | RTLD_DEEPBIND);
  if (lapack == nullptr) {
    std::fprintf(stderr, "bench-lapack: cannot load liblapack.so.3: %s\n", dlerror());
    return 1;
  }
  const auto getrf = reinterpret_cast<Getrf>(dlsym(lapack, "dgetrf_"));
  const auto potrf = reinterpret_cast<Potrf>(dlsym(lapack, "dpotrf_"));
  const auto geqrf = reinterpret_cast<Geqrf>(dlsym(lapack, "dgeqrf_"));
  void* gemm = dlsym(lapack, "dgemm_");
  Dl_info where{};
  if (getrf == nullptr || potrf == nullptr || geqrf == nullptr || gemm == nullptr ||
      dladdr(gemm, &where) == 0) {
    std::fprintf(stderr, "bench-lapack: liblapack.so.3 lacks a routine\n");
    return 1;
  }
  std::printf("%s\n", where.dli_fname);
  const std::size_t nn = static_cast<std::size_t>(n) * n;
  std::vector<double> a(nn), spd(nn);
  unsigned seed = 12345;
  for (auto& e : a) {
    seed = seed * 1664525u + 1013904223u;
    e = static_cast<double>(static_cast<int>(seed >> 9) % 2001 - 1000) / 1000.0;
  }
  // A symmetric positive definite matrix for potrf: A + A^T + 2n I.
  for (int j = 0; j < n; ++j) {
    for (int i = 0; i < n; ++i) {
      spd[i + static_cast<std::size_t>(j) * n] =
          a[i + static_cast<std::size_t>(j) * n] + a[j + static_cast<std::size_t>(i) * n] +
          (i == j ? 2.0 * n : 0.0);
    }
  }
  std::vector<int> ipiv(n);
  std::vector<double> tau(n), work(1), x;
  int info = 0, lwork = -1;
  geqrf(&n, &n, x.data(), &n, tau.data(), work.data(), &lwork, &info);  // workspace query
  lwork = static_cast<int>(work[0]);
  work.resize(static_cast<std::size_t>(std::max(1, lwork)));
  const auto run = [&](int which) {
    const auto t0 = std::chrono::steady_clock::now();
    if (which == 0) getrf(&n, &n, x.data(), &n, ipiv.data(), &info);
    if (which == 1) potrf("L", &n, x.data(), &n, &info);
    if (which == 2) geqrf(&n, &n, x.data(), &n, tau.data(), work.data(), &lwork, &info);
    return seconds_of(t0);
  };
  double t[3];
  for (int which = 0; which < 3; ++which) {
    const std::vector<double>& source = which == 1 ? spd : a;
    x = source;
    run(which);  // warm-up: the pools, the pages
    x = source;
    t[which] = run(which);
    if (info != 0) {
      std::fprintf(stderr, "bench-lapack: %s returned info %d\n", kRoutines[which], info);
      return 1;
    }
  }
  std::printf("%.9f %.9f %.9f\n", t[0], t[1], t[2]);
  return 0;
}

struct Config {
  Config(const char* n, std::string path) : name(n), library_path(std::move(path)) {}
  const char* name;
  std::string library_path;
  std::vector<std::vector<double>> seconds = std::vector<std::vector<double>>(3);
  std::string gemm_from;
};

// Runs this program as a child with LD_LIBRARY_PATH = path; false on failure.
bool run_child(const char* self, int n, Config& config) {
  std::vector<std::string> env_strings;
  for (char** e = environ; *e != nullptr; ++e) {
    if (std::strncmp(*e, "LD_LIBRARY_PATH=", 16) != 0) env_strings.emplace_back(*e);
  }
  env_strings.push_back("LD_LIBRARY_PATH=" + config.library_path);
  std::vector<char*> envp;
  for (auto& s : env_strings) envp.push_back(s.data());
  envp.push_back(nullptr);
  std::string n_text = std::to_string(n);
  std::vector<char*> argv = {const_cast<char*>(self), const_cast<char*>("--child"), n_text.data(),
                             nullptr};
  int pipe_fds[2];
  if (pipe(pipe_fds) != 0) return false;
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], 1);
  posix_spawn_file_actions_addclose(&actions, pipe_fds[0]);
  pid_t pid = 0;
  const int spawned = posix_spawn(&pid, self, &actions, nullptr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  close(pipe_fds[1]);
  if (spawned != 0) {
    close(pipe_fds[0]);
    return false;
  }
  std::string output;
  char buffer[512];
  ssize_t got;
  while ((got = read(pipe_fds[0], buffer, sizeof buffer)) > 0) output.append(buffer, got);
  close(pipe_fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) return false;
  const auto newline = output.find('\n');
  if (newline == std::string::npos) return false;
  config.gemm_from = output.substr(0, newline);
  double t[3];
  if (std::sscanf(output.c_str() + newline + 1, "%lf %lf %lf", &t[0], &t[1], &t[2]) != 3) {
    return false;
  }
  for (int i = 0; i < 3; ++i) config.seconds[i].push_back(t[i]);
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace tessera::bench;
  if (argc == 3 && std::strcmp(argv[1], "--child") == 0) return child(std::atoi(argv[2]));
  select_openblas_core(argv, "bench-lapack");
  int n = 2000, rounds = 5, threads = 0;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--n") == 0) n = std::atoi(argv[i + 1]);
    if (std::strcmp(argv[i], "--rounds") == 0) rounds = std::atoi(argv[i + 1]);
    if (std::strcmp(argv[i], "--threads") == 0) threads = std::atoi(argv[i + 1]);
  }
  if (threads > 0) {
    const std::string t = std::to_string(threads);
    setenv("TESSERA_NUM_THREADS", t.c_str(), 1);
    setenv("OPENBLAS_NUM_THREADS", t.c_str(), 1);
  }
  std::printf("%s\n", openblas_report().c_str());
  const std::string lib = TESSERA_LAPACK_BENCH_LIBDIR;
  std::vector<Config> configs = {
      {"LAPACK on tessera", std::string(TESSERA_BLAS_SYSTEM_DIR) + ":" + lib + "/lapack"},
      {"LAPACK on OpenBLAS", lib + "/lapack:" + lib + "/openblas-pthread"},
      {"OpenBLAS's LAPACK", lib + "/openblas-pthread"},
  };
  for (int round = 0; round < rounds; ++round) {
    for (std::size_t c = 0; c < configs.size(); ++c) {
      Config& config = configs[(c + static_cast<std::size_t>(round)) % configs.size()];
      if (!run_child(argv[0], n, config)) {
        std::fprintf(stderr, "bench-lapack: the child for %s failed\n", config.name);
        return 1;
      }
    }
  }
  std::printf("lapack: n = %d, %d rounds (order rotated), threads %s; Debian's liblapack3 unless "
              "named\n", n, rounds, threads > 0 ? std::to_string(threads).c_str() : "default");
  for (const Config& c : configs) std::printf("  %-20s dgemm_ from %s\n", c.name, c.gemm_from.c_str());
  const double flops[3] = {2.0 / 3 * n * double(n) * n, 1.0 / 3 * n * double(n) * n,
                           4.0 / 3 * n * double(n) * n};
  std::printf("  %-8s %24s %24s %24s %18s %18s\n", "routine", "tessera GFLOP/s",
              "OpenBLAS GFLOP/s", "OpenBLAS LAPACK GFLOP/s", "vs OpenBLAS", "vs its LAPACK");
  for (int r = 0; r < 3; ++r) {
    std::vector<double> ratio_blas, ratio_lapack;
    for (int i = 0; i < rounds; ++i) {
      ratio_blas.push_back(configs[1].seconds[r][i] / configs[0].seconds[r][i]);
      ratio_lapack.push_back(configs[2].seconds[r][i] / configs[0].seconds[r][i]);
    }
    const Summary st = summarize(configs[0].seconds[r]), so = summarize(configs[1].seconds[r]),
                  sl = summarize(configs[2].seconds[r]), rb = summarize(ratio_blas),
                  rl = summarize(ratio_lapack);
    std::printf("  %-8s %16.1f (%4.1f%%) %16.1f (%4.1f%%) %16.1f (%4.1f%%) %7.2fx (%.2f..%.2f) "
                "%7.2fx (%.2f..%.2f)\n",
                kRoutines[r], flops[r] / st.median * 1e-9, st.spread * 100,
                flops[r] / so.median * 1e-9, so.spread * 100, flops[r] / sl.median * 1e-9,
                sl.spread * 100, rb.median, rb.min, rb.max, rl.median, rl.min, rl.max);
  }
  return 0;
}
