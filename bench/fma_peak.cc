#include "fma_peak.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>

#include "tessera/tessera.hpp"

#if defined(__x86_64__) || defined(_M_X64)
#include <immintrin.h>
#endif

namespace tessera::bench {
namespace {

using Clock = std::chrono::steady_clock;

// ---- FMA peak: independent register-only FMA chains ----------------------
// 16 chains of zmm, 12 of ymm (16 would spill with the two operands in the
// 16 ymm registers): enough for two FMA pipes of latency 4-5 either way.

#if defined(__x86_64__) || defined(_M_X64)
__attribute__((target("avx512f"))) double peak_avx512(bool f64) {
  const long iters = 2'000'000;
  const auto t0 = Clock::now();
  double sink = 0;
  if (!f64) {
    __m512 acc[16];
    for (int i = 0; i < 16; ++i) acc[i] = _mm512_set1_ps(0.001f * i);
    const __m512 x = _mm512_set1_ps(0.9999f), y = _mm512_set1_ps(1e-6f);
    for (long it = 0; it < iters; ++it) {
      for (int i = 0; i < 16; ++i) acc[i] = _mm512_fmadd_ps(acc[i], x, y);
    }
    float out[16];
    for (int i = 0; i < 16; ++i) {
      _mm512_storeu_ps(out, acc[i]);
      sink += out[0];
    }
  } else {
    __m512d acc[16];
    for (int i = 0; i < 16; ++i) acc[i] = _mm512_set1_pd(0.001 * i);
    const __m512d x = _mm512_set1_pd(0.9999), y = _mm512_set1_pd(1e-6);
    for (long it = 0; it < iters; ++it) {
      for (int i = 0; i < 16; ++i) acc[i] = _mm512_fmadd_pd(acc[i], x, y);
    }
    double out[8];
    for (int i = 0; i < 16; ++i) {
      _mm512_storeu_pd(out, acc[i]);
      sink += out[0];
    }
  }
  const double s = std::chrono::duration<double>(Clock::now() - t0).count();
  if (sink == 12345.678) std::puts("");
  return static_cast<double>(iters) * 16 * (f64 ? 8 : 16) * 2 / s / 1e9;
}

__attribute__((target("avx2,fma"))) double peak_avx2(bool f64) {
  const long iters = 2'000'000;
  const auto t0 = Clock::now();
  double sink = 0;
  if (!f64) {
    __m256 acc[12];
    for (int i = 0; i < 12; ++i) acc[i] = _mm256_set1_ps(0.001f * i);
    const __m256 x = _mm256_set1_ps(0.9999f), y = _mm256_set1_ps(1e-6f);
    for (long it = 0; it < iters; ++it) {
      for (int i = 0; i < 12; ++i) acc[i] = _mm256_fmadd_ps(acc[i], x, y);
    }
    float out[8];
    for (int i = 0; i < 12; ++i) {
      _mm256_storeu_ps(out, acc[i]);
      sink += out[0];
    }
  } else {
    __m256d acc[12];
    for (int i = 0; i < 12; ++i) acc[i] = _mm256_set1_pd(0.001 * i);
    const __m256d x = _mm256_set1_pd(0.9999), y = _mm256_set1_pd(1e-6);
    for (long it = 0; it < iters; ++it) {
      for (int i = 0; i < 12; ++i) acc[i] = _mm256_fmadd_pd(acc[i], x, y);
    }
    double out[4];
    for (int i = 0; i < 12; ++i) {
      _mm256_storeu_pd(out, acc[i]);
      sink += out[0];
    }
  }
  const double s = std::chrono::duration<double>(Clock::now() - t0).count();
  if (sink == 12345.678) std::puts("");
  return static_cast<double>(iters) * 12 * (f64 ? 4 : 8) * 2 / s / 1e9;
}
#endif

}  // namespace

std::vector<FmaPeak> measure_fma_peaks() {
  std::vector<FmaPeak> peaks;
  const auto isas = tessera::supported_isas();
  auto has = [&](tessera::Isa isa) {
    return std::find(isas.begin(), isas.end(), isa) != isas.end();
  };
#if defined(__x86_64__) || defined(_M_X64)
  // Best of 15 short runs: the peak is what the core can do, not what a
  // busy machine let it do once.
  auto best = [](double (*fn)(bool), bool f64) {
    double b = 0;
    for (int i = 0; i < 15; ++i) b = std::max(b, fn(f64));
    return b;
  };
  if (has(tessera::Isa::kAvx512))
    peaks.push_back({"avx512", best(peak_avx512, false), best(peak_avx512, true)});
  if (has(tessera::Isa::kAvx2))
    peaks.push_back({"avx2", best(peak_avx2, false), best(peak_avx2, true)});
#else
  (void)has;
#endif
  return peaks;
}

}  // namespace tessera::bench
