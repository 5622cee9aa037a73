// bench-qgemm: tessera's u8 x s8 integer GEMM (int32 output) against
// oneDNN's (dnnl_gemm_u8s8s32), tessera's own sgemm on the same shapes and
// the int8 multiply-accumulate peak measured here, side by side in one
// process.
//
//   bench-qgemm [--quick] [--threads 1,2] [--rounds R]
//
// Shapes: square 64, 256, 1024, 2048, and a transformer's linear layers
// with the weights (B) prepacked: 1 x 4096 x 4096 (one token: 16 MiB of
// int8 weights, bandwidth-bound) and 128 x 4096 x 4096. On the prepacked
// rows tessera's sgemm runs on its own prepacked B too, and the one-token
// row also prints tessera's sgemv over the same product (the weights as a
// linear layer stores them, n x k, no transpose) and the weights'
// read rate against the machine's read bandwidth over the same bytes
// (bench/read_bandwidth.hpp, as bench-gemv). oneDNN's gemm has no prepacked
// form: it packs B in every call, which the prepacked rows say.
//
// The operands are per-tensor: A u8 with a zero point of 128, B s8 with
// zero point 0 (symmetric weights), the form both libraries take. Op counts
// are 2 m n k for every library (a multiply-accumulate is two ops).
//
// The int8 peak: register-only chains of the dot instruction of each level
// the host has (AMX's tdpbusd: 16 x 16 x 64 multiply-accumulates on tiles;
// vpdpbusd zmm: 64; the widening levels' vpmaddwd: 16 per ymm, 32 per
// zmm), the best of 15 short runs; "%peak" is
// tessera's rate over the selected level's peak times the thread count.
//
// Fairness: oneDNN dispatches its JIT kernels itself (its ISA is printed);
// the libraries take turns in rounds (tessera::bench::alternate), each
// after the others' worker threads went quiet; a figure is the median of
// round medians with their range. TESSERA_ISA bounds tessera's level (e.g.
// TESSERA_ISA=avx2 for the widening AVX2 kernels against AVX2's sgemm).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "bench_support.hpp"
#include "fma_peak.hpp"
#include "peer_onednn.hpp"
#include "read_bandwidth.hpp"
#include "tessera/tessera.hpp"

#if defined(__x86_64__) || defined(_M_X64)
#include <immintrin.h>
#endif

namespace {

using Clock = std::chrono::steady_clock;
using tessera::bench::Library;
using tessera::bench::Summary;

// ---- the int8 multiply-accumulate peak -------------------------------------
// Independent accumulator chains of one dot instruction on register
// operands: 12 chains, enough for its latency on two pipes.

#if defined(__x86_64__) || defined(_M_X64)
// Uses lane 0 of each of the 12 chains, so that none is optimized away;
// through memory (GCC 12's reduce_add intrinsic warns on its own undefined
// lanes).
__attribute__((target("avx512f"))) void keep_chains(const __m512i* acc) {
  alignas(64) int lanes[16];
  int sink = 0;
  for (int i = 0; i < 12; ++i) {
    _mm512_store_si512(lanes, acc[i]);
    sink += lanes[0];
  }
  if (sink == 12345) std::puts("");
}

__attribute__((target("avx512f,avx512bw,avx512vnni"))) double peak_vpdpbusd_zmm() {
  const long iters = 2'000'000;
  __m512i acc[12];
  for (int i = 0; i < 12; ++i) acc[i] = _mm512_set1_epi32(i);
  const __m512i x = _mm512_set1_epi8(3), y = _mm512_set1_epi8(-5);
  const auto t0 = Clock::now();
  for (long it = 0; it < iters; ++it) {
    for (int i = 0; i < 12; ++i) acc[i] = _mm512_dpbusd_epi32(acc[i], x, y);
  }
  const double s = std::chrono::duration<double>(Clock::now() - t0).count();
  keep_chains(acc);
  return static_cast<double>(iters) * 12 * 64 * 2 / s / 1e9;
}

// tdpbusd, the amx level's: 16 x 16 x 64 multiply-accumulates per
// instruction on four independent sum tiles (two A and two B tiles, the
// kernel's own 2 x 2 pattern, core/src/simd/amx_int8.hpp), operands in
// tiles. Only called where the registry found the amx level, that is where
// this process has the tile permission (cpu_features_x86.cc).
struct alignas(64) AmxConfig {
  unsigned char palette = 1, start_row = 0, reserved[14] = {};
  unsigned short colsb[16] = {64, 64, 64, 64, 64, 64, 64, 64};
  unsigned char rows[16] = {16, 16, 16, 16, 16, 16, 16, 16};
};
__attribute__((target("amx-tile,amx-int8"))) double peak_tdpbusd() {
  const long iters = 200'000;
  static const AmxConfig config;
  alignas(64) static unsigned char operand[1024];
  alignas(64) static int sums[4][256];
  for (int i = 0; i < 1024; ++i) operand[i] = static_cast<unsigned char>(i * 7);
  _tile_loadconfig(&config);
  asm volatile("" ::: "memory");  // the operand bytes, written above, before the loads
  _tile_zero(0);
  _tile_zero(1);
  _tile_zero(2);
  _tile_zero(3);
  _tile_loadd(4, operand, 64);
  _tile_loadd(5, operand, 64);
  _tile_loadd(6, operand, 64);
  _tile_loadd(7, operand, 64);
  const auto t0 = Clock::now();
  for (long it = 0; it < iters; ++it) {
    _tile_dpbusd(0, 4, 6);
    _tile_dpbusd(1, 4, 7);
    _tile_dpbusd(2, 5, 6);
    _tile_dpbusd(3, 5, 7);
  }
  _tile_stored(0, sums[0], 64);
  _tile_stored(1, sums[1], 64);
  _tile_stored(2, sums[2], 64);
  _tile_stored(3, sums[3], 64);
  asm volatile("" ::: "memory");
  const double s = std::chrono::duration<double>(Clock::now() - t0).count();
  _tile_release();
  if (sums[0][0] + sums[1][0] + sums[2][0] + sums[3][0] == 12345) std::puts("");
  return static_cast<double>(iters) * 4 * 16 * 16 * 64 * 2 / s / 1e9;
}

// vpmaddwd + vpaddd: the widening levels' exact dot step (16-bit pairs
// into 32-bit sums), 16 multiply-accumulates per ymm, 32 per zmm.
// One multiplied register is made opaque to the compiler on every
// iteration (an empty asm that "changes" it), so the products are not
// hoisted out of the loop, and no chain waits on a product: each chain is
// one vpaddd deep. (Feeding the chain's own value to vpmaddwd, as this
// bench first did, made it latency-bound: the avx2 kernels then ran at
// 131% of that "peak".)
__attribute__((target("avx512f,avx512bw"))) double peak_vpmaddwd_zmm() {
  const long iters = 2'000'000;
  __m512i acc[12];
  __m512i x[12];
  for (int i = 0; i < 12; ++i) acc[i] = _mm512_set1_epi32(i);
  for (int i = 0; i < 12; ++i) x[i] = _mm512_set1_epi16(static_cast<short>(3 + i));
  __m512i y = _mm512_set1_epi16(-5);
  const auto t0 = Clock::now();
  for (long it = 0; it < iters; ++it) {
    asm volatile("" : "+v"(y));
    for (int i = 0; i < 12; ++i) acc[i] = _mm512_add_epi32(acc[i], _mm512_madd_epi16(x[i], y));
  }
  const double s = std::chrono::duration<double>(Clock::now() - t0).count();
  keep_chains(acc);
  return static_cast<double>(iters) * 12 * 32 * 2 / s / 1e9;
}

// Six chains, each with its own opaque input: 13 of the 16 ymm registers
// (vpaddd's one-cycle latency needs no more chains).
__attribute__((target("avx2"))) double peak_vpmaddwd_ymm() {
  const long iters = 4'000'000;
  __m256i acc[6];
  __m256i x[6];
  for (int i = 0; i < 6; ++i) acc[i] = _mm256_set1_epi32(i);
  for (int i = 0; i < 6; ++i) x[i] = _mm256_set1_epi16(static_cast<short>(3 + i));
  __m256i y = _mm256_set1_epi16(-5);
  const auto t0 = Clock::now();
  for (long it = 0; it < iters; ++it) {
    asm volatile("" : "+x"(y));
    for (int i = 0; i < 6; ++i) acc[i] = _mm256_add_epi32(acc[i], _mm256_madd_epi16(x[i], y));
  }
  const double s = std::chrono::duration<double>(Clock::now() - t0).count();
  alignas(32) int lanes[8];
  int sink = 0;
  for (int i = 0; i < 6; ++i) {
    _mm256_store_si256(reinterpret_cast<__m256i*>(lanes), acc[i]);
    sink += lanes[0];
  }
  if (sink == 12345) std::puts("");
  return static_cast<double>(iters) * 6 * 16 * 2 / s / 1e9;
}
#endif

struct Peak {
  tessera::Isa isa;
  const char* instruction;
  double gops = 0;  // one core
};

std::vector<Peak> measure_peaks() {
  std::vector<Peak> peaks;
#if defined(__x86_64__) || defined(_M_X64)
  const auto isas = tessera::supported_isas();
  auto has = [&](tessera::Isa isa) {
    return std::find(isas.begin(), isas.end(), isa) != isas.end();
  };
  // Best of 15: the peak is what the core can do, not what a busy machine
  // let it do once.
  auto best = [](double (*fn)()) {
    double b = 0;
    for (int i = 0; i < 15; ++i) b = std::max(b, fn());
    return b;
  };
  if (has(tessera::Isa::kAmx)) {
    peaks.push_back({tessera::Isa::kAmx, "tdpbusd (AMX)", best(peak_tdpbusd)});
  }
  if (has(tessera::Isa::kAvx512Vnni)) {
    peaks.push_back({tessera::Isa::kAvx512Vnni, "vpdpbusd zmm", best(peak_vpdpbusd_zmm)});
  }
  if (has(tessera::Isa::kAvx512)) {
    peaks.push_back({tessera::Isa::kAvx512, "vpmaddwd+vpaddd zmm", best(peak_vpmaddwd_zmm)});
  }
  if (has(tessera::Isa::kAvx2)) {
    peaks.push_back({tessera::Isa::kAvx2, "vpmaddwd+vpaddd ymm", best(peak_vpmaddwd_ymm)});
  }
#endif
  return peaks;
}

// The FMA peak's level (fma_peak.hpp) of the f32 kernels `isa` runs:
// avx2_vnni runs avx2's, avx512_vnni and amx avx512's.
std::string sgemm_level(tessera::Isa isa) {
  const std::string name = tessera::isa_name(isa);
  if (name.rfind("avx512", 0) == 0 || name == "amx") return "avx512";
  if (name.rfind("avx2", 0) == 0) return "avx2";
  return "";
}

// ---- problems ---------------------------------------------------------------

struct Shape {
  int m, n, k;
  bool prepacked;  // B (the weights) packed once, outside the timing
};

std::vector<Shape> shapes(bool quick) {
  std::vector<Shape> s;
  for (int n : quick ? std::vector<int>{64, 256, 1024} : std::vector<int>{64, 256, 1024, 2048}) {
    s.push_back({n, n, n, false});
  }
  s.push_back({1, 4096, 4096, true});
  s.push_back({128, 4096, 4096, true});
  return s;
}

// Deterministic bytes.
void fill_bytes(void* data, std::size_t n, std::uint64_t seed) {
  auto* p = static_cast<unsigned char*>(data);
  std::uint64_t x = seed * 0x9E3779B97F4A7C15ull + 1;
  for (std::size_t i = 0; i < n; ++i) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    p[i] = static_cast<unsigned char>(x >> 56);
  }
}

struct Operands {
  std::vector<std::uint8_t> a;
  std::vector<std::int8_t> b;
  std::vector<std::int32_t> c;
  std::vector<float> af, bf, cf;  // the same values as floats (sgemm)
  explicit Operands(const Shape& s)
      : a(static_cast<std::size_t>(s.m) * s.k),
        b(static_cast<std::size_t>(s.k) * s.n),
        c(static_cast<std::size_t>(s.m) * s.n),
        af(a.size()),
        bf(b.size()),
        cf(c.size()) {
    fill_bytes(a.data(), a.size(), 1);
    fill_bytes(b.data(), b.size(), 2);
    for (std::size_t i = 0; i < a.size(); ++i) af[i] = static_cast<float>(a[i]) - 128.0f;
    for (std::size_t i = 0; i < b.size(); ++i) bf[i] = static_cast<float>(b[i]);
  }
};

constexpr std::uint8_t kAZero = 128;

struct Row {
  Shape shape;
  int threads;
  std::vector<std::string> names;
  std::vector<Summary> gops;
  std::string plan;
  double weights_gbs = 0;          // one-token row: B's bytes / tessera's time
  tessera::bench::Bandwidth read;  // over the call's bytes (one-token row)
};

const Summary* find(const Row& r, const std::string& name) {
  for (std::size_t i = 0; i < r.names.size(); ++i) {
    if (r.names[i] == name) return &r.gops[i];
  }
  return nullptr;
}

bool report(const tessera::Status& st) {
  if (!st.ok()) std::fprintf(stderr, "bench-qgemm: tessera: %s\n", st.to_string().c_str());
  return st.ok();
}

Row measure(const Shape& s, int threads, int rounds, int per_round) {
  Operands o(s);
  const tessera::Context context;
  const tessera::Parallelism par =
      threads == 1 ? tessera::Parallelism::serial() : tessera::Parallelism::threads(threads);
  const tessera::IntMatrix a{tessera::IntType::kU8, o.a.data(), s.k, tessera::Transpose::kNo};
  const tessera::IntMatrix b{tessera::IntType::kS8, o.b.data(), s.n, tessera::Transpose::kNo};
  const tessera::QuantParams qa = tessera::QuantParams::per_tensor(kAZero);
  const tessera::QuantParams qb = tessera::QuantParams::per_tensor(0);
  tessera::PackedIntRhs packed;
  tessera::PackedRhs packed_f32;
  if (s.prepacked) {
    if (!report(tessera::try_prepack_integer_rhs(context, tessera::Layout::kRowMajor, s.k, s.n, b,
                                                 &packed)) ||
        !report(tessera::try_prepack_rhs(context, tessera::Layout::kRowMajor,
                                         tessera::Transpose::kNo, s.k, s.n, o.bf.data(), s.n,
                                         &packed_f32))) {
      std::exit(1);
    }
  }
  std::vector<Library> libs;
  libs.push_back({"tessera", [&] {
                    return report(
                        s.prepacked
                            ? tessera::try_gemm_integer(context, tessera::Layout::kRowMajor, s.m,
                                                        s.n, s.k, a, qa, packed, qb, 0,
                                                        o.c.data(), s.n, par)
                            : tessera::try_gemm_integer(context, tessera::Layout::kRowMajor, s.m,
                                                        s.n, s.k, a, qa, b, qb, 0, o.c.data(),
                                                        s.n, par));
                  }});
  if (tessera::bench::onednn_peer::available()) {
    libs.push_back({"oneDNN", [&] {
                      return tessera::bench::onednn_peer::gemm_u8s8s32(
                          o.a.data(), kAZero, o.b.data(), o.c.data(), s.m, s.n, s.k, threads);
                    }});
  }
  libs.push_back({"sgemm", [&] {
                    return report(
                        s.prepacked
                            ? tessera::try_gemm(context, tessera::Layout::kRowMajor,
                                                tessera::Transpose::kNo, s.m, 1.0f, o.af.data(),
                                                s.k, packed_f32, 0.0f, o.cf.data(), s.n, par)
                            : tessera::try_gemm(context, tessera::Layout::kRowMajor,
                                                tessera::Transpose::kNo, tessera::Transpose::kNo,
                                                s.m, s.n, s.k, 1.0f, o.af.data(), s.k,
                                                o.bf.data(), s.n, 0.0f, o.cf.data(), s.n, par));
                  }});
  std::vector<float> weights_nk;  // B^T, n x k: the layout a linear layer's gemv reads
  if (s.m == 1) {
    weights_nk.resize(o.bf.size());
    for (int p = 0; p < s.k; ++p) {
      for (int j = 0; j < s.n; ++j) {
        weights_nk[static_cast<std::size_t>(j) * s.k + p] = o.bf[static_cast<std::size_t>(p) * s.n + j];
      }
    }
    // y = W x with W n x k row-major: the gemv's fast (no-transpose) form.
    libs.push_back({"sgemv", [&] {
                      return report(tessera::try_gemv(
                          context, tessera::Layout::kRowMajor, tessera::Transpose::kNo, s.n, s.k,
                          1.0f, weights_nk.data(), s.k, o.af.data(), 1, 0.0f, o.cf.data(), 1, par));
                    }});
  }
  const double ops = 2.0 * s.m * s.n * s.k;
  // >= ~2 ms of work per timing at 300 GOP/s a thread; the one-token row at
  // ~20 GB/s.
  const double seconds_per_call =
      s.m == 1 ? static_cast<double>(s.n) * s.k / 20e9 : ops / (300e9 * threads);
  const int inner = static_cast<int>(2e-3 / seconds_per_call);
  Row r{s, threads, {}, tessera::bench::alternate(libs, ops, inner, rounds, per_round, "bench-qgemm"),
        {}, 0, {}};
  for (const Library& l : libs) r.names.push_back(l.name);
  tessera::IntGemmPlan plan;
  if (tessera::try_plan_gemm_integer(context, s.m, s.n, s.k, par, &plan).ok()) {
    r.plan = std::to_string(plan.workers) + "w " + std::to_string(plan.mr) + "x" +
             std::to_string(plan.nr);
  }
  if (s.m == 1) {
    // The weights dominate the call's bytes (B: k n; A and C: k + 4 n).
    const double bytes = static_cast<double>(s.k) * s.n + s.k + 4.0 * s.n;
    r.weights_gbs = r.gops[0].median * 1e9 / ops * bytes / 1e9;
    r.read = tessera::bench::read_bandwidth(static_cast<std::size_t>(bytes), threads, 5);
  }
  return r;
}

void print_row(const Row& r, double peak) {
  char shape[48];
  std::snprintf(shape, sizeof shape, "%dx%dx%d%s", r.shape.m, r.shape.n, r.shape.k,
                r.shape.prepacked ? " packed" : "");
  const Summary& t = r.gops[0];
  std::printf("%-20s %2d  %7.1f (%6.1f..%6.1f)", shape, r.threads, t.median, t.min, t.max);
  const Summary* dnnl = find(r, "oneDNN");
  if (dnnl != nullptr) {
    std::printf("  %7.1f (%6.1f..%6.1f)  %5.2fx", dnnl->median, dnnl->min, dnnl->max,
                t.median / dnnl->median);
  } else {
    std::printf("  %24s  %6s", "-", "-");
  }
  const Summary* f32 = find(r, "sgemm");
  std::printf("  %7.1f  %5.2fx", f32->median, t.median / f32->median);
  std::printf("  %5.1f%%", peak > 0 ? 100.0 * t.median / (peak * r.threads) : 0.0);
  std::printf("  %-9s", r.plan.c_str());
  if (r.shape.m == 1) {
    const Summary* gemv = find(r, "sgemv");
    std::printf("  sgemv %.1f GOP/s (%.2fx); weights %.1f GB/s of read %.1f GB/s (%d str): %.1f%%",
                gemv->median, t.median / gemv->median, r.weights_gbs, r.read.gbs.median,
                r.read.streams, 100.0 * r.weights_gbs / r.read.gbs.median);
  }
  std::printf("\n");
}

}  // namespace

int main(int argc, char** argv) {
  bool quick = false;
  int rounds = 5;
  std::vector<int> thread_counts = {1, 2};
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--quick") {
      quick = true;
      rounds = 3;
    } else if (arg == "--threads" && i + 1 < argc) {
      thread_counts = tessera::bench::parse_count_list(argv[++i]);
      if (thread_counts.empty()) {
        std::fprintf(stderr, "bench-qgemm: --threads needs a list like 1,2\n");
        return 2;
      }
    } else if (arg == "--rounds" && i + 1 < argc) {
      rounds = std::atoi(argv[++i]);
      if (rounds < 1 || rounds > 100) {
        std::fprintf(stderr, "bench-qgemm: --rounds must be 1..100\n");
        return 2;
      }
    } else {
      std::fprintf(stderr, "usage: bench-qgemm [--quick] [--threads 1,2] [--rounds R]\n");
      return 2;
    }
  }
  const tessera::Context context;
  std::printf("%s\n", tessera::bench::onednn_peer::describe().c_str());
  std::printf("tessera ISA: %s\n", tessera::isa_name(context.isa()));
  const std::vector<Peak> peaks = measure_peaks();
  double peak = 0;
  for (const Peak& p : peaks) {
    std::printf("int8 peak, one core, %-20s %7.1f GOP/s (%s)\n", p.instruction, p.gops,
                tessera::isa_name(p.isa));
    if (p.isa == context.isa()) peak = p.gops;
  }
  if (peak == 0) std::printf("int8 peak: not measured for %s (no %%peak)\n",
                             tessera::isa_name(context.isa()));
  // The f32 FMA peak of the level the sgemm column runs on: /sgemm can
  // exceed the ratio of the two peaks only where sgemm runs further below
  // its own peak than the integer GEMM does below its own.
  const std::string fma_level = sgemm_level(context.isa());
  for (const tessera::bench::FmaPeak& p : tessera::bench::measure_fma_peaks()) {
    if (p.isa != fma_level) continue;
    std::printf("f32 FMA peak, one core, %-18s %7.1f GFLOP/s: the int8 peak is %.2fx it\n",
                p.isa.c_str(), p.f32, peak > 0 ? peak / p.f32 : 0.0);
  }
  std::printf("u8 x s8 -> s32, row-major, per-tensor zero points; GOP/s = 2mnk / s; "
              "median (min..max) of %d round medians\n",
              rounds);
  std::printf("%-20s %2s  %24s  %24s  %6s  %7s  %6s  %6s  %-9s\n", "shape", "th",
              "tessera GOP/s (min..max)", "oneDNN", "/dnnl", "sgemm", "/sgemm", "%peak", "plan");
  for (int threads : thread_counts) {
    for (const Shape& s : shapes(quick)) {
      print_row(measure(s, threads, rounds, 5), peak);
      std::fflush(stdout);
    }
  }
  return 0;
}
