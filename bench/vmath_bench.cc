// Throughput of the f32 transcendentals (exp, tanh, log) through the public
// elementwise ops, 1 thread, against SLEEF (when found) at the host's best
// ISA: SLEEF's 1.0-ulp (u10) variants and, where it has one, the 3.5-ulp
// (u35) variant (SLEEF has no expf u35). tessera's measured bounds: exp,
// log, tanh 1 ulp from the correctly rounded result (README). Sizes 2^16
// (in cache) and 2^24 (out of cache). Reps of all variants are interleaved;
// medians with spread, elements/s.
//   ./dev bench vmath   [--reps R]
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "bench_support.hpp"
#include "tessera/tessera.hpp"

#if defined(TESSERA_BENCH_HAVE_SLEEF)
#include <immintrin.h>
#include <sleef.h>
// sleef.h declares each ISA's entry points only when this file is compiled
// for that ISA; it is not (the loops below carry target attributes), so
// they are declared here with the header's signatures.
extern "C" {
__m512 Sleef_expf16_u10avx512f(__m512);
__m512 Sleef_tanhf16_u10avx512f(__m512);
__m512 Sleef_tanhf16_u35avx512f(__m512);
__m512 Sleef_logf16_u10avx512f(__m512);
__m512 Sleef_logf16_u35avx512f(__m512);
__m256 Sleef_expf8_u10avx2(__m256);
__m256 Sleef_tanhf8_u10avx2(__m256);
__m256 Sleef_tanhf8_u35avx2(__m256);
__m256 Sleef_logf8_u10avx2(__m256);
__m256 Sleef_logf8_u35avx2(__m256);
}
#endif

namespace {

using tessera::UnaryOp;

#if defined(TESSERA_BENCH_HAVE_SLEEF)
// One loop per SLEEF entry point, compiled for its ISA (this file is not).
#define SLEEF_LOOP_512(fn)                                                     \
  __attribute__((target("avx512f"))) void loop_##fn(const float* x, float* y, \
                                                    std::size_t n) {          \
    std::size_t i = 0;                                                         \
    for (; i + 16 <= n; i += 16) _mm512_storeu_ps(y + i, fn(_mm512_loadu_ps(x + i))); \
    for (; i < n; ++i) y[i] = x[i];                                            \
  }
#define SLEEF_LOOP_256(fn)                                                        \
  __attribute__((target("avx2,fma"))) void loop_##fn(const float* x, float* y,  \
                                                     std::size_t n) {           \
    std::size_t i = 0;                                                           \
    for (; i + 8 <= n; i += 8) _mm256_storeu_ps(y + i, fn(_mm256_loadu_ps(x + i))); \
    for (; i < n; ++i) y[i] = x[i];                                              \
  }
SLEEF_LOOP_512(Sleef_expf16_u10avx512f)
SLEEF_LOOP_512(Sleef_tanhf16_u10avx512f)
SLEEF_LOOP_512(Sleef_tanhf16_u35avx512f)
SLEEF_LOOP_512(Sleef_logf16_u10avx512f)
SLEEF_LOOP_512(Sleef_logf16_u35avx512f)
SLEEF_LOOP_256(Sleef_expf8_u10avx2)
SLEEF_LOOP_256(Sleef_tanhf8_u10avx2)
SLEEF_LOOP_256(Sleef_tanhf8_u35avx2)
SLEEF_LOOP_256(Sleef_logf8_u10avx2)
SLEEF_LOOP_256(Sleef_logf8_u35avx2)
#endif

struct Variant {
  std::string name;
  std::function<void(const float*, float*, std::size_t)> run;
};

}  // namespace

int main(int argc, char** argv) {
  int reps = 15;
  for (int i = 1; i + 1 < argc; ++i) {
    if (std::string(argv[i]) == "--reps") reps = std::atoi(argv[i + 1]);
  }
  tessera::ContextOptions options;
  options.policy.num_threads = 1;
  tessera::Context context;
  if (const auto s = tessera::Context::create(options, &context); !s.ok()) {
    std::fprintf(stderr, "%s\n", s.to_string().c_str());
    return 1;
  }
  const std::string isa = tessera::isa_name(context.isa());
  std::printf("vmath bench: f32, 1 thread, tessera isa=%s, %d interleaved reps\n", isa.c_str(),
              reps);
  struct OpSet {
    const char* name;
    UnaryOp op;
    float lo, hi;
  };
  // exp is timed twice: on [-80, 80], where every value takes tessera's
  // in-range shortcut, and on [-120, 120], where about 28% of the values
  // over- or underflow and most vectors take the general path.
  const OpSet ops[] = {{"exp", UnaryOp::kExp, -80.0f, 80.0f},
                       {"exp120", UnaryOp::kExp, -120.0f, 120.0f},
                       {"tanh", UnaryOp::kTanh, -10.0f, 10.0f},
                       {"log", UnaryOp::kLog, 1e-30f, 1e30f}};
  std::printf("%-6s %10s %-28s %12s %8s\n", "op", "n", "variant", "Gelem/s", "spread");
  for (std::size_t n : {std::size_t(1) << 16, std::size_t(1) << 24}) {
    for (const OpSet& o : ops) {
      std::vector<float> x(n), y(n);
      for (std::size_t i = 0; i < n; ++i) {
        const double t = (i * 0.6180339887498949) - std::floor(i * 0.6180339887498949);
        x[i] = o.op == UnaryOp::kLog ? static_cast<float>(std::exp(std::log(o.lo) + t * (std::log(o.hi) - std::log(o.lo))))
                                     : static_cast<float>(o.lo + t * (o.hi - o.lo));
      }
      std::vector<Variant> variants;
      variants.push_back({"tessera " + isa, [&](const float* a, float* b, std::size_t m) {
                            (void)tessera::try_unary(context, o.op, std::span<const float>(a, m),
                                                     std::span<float>(b, m));
                          }});
#if defined(TESSERA_BENCH_HAVE_SLEEF)
      const bool has512 = __builtin_cpu_supports("avx512f");
      const bool has256 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
      if (has512) {
        if (o.op == UnaryOp::kExp) variants.push_back({"sleef expf16_u10avx512f", loop_Sleef_expf16_u10avx512f});
        if (o.op == UnaryOp::kTanh) {
          variants.push_back({"sleef tanhf16_u10avx512f", loop_Sleef_tanhf16_u10avx512f});
          variants.push_back({"sleef tanhf16_u35avx512f", loop_Sleef_tanhf16_u35avx512f});
        }
        if (o.op == UnaryOp::kLog) {
          variants.push_back({"sleef logf16_u10avx512f", loop_Sleef_logf16_u10avx512f});
          variants.push_back({"sleef logf16_u35avx512f", loop_Sleef_logf16_u35avx512f});
        }
      } else if (has256) {
        if (o.op == UnaryOp::kExp) variants.push_back({"sleef expf8_u10avx2", loop_Sleef_expf8_u10avx2});
        if (o.op == UnaryOp::kTanh) {
          variants.push_back({"sleef tanhf8_u10avx2", loop_Sleef_tanhf8_u10avx2});
          variants.push_back({"sleef tanhf8_u35avx2", loop_Sleef_tanhf8_u35avx2});
        }
        if (o.op == UnaryOp::kLog) {
          variants.push_back({"sleef logf8_u10avx2", loop_Sleef_logf8_u10avx2});
          variants.push_back({"sleef logf8_u35avx2", loop_Sleef_logf8_u35avx2});
        }
      }
#endif
      std::vector<std::vector<double>> seconds(variants.size());
      for (auto& v : variants) v.run(x.data(), y.data(), n);  // warm-up
      for (int r = 0; r < reps; ++r) {
        for (std::size_t k = 0; k < variants.size(); ++k) {
          const auto t = tessera::bench::time_runs(1, [&] { variants[k].run(x.data(), y.data(), n); });
          seconds[k].push_back(t[0]);
        }
      }
      for (std::size_t k = 0; k < variants.size(); ++k) {
        const auto s = tessera::bench::summarize(seconds[k]);
        std::printf("%-6s %10zu %-28s %12.3f %7.1f%%\n", o.name, n, variants[k].name.c_str(),
                    static_cast<double>(n) / s.median / 1e9, 100.0 * s.spread);
      }
    }
  }
#if !defined(TESSERA_BENCH_HAVE_SLEEF)
  std::printf("(SLEEF not found: install libsleef-dev for the comparison)\n");
#endif
  return 0;
}
