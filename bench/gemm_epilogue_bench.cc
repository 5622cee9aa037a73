// Fused GEMM epilogue cost, sgemm 1024^3 (row-major, alpha 1, beta 0) on a
// context of 1 thread, side by side with interleaved repetitions (each rep
// runs every variant once, in rotating order, so drift hits all alike):
//   plain          try_gemm, no epilogue
//   fused relu     try_gemm with a per-column bias and relu in the store
//   two-pass relu  plain try_gemm, then a separate loop C = relu(C + bias)
//   fused gelu     per-column bias and gelu (tanh form) in the store
//   fused sigmoid  per-column bias and sigmoid in the store
// Reported: median ms with min..max and the relative spread ((p75 - p25) /
// median), and each variant's median relative to plain.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include "bench_support.hpp"
#include "tessera/tessera.hpp"

namespace {

using tessera::bench::Summary;
using tessera::bench::summarize;

constexpr std::int64_t kN = 1024;

}  // namespace

int main(int argc, char** argv) {
  const int reps = argc > 1 ? std::atoi(argv[1]) : 15;
  if (reps < 3) {
    std::fprintf(stderr, "bench-gemm_epilogue: reps must be >= 3\n");
    return 2;
  }
  tessera::ContextOptions options;
  options.policy.num_threads = 1;
  tessera::Context context;
  if (const tessera::Status st = tessera::Context::create(options, &context); !st.ok()) {
    std::fprintf(stderr, "bench-gemm_epilogue: %s\n", st.to_string().c_str());
    return 1;
  }
  std::vector<float> a(kN * kN), b(kN * kN), c(kN * kN), bias(kN);
  // Deterministic values in [-1, 1): a fixed LCG, no dependence on tessera.
  std::uint32_t state = 12345;
  auto next = [&] {
    state = state * 1664525u + 1013904223u;
    return static_cast<float>(state >> 8) / 8388608.0f - 1.0f;
  };
  for (float& x : a) x = next();
  for (float& x : b) x = next();
  for (float& x : bias) x = next();

  auto gemm = [&](tessera::Activation act, bool with_bias) {
    tessera::Status st;
    if (act == tessera::Activation::kNone && !with_bias) {
      st = tessera::try_gemm(context, tessera::Layout::kRowMajor, tessera::Transpose::kNo,
                             tessera::Transpose::kNo, kN, kN, kN, 1.0f, a.data(), kN, b.data(),
                             kN, 0.0f, c.data(), kN);
    } else {
      const tessera::GemmEpilogue<float> ep{bias.data(), tessera::BiasKind::kPerColumn, act};
      st = tessera::try_gemm(context, tessera::Layout::kRowMajor, tessera::Transpose::kNo,
                             tessera::Transpose::kNo, kN, kN, kN, 1.0f, a.data(), kN, b.data(),
                             kN, 0.0f, c.data(), kN, ep);
    }
    if (!st.ok()) {
      std::fprintf(stderr, "bench-gemm_epilogue: %s\n", st.to_string().c_str());
      std::exit(1);
    }
  };
  struct Variant {
    const char* name;
    std::function<void()> run;
    std::vector<double> seconds;
  };
  std::vector<Variant> variants = {
      {"plain", [&] { gemm(tessera::Activation::kNone, false); }, {}},
      {"fused bias+relu", [&] { gemm(tessera::Activation::kRelu, true); }, {}},
      {"two-pass bias+relu",
       [&] {
         gemm(tessera::Activation::kNone, false);
         for (std::int64_t i = 0; i < kN; ++i) {
           float* row = c.data() + i * kN;
           for (std::int64_t j = 0; j < kN; ++j) {
             const float x = row[j] + bias[j];
             row[j] = x < 0.0f ? 0.0f : x;
           }
         }
       },
       {}},
      {"fused bias+gelu", [&] { gemm(tessera::Activation::kGelu, true); }, {}},
      {"fused bias+sigmoid", [&] { gemm(tessera::Activation::kSigmoid, true); }, {}},
  };
  for (Variant& v : variants) v.run();  // warm-up
  const std::size_t count = variants.size();
  for (int r = 0; r < reps; ++r) {
    for (std::size_t x = 0; x < count; ++x) {
      Variant& v = variants[(x + static_cast<std::size_t>(r)) % count];
      const auto t0 = std::chrono::steady_clock::now();
      v.run();
      v.seconds.push_back(
          std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
  }
  std::printf("sgemm %lld^3, row-major, 1 thread, %s, %d interleaved reps\n",
              static_cast<long long>(kN), tessera::isa_name(context.isa()), reps);
  std::printf("%-20s %10s %22s %8s %9s %8s\n", "variant", "median ms", "min..max ms", "spread",
              "GFLOP/s", "/ plain");
  const double flops = 2.0 * kN * kN * kN;
  const double plain = summarize(variants[0].seconds).median;
  for (const Variant& v : variants) {
    const Summary s = summarize(v.seconds);
    char range[64];
    std::snprintf(range, sizeof range, "%.2f..%.2f", s.min * 1e3, s.max * 1e3);
    std::printf("%-20s %10.2f %22s %7.1f%% %9.1f %8.3f\n", v.name, s.median * 1e3, range,
                s.spread * 100.0, flops / s.median / 1e9, s.median / plain);
  }
  return 0;
}
