// The main demo: what tessera sees on this machine, then the elementwise
// kernels on 10^7 elements at every ISA level the machine supports, each
// checked against the naive family, with throughput per level.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
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
  return 0;
}
