// The main demo: what tessera sees on this machine, then the elementwise
// kernels on 10^7 elements at every ISA level the machine supports, each
// checked against the naive family, with throughput per level.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <vector>

#include "tessera/tessera.hpp"

namespace {

using Clock = std::chrono::steady_clock;

template <class F>
double best_seconds(int reps, F&& f) {
  double best = 1e30;
  for (int r = 0; r < reps; ++r) {
    const auto t0 = Clock::now();
    f();
    best = std::min(best, std::chrono::duration<double>(Clock::now() - t0).count());
  }
  return best;
}

bool same_bits(const std::vector<float>& x, const std::vector<float>& y) {
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (std::isnan(x[i]) && std::isnan(y[i])) continue;
    if (std::memcmp(&x[i], &y[i], sizeof(float)) != 0) return false;
  }
  return true;
}

int fail(const tessera::Status& status) {
  std::fprintf(stderr, "demo: %s\n", status.to_string().c_str());
  return 1;
}


// GEMM sweep: square products on the default context (automatic worker
// count), each size's plan in one line, its GFLOP/s (best of a few runs)
// and a check against the naive family: every element within the rounding
// bound 2 (k + 4) eps sum_p |a_ip b_pj| (up to 64 sampled rows of C for the
// largest sizes, where the naive triple loop would dominate the demo).
template <class T>
int gemm_sweep_dtype(const tessera::Context& context, const tessera::Context& naive,
                     const std::vector<int>& sizes) {
  using namespace tessera;
  int failures = 0;
  for (int n : sizes) {
    std::vector<T> a(static_cast<std::size_t>(n) * n), b(a.size()), c(a.size());
    for (std::size_t i = 0; i < a.size(); ++i) {
      a[i] = static_cast<T>(static_cast<int>((i * 37) % 2001) - 1000) / T(1000);
      b[i] = static_cast<T>(static_cast<int>((i * 101) % 1999) - 999) / T(999);
    }
    GemmPlan plan;
    const Dtype dtype = sizeof(T) == 4 ? Dtype::kF32 : Dtype::kF64;
    if (Status s = try_plan_gemm(context, dtype, Layout::kRowMajor, n, n, n, {}, &plan); !s.ok()) {
      return fail(s);
    }
    Status status;
    const int reps = n <= 256 ? 20 : 3;
    const double seconds = best_seconds(reps, [&] {
      status = try_gemm(context, Layout::kRowMajor, Transpose::kNo, Transpose::kNo, n, n, n, T(1),
                        a.data(), n, b.data(), n, T(0), c.data(), n);
    });
    if (!status.ok()) return fail(status);
    // Naive reference on all rows, or on 64 rows spread over C.
    const int rows = n <= 512 ? n : 64;
    const int row_step = n / rows;
    std::int64_t bad = 0;
    std::vector<T> ref(static_cast<std::size_t>(n));
    const double eps = std::numeric_limits<T>::epsilon();
    for (int r = 0; r < rows; ++r) {
      const int i = r * row_step;
      if (Status s = try_gemm(naive, Layout::kRowMajor, Transpose::kNo, Transpose::kNo, 1, n, n,
                              T(1), a.data() + static_cast<std::size_t>(i) * n, n, b.data(), n,
                              T(0), ref.data(), n);
          !s.ok()) {
        return fail(s);
      }
      for (int j = 0; j < n; ++j) {
        double magnitude = 0;
        for (int p = 0; p < n; ++p) {
          magnitude += std::fabs(static_cast<double>(a[static_cast<std::size_t>(i) * n + p]) *
                                 static_cast<double>(b[static_cast<std::size_t>(p) * n + j]));
        }
        const double err = std::fabs(static_cast<double>(c[static_cast<std::size_t>(i) * n + j]) -
                                     static_cast<double>(ref[j]));
        if (!(err <= 2.0 * (n + 4) * eps * magnitude)) ++bad;
      }
    }
    failures += bad != 0;
    char path[96];
    if (plan.direct) {
      std::snprintf(path, sizeof path, "direct %dx%d, kc %lld", plan.mr, plan.nr,
                    static_cast<long long>(plan.kc));
    } else {
      std::snprintf(path, sizeof path, "packed %dx%d, mc %lld nc %lld kc %lld", plan.mr, plan.nr,
                    static_cast<long long>(plan.mc), static_cast<long long>(plan.nc),
                    static_cast<long long>(plan.kc));
    }
    std::printf("  %-3s %5d  %-7s %d worker%s (%s)  %-38s %8.1f  %s\n", dtype_name(dtype), n,
                isa_name(plan.isa), plan.workers, plan.workers == 1 ? " " : "s",
                plan.worker_rule.c_str(), path, 2.0 * n * n * n / seconds / 1e9,
                bad == 0 ? (rows == n ? "ok" : "ok (64 rows)") : "MISMATCH");
  }
  return failures;
}

int gemm_sweep(const tessera::Context& context, const tessera::Context& naive) {
  std::printf("\ngemm sweep, C = A B square, default context (automatic worker count), "
              "checked against the naive family:\n");
  std::printf("  %-3s %5s  %-7s %-30s %-38s %8s  %s\n", "dt", "n", "isa", "workers (rule)",
              "path / blocking", "GFLOP/s", "check");
  int failures = gemm_sweep_dtype<float>(context, naive, {32, 64, 128, 256, 512, 1024});
  failures += gemm_sweep_dtype<double>(context, naive, {64, 256, 1024});
  if (failures != 0) {
    std::printf("\n%d gemm sizes outside the rounding bound of the naive family\n", failures);
    return 1;
  }
  std::printf("\nevery gemm size matches the naive family within the rounding bound\n");
  return 0;
}

}  // namespace

int main() {
  using namespace tessera;
  const Context context;
  if (!context.status().ok()) return fail(context.status());

  const platform::CpuFeatures& cpu = platform::cpu_features();
  std::printf("tessera %s on %s (%s)\n", TESSERA_VERSION_STRING,
              TESSERA_TARGET_NAME, cpu.brand.empty() ? "cpu" : cpu.brand.c_str());
  std::printf("cpu features:%s%s%s%s%s%s%s\n", cpu.sse2 ? " sse2" : "",
              cpu.avx2 ? " avx2" : "", cpu.fma ? " fma" : "",
              cpu.avx512f ? " avx512f" : "", cpu.avx512bw ? " avx512bw" : "",
              cpu.neon ? " neon" : "", cpu.simd128 ? " simd128" : "");
  std::printf("selected isa: %s\n", isa_name(context.isa()));
  std::printf("inventory:\n");
  for (const KernelRecord& r : kernel_inventory(context)) {
    std::printf("  %-5s %-4s %-9s %-7s%s\n", r.op.c_str(), r.dtype.c_str(),
                kernel_family_name(r.family), isa_name(r.isa),
                r.selected ? "  <- selected" : (r.runnable ? "" : "  (not runnable here)"));
  }

  constexpr std::size_t kN = 10'000'000;
  std::vector<float> a(kN), b(kN), expected(kN), y(kN);
  for (std::size_t i = 0; i < kN; ++i) {
    a[i] = static_cast<float>(static_cast<int>(i % 2001) - 1000) * 0.001f;
    b[i] = static_cast<float>(static_cast<int>((i * 7) % 1999) - 999) * 0.002f;
  }
  ContextOptions naive_options;
  naive_options.family = KernelFamily::kNaive;
  Context naive;
  if (Status s = Context::create(naive_options, &naive); !s.ok()) return fail(s);

  std::printf("\nelementwise f32, %zu elements (best of 5), checked against naive:\n", kN);
  std::printf("  %-8s %-5s %14s  %s\n", "isa", "op", "elements/s", "check");
  int failures = 0;
  for (Isa isa : supported_isas()) {
    ContextOptions options;
    options.isa = isa;
    Context c;
    if (Status s = Context::create(options, &c); !s.ok()) return fail(s);
    struct Op {
      const char* name;
      Status (*run)(const Context&, const std::vector<float>&,
                    const std::vector<float>&, std::vector<float>&);
    };
    const Op ops[] = {
        {"add", [](const Context& k, const std::vector<float>& p,
                   const std::vector<float>& q, std::vector<float>& r) {
           return try_add(k, p, q, r);
         }},
        {"mul", [](const Context& k, const std::vector<float>& p,
                   const std::vector<float>& q, std::vector<float>& r) {
           return try_mul(k, p, q, r);
         }},
        {"relu", [](const Context& k, const std::vector<float>& p,
                    const std::vector<float>&, std::vector<float>& r) {
           return try_relu(k, p, r);
         }},
    };
    for (const Op& op : ops) {
      if (Status s = op.run(naive, a, b, expected); !s.ok()) return fail(s);
      Status status;
      const double seconds = best_seconds(5, [&] { status = op.run(c, a, b, y); });
      if (!status.ok()) return fail(status);
      const bool ok = same_bits(expected, y);
      failures += ok ? 0 : 1;
      std::printf("  %-8s %-5s %14.3e  %s\n", isa_name(isa), op.name,
                  static_cast<double>(kN) / seconds, ok ? "ok" : "MISMATCH");
    }
  }
  if (failures != 0) {
    std::printf("\n%d mismatches against the naive family\n", failures);
    return 1;
  }
  std::printf("\nall levels match the naive family bit for bit\n");
  return gemm_sweep(context, naive);
}
