// bench-small_calls: the fixed cost of small elementwise, reduction and
// softmax calls, in ns per call: f32, one row of n = 16, 256 and 4096
// elements; tessera through its public API on a default context (automatic
// parallelism: the way a user calls it) next to Eigen's array expressions
// (compiled with the host's ISA flags, one thread), which are inlined and
// check nothing: the floor a library call is measured against.
//
//   bench-small_calls [--rounds R]
//
// Each round times tessera and Eigen once each (the order alternates), a
// timing being a loop of calls lasting ~1 ms; reported are medians with
// min..max over the rounds and Eigen's ns / tessera's ns (above 1: tessera
// is faster).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <memory>
#include <vector>

#include "bench_support.hpp"
#include "peer_eigen.hpp"
#include "tessera/tessera.hpp"

namespace {

using Clock = std::chrono::steady_clock;
using tessera::bench::summarize;
using tessera::bench::Summary;
namespace eigen = tessera::bench::eigen_peer;

// n floats on a 64-byte line: a call's time then does not depend on where
// this binary's earlier allocations happened to leave the heap (256-float
// adds and relus ran 1.4x apart in two builds of the same kernels with
// plain std::vector operands).
struct LineAlignedFloats {
  std::unique_ptr<float, void (*)(void*)> p{nullptr, std::free};
  void resize(int n) {
    const std::size_t bytes = (static_cast<std::size_t>(n) * sizeof(float) + 63) / 64 * 64;
    p.reset(static_cast<float*>(std::aligned_alloc(64, bytes)));
    if (p == nullptr) {
      std::fprintf(stderr, "bench-small_calls: out of memory\n");
      std::exit(1);
    }
  }
  float* data() const { return p.get(); }
  float& operator[](int i) { return p.get()[i]; }
};

struct Buffers {
  LineAlignedFloats a, b, y;
  volatile float sink = 0;
  volatile std::int64_t index_sink = 0;
};

void require(const tessera::Status& st) {
  if (!st.ok()) {
    std::fprintf(stderr, "bench-small_calls: %s\n", st.to_string().c_str());
    std::exit(1);
  }
}

// Calls visit(name, tessera call, Eigen call) for each op. Each pair is
// its own lambda type, so the timing loop the visitor instantiates calls
// tessera's entry point and Eigen's function (peer_eigen.cc) directly: no
// std::function or other indirect call of the bench's own inside the time
// (which cost both sides alike, measured in benchmarks.md).
template <class Visit>
void for_each_op(Visit&& visit) {
  using std::span;
  visit("add",
       [](const tessera::Context& c, Buffers& b, int n) {
         require(tessera::try_add(c, span<const float>(b.a.data(), n),
                                  span<const float>(b.b.data(), n), span<float>(b.y.data(), n)));
       },
       [](Buffers& b, int n) { eigen::add(b.a.data(), b.b.data(), b.y.data(), n); });
  visit("relu",
       [](const tessera::Context& c, Buffers& b, int n) {
         require(
             tessera::try_relu(c, span<const float>(b.a.data(), n), span<float>(b.y.data(), n)));
       },
       [](Buffers& b, int n) { eigen::relu(b.a.data(), b.y.data(), n); });
  visit("exp",
       [](const tessera::Context& c, Buffers& b, int n) {
         require(tessera::try_exp(c, span<const float>(b.a.data(), n), span<float>(b.y.data(), n)));
       },
       [](Buffers& b, int n) { eigen::exp(b.a.data(), b.y.data(), n); });
  visit("sum",
       [](const tessera::Context& c, Buffers& b, int n) {
         float out;
         require(tessera::try_reduce(c, tessera::ReduceOp::kSum, 1, n, b.a.data(), n, &out));
         b.sink = out;
       },
       [](Buffers& b, int n) { b.sink = eigen::sum(b.a.data(), n); });
  visit("max",
       [](const tessera::Context& c, Buffers& b, int n) {
         float out;
         require(tessera::try_reduce(c, tessera::ReduceOp::kMax, 1, n, b.a.data(), n, &out));
         b.sink = out;
       },
       [](Buffers& b, int n) { b.sink = eigen::max(b.a.data(), n); });
  visit("argmax",
       [](const tessera::Context& c, Buffers& b, int n) {
         std::int64_t out;
         require(tessera::try_argmax(c, 1, n, b.a.data(), n, &out));
         b.index_sink = out;
       },
       [](Buffers& b, int n) { b.index_sink = eigen::argmax(b.a.data(), n); });
  visit("softmax",
       [](const tessera::Context& c, Buffers& b, int n) {
         require(tessera::try_softmax(c, 1, n, b.a.data(), n, b.y.data(), n));
       },
       [](Buffers& b, int n) { eigen::softmax(b.a.data(), b.y.data(), n); });
}

// ns per call of `calls` back-to-back calls of f.
template <class F>
double ns_per_call(int calls, F&& f) {
  const auto t0 = Clock::now();
  for (int i = 0; i < calls; ++i) f();
  return std::chrono::duration<double>(Clock::now() - t0).count() / calls * 1e9;
}

}  // namespace

int main(int argc, char** argv) {
  int rounds = 7;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--rounds") == 0 && i + 1 < argc) {
      rounds = std::atoi(argv[++i]);
      if (rounds < 1) {
        std::fprintf(stderr, "bench-small_calls: --rounds must be at least 1\n");
        return 2;
      }
    } else {
      std::fprintf(stderr, "usage: bench-small_calls [--rounds R]\n");
      return 2;
    }
  }
  const bool have_eigen = eigen::available();
  const tessera::Context context;
  std::printf("small calls, f32, one row, ns per call: tessera (default context) vs %s; "
              "operands on 64-byte lines\n",
              eigen::describe().c_str());
  std::printf("%-8s %6s  %24s %24s  %8s\n", "op", "n", "tessera ns (min..max)", "eigen", "eigen/t");
  for_each_op([&](const char* name, auto tessera_call, auto eigen_call) {
    for (int n : {16, 256, 4096}) {
      Buffers buf;
      buf.a.resize(n), buf.b.resize(n), buf.y.resize(n);
      for (int i = 0; i < n; ++i) {
        buf.a[i] = std::sin(0.37f * static_cast<float>(i));
        buf.b[i] = std::cos(0.11f * static_cast<float>(i));
      }
      auto t = [&] { tessera_call(context, buf, n); };
      auto e = [&] { eigen_call(buf, n); };
      // Calls per timing: ~1 ms, from a first estimate (also the warm-up).
      const double estimate = ns_per_call(200, t);
      const int calls = std::clamp(static_cast<int>(1e6 / std::max(estimate, 1.0)), 50, 200000);
      std::vector<double> tns, ens;
      for (int r = 0; r < rounds; ++r) {
        if (r % 2 == 0 || !have_eigen) tns.push_back(ns_per_call(calls, t));
        if (have_eigen) ens.push_back(ns_per_call(calls, e));
        if (r % 2 == 1 && have_eigen) tns.push_back(ns_per_call(calls, t));
      }
      const Summary ts = summarize(tns);
      std::printf("%-8s %6d  %8.1f (%6.1f..%6.1f)", name, n, ts.median, ts.min, ts.max);
      if (have_eigen) {
        const Summary es = summarize(ens);
        std::printf(" %8.1f (%6.1f..%6.1f)  %7.2fx\n", es.median, es.min, es.max,
                    es.median / ts.median);
      } else {
        std::printf(" %24s  %8s\n", "-", "-");
      }
      std::fflush(stdout);
    }
  });
  return 0;
}
