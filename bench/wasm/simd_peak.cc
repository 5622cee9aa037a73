// The multiply-add peak of 128-bit wasm SIMD on this host, as the engine
// compiles it: f32x4 multiply then add (the simd128 level's mul_add) and,
// in a module built with relaxed SIMD, f32x4.relaxed_madd (the
// simd128_relaxed level's); and the integer GEMM's step of each level
// (i32x4.dot_i16x8_s + add; the relaxed i8 x i7 dot, widened and added). bench/wasm_relaxed_simd.mjs prints these next
// to the GEMM of each level, so the relaxed level's speed-up is read
// against what the hardware allows: on a CPU whose multiplies and adds
// issue to separate pipes (AMD Zen), unfused multiply-add has the fused
// peak and relaxed SIMD can only save instructions; where they share the
// FMA ports (Intel), the fused peak is twice the unfused one.
//
// The loop has the GEMM microkernel's form: twelve independent
// accumulators, each += x * y with the product off the dependency chain
// (a chain through both the multiply and the add measures latency, not
// throughput). Twelve: V8 keeps them, x, y and the temporary in the 16
// xmm registers; more spill.
#include <wasm_simd128.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {

constexpr int kAccumulators = 12;

// One timed pass of `steps` iterations; returns the lane sum so the work
// is observable. noinline: each form is one function the engine compiles.
template <class MulAdd>
__attribute__((noinline)) float run(std::int64_t steps, float seed, MulAdd mul_add) {
  v128_t acc[kAccumulators];
  for (int i = 0; i < kAccumulators; ++i) acc[i] = wasm_f32x4_splat(seed * static_cast<float>(i));
  // Two products alternate, so no two accumulators see the same operands.
  const v128_t x = wasm_f32x4_splat(seed);
  const v128_t y0 = wasm_f32x4_splat(0.999f), y1 = wasm_f32x4_splat(1.0001f);
  for (std::int64_t s = 0; s < steps; ++s) {
#pragma clang loop unroll(full)
    for (int i = 0; i < kAccumulators; ++i) acc[i] = mul_add(x, (i & 1) ? y1 : y0, acc[i]);
  }
  v128_t sum = acc[0];
  for (int i = 1; i < kAccumulators; ++i) sum = wasm_f32x4_add(sum, acc[i]);
  return wasm_f32x4_extract_lane(sum, 0);
}

// The integer GEMM's step, as run: twelve int32x4 accumulators, each +=
// dot(x, y) of the level's own form (`dot_add(x, y, acc)`). x changes on
// every step (one i8x16.add per twelve dots, not counted: the peak is
// understated by at most that), or the dot of two loop-invariant operands
// would be computed once, outside the loop (the first version of this
// measured 393 GOP/s, an add-only loop).
template <class DotAdd>
__attribute__((noinline)) float run_int(std::int64_t steps, float seed, DotAdd dot_add) {
  v128_t acc[kAccumulators];
  for (int i = 0; i < kAccumulators; ++i) acc[i] = wasm_i32x4_splat(static_cast<int>(seed) + i);
  v128_t x = wasm_i8x16_splat(static_cast<signed char>(seed * 8.0f) + 3);
  const v128_t step = wasm_i8x16_splat(1);
  const v128_t y0 = wasm_i8x16_splat(5), y1 = wasm_i8x16_splat(7);
  for (std::int64_t s = 0; s < steps; ++s) {
    x = wasm_i8x16_add(x, step);
#pragma clang loop unroll(full)
    for (int i = 0; i < kAccumulators; ++i) acc[i] = dot_add(x, (i & 1) ? y1 : y0, acc[i]);
  }
  v128_t sum = acc[0];
  for (int i = 1; i < kAccumulators; ++i) sum = wasm_i32x4_add(sum, acc[i]);
  return static_cast<float>(wasm_i32x4_extract_lane(sum, 0));
}

// G(FL)OP/s of the best of `runs` passes of ~`seconds` each of
// run_steps(steps), `ops` operations per accumulator and step (a peak is
// what the core can do; a slower pass met a neighbour or a frequency
// change).
template <class RunSteps>
double peak(RunSteps run_steps, double ops, int runs, double seconds) {
  using Clock = std::chrono::steady_clock;
  // Size a pass from a short one (which also lets the engine tier up).
  std::int64_t steps = 1 << 16;
  float sink = 0;
  for (;;) {
    const auto t0 = Clock::now();
    sink += run_steps(steps);
    const double dt = std::chrono::duration<double>(Clock::now() - t0).count();
    if (dt > seconds / 8) {
      steps = static_cast<std::int64_t>(static_cast<double>(steps) * seconds / dt);
      break;
    }
    steps *= 2;
  }
  double best = 0;
  for (int r = 0; r < runs; ++r) {
    const auto t0 = Clock::now();
    sink += run_steps(steps);
    const double dt = std::chrono::duration<double>(Clock::now() - t0).count();
    const double rate = ops * kAccumulators * static_cast<double>(steps) / dt * 1e-9;
    if (rate > best) best = rate;
  }
  if (sink == 12345.0f) std::puts("");  // keeps the sums live
  return best;
}

// f32x4 peaks: 4 lanes x 2 flops per accumulator and step.
template <class MulAdd>
double float_peak(MulAdd mul_add, int runs) {
  return peak([&](std::int64_t steps) { return run(steps, 0.5f, mul_add); }, 8.0, runs, 0.2);
}

}  // namespace

int main(int argc, char** argv) {
  int runs = 7;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--runs") == 0 && i + 1 < argc) {
      runs = std::atoi(argv[++i]);
    } else {
      std::fprintf(stderr, "usage: tessera-simd-peak [--runs N]\n");
      return 2;
    }
  }
  if (runs < 1) {
    std::fprintf(stderr, "tessera-simd-peak: --runs must be at least 1\n");
    return 2;
  }
  const double unfused = float_peak(
      [](v128_t a, v128_t b, v128_t c) { return wasm_f32x4_add(wasm_f32x4_mul(a, b), c); }, runs);
  std::printf("peak f32x4 mul+add: %.1f GFLOP/s (simd128)\n", unfused);
  // The simd128 integer GEMM's step: 8 int16 products summed in pairs into
  // 4 int32 lanes, then added (16 ops: a multiply-accumulate is two).
  const double pairs = peak(
      [&](std::int64_t steps) {
        return run_int(steps, 0.5f, [](v128_t a, v128_t b, v128_t c) {
          return wasm_i32x4_add(c, wasm_i32x4_dot_i16x8(a, b));
        });
      },
      16.0, runs, 0.2);
  std::printf("peak i32x4.dot_i16x8_s+add: %.1f GOP/s (simd128)\n", pairs);
#ifdef __wasm_relaxed_simd__
  const double fused = float_peak(
      [](v128_t a, v128_t b, v128_t c) { return wasm_f32x4_relaxed_madd(a, b, c); }, runs);
  std::printf("peak f32x4 relaxed_madd: %.1f GFLOP/s (simd128_relaxed)\n", fused);
  // The relaxed level's step: 16 i8 x i7 products, summed in pairs to
  // int16, widened in pairs to int32 and added (32 ops). Its exact integer
  // GEMM runs two per 16 products (A's 7-bit planes), so its GEMM can reach
  // half of this.
  const double relaxed_dot = peak(
      [&](std::int64_t steps) {
        return run_int(steps, 0.5f, [](v128_t a, v128_t b, v128_t c) {
          return wasm_i32x4_add(
              c, wasm_i32x4_extadd_pairwise_i16x8(wasm_i16x8_relaxed_dot_i8x16_i7x16(a, b)));
        });
      },
      32.0, runs, 0.2);
  std::printf("peak i16x8.relaxed_dot_i8x16_i7x16_s+extadd+add: %.1f GOP/s (simd128_relaxed)\n",
              relaxed_dot);
#endif
  return 0;
}
