// bench-call_cost: the instructions one small call executes, as callgrind
// (valgrind's instruction counter) counts them: a figure machine noise does
// not move, so a change to a small call's fixed cost shows as a number
// (issue 41's guard). Each call is made through the front door a user
// calls: the C++ API (try_*), the C API (tsr_*), libtessera_blas's CBLAS
// (dlopen()ed RTLD_LOCAL, so that the OpenBLAS linked here cannot stand in
// for it; on its default context, TESSERA_ISA=avx2), and, for reference,
// OpenBLAS's CBLAS on the same shapes.
//
//   bench-call_cost [--calls N]
//
// The program re-runs itself under `valgrind --tool=callgrind` (collection
// off at start). In that run each op is called 200 times to warm up, then N
// times (default 10000) with collection on, and the counters are dumped
// under the op's name; this process reads the dumps and prints
// instructions per call, less the loop's own (an empty op through the same
// call). Contexts have the default policy (automatic threads, as a user's
// do). valgrind emulates no AVX-512, so they are forced to the avx2 level,
// and OpenBLAS to its Haswell core, the best it has for AVX2, one thread.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "tessera/tessera.h"
#include "tessera/tessera.hpp"

#if defined(TESSERA_BLAS_LIBRARY)
#include <dlfcn.h>
#endif
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define TESSERA_BENCH_HAVE_CALLGRIND 1
#endif
#if defined(TESSERA_BENCH_HAVE_OPENBLAS)
#include <cblas.h>
#endif

namespace {

// Operands for every op: the largest shape is 32 x 32.
struct Buffers {
  std::vector<float> a = std::vector<float>(32 * 32, 0.5f);
  std::vector<float> b = std::vector<float>(32 * 32, 0.25f);
  std::vector<float> y = std::vector<float>(32 * 32, 0.0f);
  const tessera::Context* context = nullptr;
  tsr_context* c_context = nullptr;
  volatile float sink = 0;
};

void require(const tessera::Status& st) {
  if (!st.ok()) {
    std::fprintf(stderr, "bench-call_cost: %s\n", st.to_string().c_str());
    std::exit(1);
  }
}
void require_c(tsr_status st) {
  if (st != TSR_OK) {
    std::fprintf(stderr, "bench-call_cost: C call failed with status %d\n", static_cast<int>(st));
    std::exit(1);
  }
}

using tessera::Layout;
using tessera::Transpose;

void gemv(Buffers& b, int m, int n) {
  require(tessera::try_gemv(*b.context, Layout::kRowMajor, Transpose::kNo, m, n, 1.0f, b.a.data(), n,
                            b.b.data(), 1, 0.0f, b.y.data(), 1));
}
void gemm(Buffers& b, int m, int n, int k) {
  require(tessera::try_gemm(*b.context, Layout::kRowMajor, Transpose::kNo, Transpose::kNo, m, n, k,
                            1.0f, b.a.data(), k, b.b.data(), n, 0.0f, b.y.data(), n));
}
void dot(Buffers& b, int n) {
  float out = 0;
  require(tessera::try_dot(*b.context, n, b.a.data(), 1, b.b.data(), 1, &out));
  b.sink = out;
}

struct Op {
  const char* name;
  const char* door;
  void (*call)(Buffers&);
};

// libtessera_blas's CBLAS entry points (null when the bench was built
// without the library): the same argument lists as OpenBLAS's cblas.h.
// No cblas_sdot: it calls the Fortran sdot_ through its exported symbol
// (as the reference CBLAS does, so that a program's own SDOT replaces it),
// and in this process that symbol is OpenBLAS's, loaded first.
struct TesseraCblas {
  void (*sgemv)(int, int, int, int, float, const float*, int, const float*, int, float, float*,
                int) = nullptr;
  void (*sgemm)(int, int, int, int, int, int, float, const float*, int, const float*, int, float,
                float*, int) = nullptr;
};
TesseraCblas tessera_cblas;

// CBLAS's enum values (row-major 101, no transpose 111), as cblas.h has them.
constexpr int kCblasRowMajor = 101, kCblasNoTrans = 111;

void load_tessera_cblas() {
#if defined(TESSERA_BLAS_LIBRARY)
  void* lib = dlopen(TESSERA_BLAS_LIBRARY, RTLD_NOW | RTLD_LOCAL);
  if (lib == nullptr) {
    std::fprintf(stderr, "bench-call_cost: cannot load %s: %s\n", TESSERA_BLAS_LIBRARY, dlerror());
    std::exit(1);
  }
  tessera_cblas.sgemv = reinterpret_cast<decltype(tessera_cblas.sgemv)>(dlsym(lib, "cblas_sgemv"));
  tessera_cblas.sgemm = reinterpret_cast<decltype(tessera_cblas.sgemm)>(dlsym(lib, "cblas_sgemm"));
  if (!tessera_cblas.sgemv || !tessera_cblas.sgemm) {
    std::fprintf(stderr, "bench-call_cost: %s lacks a CBLAS symbol\n", TESSERA_BLAS_LIBRARY);
    std::exit(1);
  }
#endif
}

// The ops of issue 41's list. Plain function pointers, so every op pays
// the same loop and indirect call, which the "empty" op measures.
std::vector<Op> ops() {
  using std::span;
  std::vector<Op> list = {
      {"empty", "", [](Buffers&) {}},
      {"sgemv 8x8", "C++", [](Buffers& b) { gemv(b, 8, 8); }},
      {"sgemv 32x32", "C++", [](Buffers& b) { gemv(b, 32, 32); }},
      {"sdot 16", "C++", [](Buffers& b) { dot(b, 16); }},
      {"sdot 256", "C++", [](Buffers& b) { dot(b, 256); }},
      {"sgemm 8x32x1", "C++", [](Buffers& b) { gemm(b, 8, 32, 1); }},
      {"sgemm 8x8x8", "C++", [](Buffers& b) { gemm(b, 8, 8, 8); }},
      {"sgemm 16x16x16", "C++", [](Buffers& b) { gemm(b, 16, 16, 16); }},
      {"add 16", "C++",
       [](Buffers& b) {
         require(tessera::try_add(*b.context, span<const float>(b.a.data(), 16),
                                  span<const float>(b.b.data(), 16), span<float>(b.y.data(), 16)));
       }},
      {"relu 16", "C++",
       [](Buffers& b) {
         require(tessera::try_relu(*b.context, span<const float>(b.a.data(), 16),
                                   span<float>(b.y.data(), 16)));
       }},
      {"sum 16", "C++",
       [](Buffers& b) {
         float out = 0;
         require(tessera::try_reduce(*b.context, tessera::ReduceOp::kSum, 1, 16, b.a.data(), 16, &out));
         b.sink = out;
       }},
      {"max 16", "C++",
       [](Buffers& b) {
         float out = 0;
         require(tessera::try_reduce(*b.context, tessera::ReduceOp::kMax, 1, 16, b.a.data(), 16, &out));
         b.sink = out;
       }},
      {"argmax 16", "C++",
       [](Buffers& b) {
         std::int64_t out = 0;
         require(tessera::try_argmax(*b.context, 1, 16, b.a.data(), 16, &out));
         b.sink = static_cast<float>(out);
       }},
      {"exp 16", "C++",
       [](Buffers& b) {
         require(tessera::try_unary(*b.context, tessera::UnaryOp::kExp,
                                    span<const float>(b.a.data(), 16), span<float>(b.y.data(), 16)));
       }},
      {"softmax 16", "C++",
       [](Buffers& b) { require(tessera::try_softmax(*b.context, 1, 16, b.a.data(), 16, b.y.data(), 16)); }},
      {"sgemv 8x8", "C",
       [](Buffers& b) {
         require_c(tsr_sgemv(b.c_context, TSR_ROW_MAJOR, TSR_NO_TRANS, 8, 8, 1.0f, b.a.data(), 8,
                             b.b.data(), 1, 0.0f, b.y.data(), 1, 0));
       }},
      {"sgemm 8x8x8", "C",
       [](Buffers& b) {
         require_c(tsr_sgemm(b.c_context, TSR_ROW_MAJOR, TSR_NO_TRANS, TSR_NO_TRANS, 8, 8, 8, 1.0f,
                             b.a.data(), 8, b.b.data(), 8, 0.0f, b.y.data(), 8, 0));
       }},
  };
#if defined(TESSERA_BLAS_LIBRARY)
  const std::vector<Op> blas = {
      {"sgemv 8x8", "BLAS",
       [](Buffers& b) {
         tessera_cblas.sgemv(kCblasRowMajor, kCblasNoTrans, 8, 8, 1.0f, b.a.data(), 8, b.b.data(),
                             1, 0.0f, b.y.data(), 1);
       }},
      {"sgemv 32x32", "BLAS",
       [](Buffers& b) {
         tessera_cblas.sgemv(kCblasRowMajor, kCblasNoTrans, 32, 32, 1.0f, b.a.data(), 32,
                             b.b.data(), 1, 0.0f, b.y.data(), 1);
       }},
      {"sgemm 8x32x1", "BLAS",
       [](Buffers& b) {
         tessera_cblas.sgemm(kCblasRowMajor, kCblasNoTrans, kCblasNoTrans, 8, 32, 1, 1.0f,
                             b.a.data(), 1, b.b.data(), 32, 0.0f, b.y.data(), 32);
       }},
      {"sgemm 8x8x8", "BLAS",
       [](Buffers& b) {
         tessera_cblas.sgemm(kCblasRowMajor, kCblasNoTrans, kCblasNoTrans, 8, 8, 8, 1.0f,
                             b.a.data(), 8, b.b.data(), 8, 0.0f, b.y.data(), 8);
       }},
      {"sgemm 16x16x16", "BLAS",
       [](Buffers& b) {
         tessera_cblas.sgemm(kCblasRowMajor, kCblasNoTrans, kCblasNoTrans, 16, 16, 16, 1.0f,
                             b.a.data(), 16, b.b.data(), 16, 0.0f, b.y.data(), 16);
       }},
  };
  list.insert(list.end(), blas.begin(), blas.end());
#endif
#if defined(TESSERA_BENCH_HAVE_OPENBLAS)
  const std::vector<Op> peer = {
      {"sgemv 8x8", "OpenBLAS",
       [](Buffers& b) {
         cblas_sgemv(CblasRowMajor, CblasNoTrans, 8, 8, 1.0f, b.a.data(), 8, b.b.data(), 1, 0.0f,
                     b.y.data(), 1);
       }},
      {"sgemv 32x32", "OpenBLAS",
       [](Buffers& b) {
         cblas_sgemv(CblasRowMajor, CblasNoTrans, 32, 32, 1.0f, b.a.data(), 32, b.b.data(), 1, 0.0f,
                     b.y.data(), 1);
       }},
      {"sdot 16", "OpenBLAS", [](Buffers& b) { b.sink = cblas_sdot(16, b.a.data(), 1, b.b.data(), 1); }},
      {"sdot 256", "OpenBLAS", [](Buffers& b) { b.sink = cblas_sdot(256, b.a.data(), 1, b.b.data(), 1); }},
      {"sgemm 8x32x1", "OpenBLAS",
       [](Buffers& b) {
         cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, 8, 32, 1, 1.0f, b.a.data(), 1,
                     b.b.data(), 32, 0.0f, b.y.data(), 32);
       }},
      {"sgemm 8x8x8", "OpenBLAS",
       [](Buffers& b) {
         cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, 8, 8, 8, 1.0f, b.a.data(), 8,
                     b.b.data(), 8, 0.0f, b.y.data(), 8);
       }},
      {"sgemm 16x16x16", "OpenBLAS",
       [](Buffers& b) {
         cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, 16, 16, 16, 1.0f, b.a.data(), 16,
                     b.b.data(), 16, 0.0f, b.y.data(), 16);
       }},
  };
  list.insert(list.end(), peer.begin(), peer.end());
#endif
  return list;
}

std::string dump_name(const Op& op) {
  return std::string(op.door[0] ? op.door : "loop") + ": " + op.name;
}

#if defined(TESSERA_BENCH_HAVE_CALLGRIND)
// The run under callgrind: each op warmed up, then counted.
int measure(long calls) {
  tessera::ContextOptions options;
  options.isa = tessera::Isa::kAvx2;
  const tessera::Context context(options);
  tsr_context_options c_options{};
  c_options.isa = "avx2";
  tsr_context* c_context = nullptr;
  require_c(tsr_context_create(&c_options, &c_context));
  load_tessera_cblas();
  Buffers buffers;
  buffers.context = &context;
  buffers.c_context = c_context;
  for (const Op& op : ops()) {
    for (int i = 0; i < 200; ++i) op.call(buffers);
    CALLGRIND_TOGGLE_COLLECT;
    for (long i = 0; i < calls; ++i) op.call(buffers);
    CALLGRIND_TOGGLE_COLLECT;
    // A named variable: the macro keeps only the pointer past the
    // statement that made it, so a temporary string would be gone.
    const std::string name = dump_name(op);
    CALLGRIND_DUMP_STATS_AT(name.c_str());
  }
  tsr_context_destroy(c_context);
  return 0;
}
#endif

// Instructions counted in each dump under `dir`, by the dump's name.
std::map<std::string, double> read_dumps(const std::filesystem::path& dir) {
  std::map<std::string, double> counts;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    std::ifstream in(entry.path());
    std::string line, name;
    double total = -1;
    const std::string trigger = "desc: Trigger: Client Request: ";
    while (std::getline(in, line)) {
      if (line.rfind(trigger, 0) == 0) name = line.substr(trigger.size());
      if (line.rfind("summary: ", 0) == 0) total = std::strtod(line.c_str() + 9, nullptr);
    }
    if (!name.empty() && total >= 0) counts[name] = total;
  }
  return counts;
}

}  // namespace

int main(int argc, char** argv) {
  long calls = 10000;
  bool child = false;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--calls") == 0 && i + 1 < argc) {
      calls = std::atol(argv[++i]);
      if (calls < 1) {
        std::fprintf(stderr, "bench-call_cost: --calls must be at least 1\n");
        return 2;
      }
    } else if (std::strcmp(argv[i], "--under-callgrind") == 0) {
      child = true;
    } else {
      std::fprintf(stderr, "usage: bench-call_cost [--calls N]\n");
      return 2;
    }
  }
#if !defined(TESSERA_BENCH_HAVE_CALLGRIND)
  (void)child;
  std::fprintf(stderr,
               "bench-call_cost: built without <valgrind/callgrind.h>; install valgrind "
               "(./dev bench installs it) and rebuild\n");
  return 2;
#else
  if (child) {
    if (!RUNNING_ON_VALGRIND) {
      std::fprintf(stderr, "bench-call_cost: --under-callgrind outside valgrind\n");
      return 2;
    }
    return measure(calls);
  }
  if (std::system("valgrind --version >/dev/null 2>&1") != 0) {
    std::fprintf(stderr, "bench-call_cost: valgrind is not on PATH (./dev bench installs it)\n");
    return 2;
  }
  char dir_template[] = "/tmp/tessera-call-cost-XXXXXX";
  if (mkdtemp(dir_template) == nullptr) {
    std::perror("bench-call_cost: mkdtemp");
    return 1;
  }
  const std::filesystem::path dir(dir_template);
  const std::string command =
      "env TESSERA_ISA=avx2 OPENBLAS_CORETYPE=Haswell OPENBLAS_NUM_THREADS=1 valgrind --tool=callgrind "
      "--collect-atstart=no --callgrind-out-file=" +
      (dir / "callgrind.out").string() + " '" + argv[0] + "' --under-callgrind --calls " +
      std::to_string(calls) + " >" + (dir / "log").string() + " 2>&1";
  const int rc = std::system(command.c_str());
  std::map<std::string, double> counts = read_dumps(dir);
  if (rc != 0 || counts.empty()) {
    std::fprintf(stderr, "bench-call_cost: the callgrind run failed (%d); its log: %s\n", rc,
                 (dir / "log").c_str());
    return 1;
  }
  std::filesystem::remove_all(dir);
  const double loop = counts.count("loop: empty") ? counts["loop: empty"] / calls : 0;
  std::printf("instructions per call (callgrind, %ld calls after 200 warm-up calls, less the loop's "
              "%.1f), tessera on its avx2 level, default policy (BLAS: libtessera_blas's CBLAS); "
              "OpenBLAS on its Haswell core\n",
              calls, loop);
  std::printf("%-16s %10s %10s %10s %10s %12s\n", "op", "C++", "C", "BLAS", "OpenBLAS",
              "OpenBLAS/C++");
  std::vector<std::string> names;
  for (const Op& op : ops()) {
    if (op.door[0] && std::find(names.begin(), names.end(), op.name) == names.end()) names.push_back(op.name);
  }
  auto cell = [&](const std::string& door, const std::string& name) {
    const auto it = counts.find(door + ": " + name);
    return it == counts.end() ? -1.0 : it->second / calls - loop;
  };
  for (const std::string& name : names) {
    const double cpp = cell("C++", name), c = cell("C", name), blas = cell("BLAS", name);
    const double peer = cell("OpenBLAS", name);
    auto show = [](double v) {
      char buf[32];
      if (v < 0) return std::string("-");
      std::snprintf(buf, sizeof buf, "%.0f", v);
      return std::string(buf);
    };
    char ratio[32] = "-";
    if (cpp > 0 && peer > 0) std::snprintf(ratio, sizeof ratio, "%.2f", peer / cpp);
    std::printf("%-16s %10s %10s %10s %10s %12s\n", name.c_str(), show(cpp).c_str(),
                show(c).c_str(), show(blas).c_str(), show(peer).c_str(), ratio);
  }
  return 0;
#endif
}
