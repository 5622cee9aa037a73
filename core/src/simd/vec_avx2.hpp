// AVX2 + FMA vector traits (8 x f32, 4 x f64). mul_add is fused here: the
// level is defined as AVX2+FMA, and results across levels agree within a
// tolerance, not bitwise (design.md §Reproducibility).
#pragma once

#include <immintrin.h>

#include <cstdint>
#include <cstring>

#include "core/src/simd/ieee_minmax.hpp"
#include "core/src/simd/half_integer.hpp"
#include "core/src/simd/int8_packing.hpp"
#include "core/src/simd/sum_lanes_sse.hpp"
#include "core/src/simd/vec_scalar.hpp"

namespace tessera::simd::avx2 {

// kDirectUnroll: depth steps per loop iteration of the direct GEMM path's
// unit-stride A accessor (gemm_microkernel.hpp, DirectUnitA). Its 6 x
// 2-vector tile holds 12 accumulators, 2 B vectors and a broadcast in the
// 16 registers. Unrolled 4 steps, GCC 12 spilled an accumulator and the
// loop counter to the stack every iteration; clang 19 keeps them in
// registers and gains from the immediate displacements. Measured on Zen 3,
// one thread, tessera-cli gemm N N N, GFLOP/s, 4 steps vs 1:
//   GCC 12:   f32 32^3 57-70 vs 71-75, 64^3 80-85 vs 91-92, 128^3 80-83 vs
//             92-94, 256^3 90 both; f64 64^3 39-40 vs 45;
//   clang 19: f32 64^3 92-93 vs 91-92, 128^3 95 vs 92-93.
// The arithmetic per element is the same either way: the same bits.
#if defined(__clang__)
inline constexpr int kDirectUnroll = 4;
#else
inline constexpr int kDirectUnroll = 1;
#endif

// pack_lines6's last step (F32 and F64): the low 128-bit halves of the
// pairs (a, b), (c, e), (f, g) side by side as d[0..12), then their high
// halves as d[12..24).
inline void store_pair_halves(double* d, __m256d a, __m256d b, __m256d c, __m256d e,
                              __m256d f, __m256d g) {
  _mm256_storeu_pd(d, _mm256_permute2f128_pd(a, b, 0x20));
  _mm256_storeu_pd(d + 4, _mm256_permute2f128_pd(c, e, 0x20));
  _mm256_storeu_pd(d + 8, _mm256_permute2f128_pd(f, g, 0x20));
  _mm256_storeu_pd(d + 12, _mm256_permute2f128_pd(a, b, 0x31));
  _mm256_storeu_pd(d + 16, _mm256_permute2f128_pd(c, e, 0x31));
  _mm256_storeu_pd(d + 20, _mm256_permute2f128_pd(f, g, 0x31));
}

// sum_lanes4's first step: lane l + lane l + half of a 256-bit register,
// as 128 bits; the rest is sum_lanes_sse.hpp's.
inline __m128 fold_halves(__m256 r) {
  return _mm_add_ps(_mm256_castps256_ps128(r), _mm256_extractf128_ps(r, 1));
}
inline __m128d fold_halves(__m256d r) {
  return _mm_add_pd(_mm256_castpd256_pd128(r), _mm256_extractf128_pd(r, 1));
}
// max_lanes' first step: the larger of lanes l and l + half.
inline __m128 max_halves(__m256 r) {
  return _mm_max_ps(_mm256_castps256_ps128(r), _mm256_extractf128_ps(r, 1));
}
inline __m128d max_halves(__m256d r) {
  return _mm_max_pd(_mm256_castpd256_pd128(r), _mm256_extractf128_pd(r, 1));
}

struct F32 {
  using Scalar = float;
  using Reg = __m256;
  static constexpr int kLanes = 8;
  static constexpr int kDirectUnroll = avx2::kDirectUnroll;
  // out[i] = the lanes of r_i summed by halving (lane l += lane l + 4, then
  // l + 2, then l + 1): reduce_lanes' order (lane_sum.hpp), four rows
  // at once in registers.
  static void sum_lanes4(Reg r0, Reg r1, Reg r2, Reg r3, float* out) {
    sse::sum_lanes4x4(fold_halves(r0), fold_halves(r1), fold_halves(r2), fold_halves(r3), out);
  }
  static float sum_lanes(Reg r) { return sse::sum_lanes1(fold_halves(r)); }
  // The largest lane of r, which holds no NaN (reduce_body.hpp's plain_max).
  static float max_lanes(Reg r) { return sse::max_lanes1(max_halves(r)); }
  static Reg load(const float* p) { return _mm256_loadu_ps(p); }
  static void store(float* p, Reg v) { _mm256_storeu_ps(p, v); }
  static Reg set1(float x) { return _mm256_set1_ps(x); }
  static Reg broadcast(const float* p) { return _mm256_broadcast_ss(p); }
  static Reg zero() { return _mm256_setzero_ps(); }
  static Reg add(Reg a, Reg b) { return _mm256_add_ps(a, b); }
  static Reg mul(Reg a, Reg b) { return _mm256_mul_ps(a, b); }
  static Reg mul_add(Reg a, Reg b, Reg c) { return _mm256_fmadd_ps(a, b, c); }
  static Reg relu(Reg x) {
    return _mm256_andnot_ps(_mm256_cmp_ps(x, _mm256_setzero_ps(), _CMP_LT_OQ),
                            x);
  }
  static Reg sub(Reg a, Reg b) { return _mm256_sub_ps(a, b); }
  static Reg div(Reg a, Reg b) { return _mm256_div_ps(a, b); }
  static Reg sqrt(Reg x) { return _mm256_sqrt_ps(x); }
  static Reg abs(Reg x) { return _mm256_andnot_ps(_mm256_set1_ps(-0.0f), x); }
  static Reg neg(Reg x) { return _mm256_xor_ps(_mm256_set1_ps(-0.0f), x); }
  using Mask = Reg;
  static Mask lt(Reg a, Reg b) { return _mm256_cmp_ps(a, b, _CMP_LT_OQ); }
  static Mask eq(Reg a, Reg b) { return _mm256_cmp_ps(a, b, _CMP_EQ_OQ); }
  static Mask is_nan(Reg x) { return _mm256_cmp_ps(x, x, _CMP_UNORD_Q); }
  static Reg select(Mask m, Reg t, Reg f) { return _mm256_blendv_ps(f, t, m); }
  // The GEMM direct path's partial tiles (gemm_microkernel.hpp): lanes
  // [0, n) of p, the others zero and never touched (vmaskmov does not fault
  // on a masked-out lane), and the store of lanes [0, n) only.
  static Mask first_lanes(int n) {
    const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    return _mm256_castsi256_ps(_mm256_cmpgt_epi32(_mm256_set1_epi32(n), lane));
  }
  static Reg load_lanes(const float* p, Mask m) {
    return _mm256_maskload_ps(p, _mm256_castps_si256(m));
  }
  static void store_lanes(float* p, Reg v, Mask m) {
    _mm256_maskstore_ps(p, _mm256_castps_si256(m), v);
  }
  static Reg bit_or(Reg a, Reg b) { return _mm256_or_ps(a, b); }
  static Reg bit_and(Reg a, Reg b) { return _mm256_and_ps(a, b); }
  // vmath.hpp: shift each lane's bit pattern left / right (logical) by the
  // mantissa width (23), to build 2^n and to read a float's exponent field.
  static Reg shl_mant(Reg x) { return _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_castps_si256(x), 23)); }
  static Reg shr_mant(Reg x) { return _mm256_castsi256_ps(_mm256_srli_epi32(_mm256_castps_si256(x), 23)); }
  // vmath.hpp's exp: integer add of the bit patterns (scales p by 2^n when
  // b holds n << 23 and the result stays normal); every lane true?
  static Reg add_bits(Reg a, Reg b) { return _mm256_castsi256_ps(_mm256_add_epi32(_mm256_castps_si256(a), _mm256_castps_si256(b))); }
  static bool all_true(Mask m) { return _mm256_movemask_ps(m) == 0xFF; }
  // The first true lane, or -1 (argmax's scan).
  static int first_true(Mask m) {
    const int bits = _mm256_movemask_ps(m);
    return bits == 0 ? -1 : __builtin_ctz(static_cast<unsigned>(bits));
  }
  static Reg min(Reg a, Reg b) { return ieee_minimum<F32>(a, b); }
  static Reg max(Reg a, Reg b) { return ieee_maximum<F32>(a, b); }
  // The larger of a and b when neither is NaN (equal values: either one),
  // b when b is NaN. One instruction (reduce_body.hpp's plain_max).
  static Reg max_ordered(Reg a, Reg b) { return _mm256_max_ps(a, b); }
  // gemm_pack.hpp: 8 depth steps of six lines (line w at src + w*s_w,
  // contiguous along depth) written as 8 groups of six values, the packed
  // A panel of the 6-row tile from row-major A. A register transpose: 24
  // shuffles, loads and stores for 48 values, where the element loop took
  // 96 scalar moves (3.5% of an sgemm 2048, one A pack per column block).
  static void pack_lines6(const float* src, std::int64_t s_w, float* dst) {
    const __m256 r0 = _mm256_loadu_ps(src), r1 = _mm256_loadu_ps(src + s_w);
    const __m256 r2 = _mm256_loadu_ps(src + 2 * s_w), r3 = _mm256_loadu_ps(src + 3 * s_w);
    const __m256 r4 = _mm256_loadu_ps(src + 4 * s_w), r5 = _mm256_loadu_ps(src + 5 * s_w);
    // Pairs of lines, as 64-bit units: t0 = (01)[0], (01)[1] | (01)[4], (01)[5]
    // where (01)[q] is line 0 and line 1 at step q; t1 the steps 2, 3 | 6, 7.
    const __m256d t0 = _mm256_castps_pd(_mm256_unpacklo_ps(r0, r1));
    const __m256d t1 = _mm256_castps_pd(_mm256_unpackhi_ps(r0, r1));
    const __m256d t2 = _mm256_castps_pd(_mm256_unpacklo_ps(r2, r3));
    const __m256d t3 = _mm256_castps_pd(_mm256_unpackhi_ps(r2, r3));
    const __m256d t4 = _mm256_castps_pd(_mm256_unpacklo_ps(r4, r5));
    const __m256d t5 = _mm256_castps_pd(_mm256_unpackhi_ps(r4, r5));
    // The output's 128-bit halves in order, steps 0-3 in the low lanes and
    // 4-7 in the high ones: (01)(23)[0], (45)[0](01)[1], (23)(45)[1], ...
    const __m256d v0 = _mm256_unpacklo_pd(t0, t2);
    const __m256d v1 = _mm256_shuffle_pd(t4, t0, 0b1010);
    const __m256d v2 = _mm256_unpackhi_pd(t2, t4);
    const __m256d v3 = _mm256_unpacklo_pd(t1, t3);
    const __m256d v4 = _mm256_shuffle_pd(t5, t1, 0b1010);
    const __m256d v5 = _mm256_unpackhi_pd(t3, t5);
    store_pair_halves(reinterpret_cast<double*>(dst), v0, v1, v2, v3, v4, v5);
  }
  // Eight lines of eight depth steps (line i at src + i s_w, contiguous
  // along depth) as eight steps of eight values, step q at dst + q
  // dst_stride: the B panels of a column-major B (pack_panels), 24
  // shuffles for 64 values.
  static void transpose_square(const float* src, std::int64_t s_w, float* dst,
                               std::int64_t dst_stride) {
    __m256 r[8];
    for (int i = 0; i < 8; ++i) r[i] = _mm256_loadu_ps(src + i * s_w);
    for (int h = 0; h < 2; ++h) {  // lines 0-3, then 4-7
      const __m256 t0 = _mm256_unpacklo_ps(r[4 * h], r[4 * h + 1]);
      const __m256 t1 = _mm256_unpackhi_ps(r[4 * h], r[4 * h + 1]);
      const __m256 t2 = _mm256_unpacklo_ps(r[4 * h + 2], r[4 * h + 3]);
      const __m256 t3 = _mm256_unpackhi_ps(r[4 * h + 2], r[4 * h + 3]);
      // Four lines at step s in the low half, s + 4 in the high one.
      r[4 * h] = _mm256_shuffle_ps(t0, t2, 0x44);
      r[4 * h + 1] = _mm256_shuffle_ps(t0, t2, 0xEE);
      r[4 * h + 2] = _mm256_shuffle_ps(t1, t3, 0x44);
      r[4 * h + 3] = _mm256_shuffle_ps(t1, t3, 0xEE);
    }
    for (int st = 0; st < 4; ++st) {
      _mm256_storeu_ps(dst + st * dst_stride, _mm256_permute2f128_ps(r[st], r[4 + st], 0x20));
      _mm256_storeu_ps(dst + (4 + st) * dst_stride,
                       _mm256_permute2f128_ps(r[st], r[4 + st], 0x31));
    }
  }
};

struct F64 {
  using Scalar = double;
  using Reg = __m256d;
  static constexpr int kLanes = 4;
  static constexpr int kDirectUnroll = avx2::kDirectUnroll;
  // As F32::sum_lanes4: lane l += lane l + 2, then l + 1.
  static void sum_lanes4(Reg r0, Reg r1, Reg r2, Reg r3, double* out) {
    sse::sum_lanes2x2(fold_halves(r0), fold_halves(r1), out);
    sse::sum_lanes2x2(fold_halves(r2), fold_halves(r3), out + 2);
  }
  static double sum_lanes(Reg r) { return sse::sum_lanes1(fold_halves(r)); }
  static double max_lanes(Reg r) { return sse::max_lanes1(max_halves(r)); }
  static Reg load(const double* p) { return _mm256_loadu_pd(p); }
  static void store(double* p, Reg v) { _mm256_storeu_pd(p, v); }
  static Reg set1(double x) { return _mm256_set1_pd(x); }
  static Reg broadcast(const double* p) { return _mm256_broadcast_sd(p); }
  static Reg zero() { return _mm256_setzero_pd(); }
  static Reg add(Reg a, Reg b) { return _mm256_add_pd(a, b); }
  static Reg mul(Reg a, Reg b) { return _mm256_mul_pd(a, b); }
  static Reg mul_add(Reg a, Reg b, Reg c) { return _mm256_fmadd_pd(a, b, c); }
  static Reg relu(Reg x) {
    return _mm256_andnot_pd(_mm256_cmp_pd(x, _mm256_setzero_pd(), _CMP_LT_OQ),
                            x);
  }
  static Reg sub(Reg a, Reg b) { return _mm256_sub_pd(a, b); }
  static Reg div(Reg a, Reg b) { return _mm256_div_pd(a, b); }
  static Reg sqrt(Reg x) { return _mm256_sqrt_pd(x); }
  static Reg abs(Reg x) { return _mm256_andnot_pd(_mm256_set1_pd(-0.0), x); }
  static Reg neg(Reg x) { return _mm256_xor_pd(_mm256_set1_pd(-0.0), x); }
  using Mask = Reg;
  static Mask lt(Reg a, Reg b) { return _mm256_cmp_pd(a, b, _CMP_LT_OQ); }
  static Mask eq(Reg a, Reg b) { return _mm256_cmp_pd(a, b, _CMP_EQ_OQ); }
  static Mask is_nan(Reg x) { return _mm256_cmp_pd(x, x, _CMP_UNORD_Q); }
  static Reg select(Mask m, Reg t, Reg f) { return _mm256_blendv_pd(f, t, m); }
  static Mask first_lanes(int n) {  // as F32
    const __m256i lane = _mm256_setr_epi64x(0, 1, 2, 3);
    return _mm256_castsi256_pd(_mm256_cmpgt_epi64(_mm256_set1_epi64x(n), lane));
  }
  static Reg load_lanes(const double* p, Mask m) {
    return _mm256_maskload_pd(p, _mm256_castpd_si256(m));
  }
  static void store_lanes(double* p, Reg v, Mask m) {
    _mm256_maskstore_pd(p, _mm256_castpd_si256(m), v);
  }
  static Reg bit_or(Reg a, Reg b) { return _mm256_or_pd(a, b); }
  static Reg bit_and(Reg a, Reg b) { return _mm256_and_pd(a, b); }
  // vmath.hpp: bit-pattern shifts by the mantissa width (52).
  static Reg shl_mant(Reg x) { return _mm256_castsi256_pd(_mm256_slli_epi64(_mm256_castpd_si256(x), 52)); }
  static Reg shr_mant(Reg x) { return _mm256_castsi256_pd(_mm256_srli_epi64(_mm256_castpd_si256(x), 52)); }
  static Reg add_bits(Reg a, Reg b) { return _mm256_castsi256_pd(_mm256_add_epi64(_mm256_castpd_si256(a), _mm256_castpd_si256(b))); }
  static bool all_true(Mask m) { return _mm256_movemask_pd(m) == 0xF; }
  static int first_true(Mask m) {
    const int bits = _mm256_movemask_pd(m);
    return bits == 0 ? -1 : __builtin_ctz(static_cast<unsigned>(bits));
  }
  static Reg min(Reg a, Reg b) { return ieee_minimum<F64>(a, b); }
  static Reg max(Reg a, Reg b) { return ieee_maximum<F64>(a, b); }
  // The larger of a and b when neither is NaN (equal values: either one),
  // b when b is NaN. One instruction (reduce_body.hpp's plain_max).
  static Reg max_ordered(Reg a, Reg b) { return _mm256_max_pd(a, b); }
  // As F32's: 4 depth steps of six lines as 4 groups of six values.
  static void pack_lines6(const double* src, std::int64_t s_w, double* dst) {
    const __m256d r0 = _mm256_loadu_pd(src), r1 = _mm256_loadu_pd(src + s_w);
    const __m256d r2 = _mm256_loadu_pd(src + 2 * s_w), r3 = _mm256_loadu_pd(src + 3 * s_w);
    const __m256d r4 = _mm256_loadu_pd(src + 4 * s_w), r5 = _mm256_loadu_pd(src + 5 * s_w);
    // t0 = line 0 and 1 at step 0 | at step 2; t1 the same at steps 1 | 3.
    const __m256d t0 = _mm256_unpacklo_pd(r0, r1), t1 = _mm256_unpackhi_pd(r0, r1);
    const __m256d t2 = _mm256_unpacklo_pd(r2, r3), t3 = _mm256_unpackhi_pd(r2, r3);
    const __m256d t4 = _mm256_unpacklo_pd(r4, r5), t5 = _mm256_unpackhi_pd(r4, r5);
    store_pair_halves(dst, t0, t2, t4, t1, t3, t5);
  }
  // As F32's: four lines of four depth steps as four steps of four values.
  static void transpose_square(const double* src, std::int64_t s_w, double* dst,
                               std::int64_t dst_stride) {
    const __m256d r0 = _mm256_loadu_pd(src), r1 = _mm256_loadu_pd(src + s_w);
    const __m256d r2 = _mm256_loadu_pd(src + 2 * s_w), r3 = _mm256_loadu_pd(src + 3 * s_w);
    // t0 = lines 0, 1 at step 0 | at step 2; t1 at steps 1 | 3; t2, t3 lines 2, 3.
    const __m256d t0 = _mm256_unpacklo_pd(r0, r1), t1 = _mm256_unpackhi_pd(r0, r1);
    const __m256d t2 = _mm256_unpacklo_pd(r2, r3), t3 = _mm256_unpackhi_pd(r2, r3);
    _mm256_storeu_pd(dst, _mm256_permute2f128_pd(t0, t2, 0x20));
    _mm256_storeu_pd(dst + dst_stride, _mm256_permute2f128_pd(t1, t3, 0x20));
    _mm256_storeu_pd(dst + 2 * dst_stride, _mm256_permute2f128_pd(t0, t2, 0x31));
    _mm256_storeu_pd(dst + 3 * dst_stride, _mm256_permute2f128_pd(t1, t3, 0x31));
  }
};

// The register moves of the integer GEMM's dot traits
// (core/src/qgemm/qgemm_microkernel.hpp) on ymm: 8 int32 sums, a packed
// group of B loaded whole, A's four bytes broadcast to every lane. I8Pairs
// below and avx2_vnni's I8Quads add their packing and their dot.
struct I32Lanes {
  using Reg = __m256i;
  struct Lane : scalar::F32 {};
  static constexpr int kLanes = 8;
  static Reg zero() { return _mm256_setzero_si256(); }
  static Reg load(const std::uint8_t* p) {
    return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
  }
  static Reg broadcast(const std::uint8_t* p) {
    std::int32_t v;
    std::memcpy(&v, p, 4);
    return _mm256_set1_epi32(v);
  }
  static void store(std::int32_t* p, Reg v) {
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), v);
  }
};

// The dot on depth pairs of int16: vpmaddwd, then vpaddd (exact;
// vpmaddubsw's 16-bit sums of two u8 x s8 products would saturate).
struct I8Pairs : I32Lanes {
  static constexpr Int8Packing kPacking = Int8Packing::kPairI16;
  static Reg dot(Reg acc, Reg a, Reg b) { return _mm256_add_epi32(acc, _mm256_madd_epi16(a, b)); }
};

// Half precision: f16 by F16C (vcvtps2ph / vcvtph2ps, round to nearest
// even from the immediate, not MXCSR); bf16 in integer code on 32-bit
// lanes (half_integer.hpp).
struct U32 {
  using V = __m256i;
  using Mask = __m256i;
  static constexpr int kLanes = 8;
  static V load(const float* p) { return _mm256_castps_si256(_mm256_loadu_ps(p)); }
  static void store(float* p, V v) { _mm256_storeu_ps(p, _mm256_castsi256_ps(v)); }
  static V load_u16(const std::uint16_t* p) {
    return _mm256_cvtepu16_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
  }
  static void store_u16(std::uint16_t* p, V v) {
    _mm_storeu_si128(reinterpret_cast<__m128i*>(p),
                     _mm_packus_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1)));
  }
  static V set1(std::uint32_t x) { return _mm256_set1_epi32(static_cast<int>(x)); }
  static V add(V a, V b) { return _mm256_add_epi32(a, b); }
  static V sub(V a, V b) { return _mm256_sub_epi32(a, b); }
  static V bit_and(V a, V b) { return _mm256_and_si256(a, b); }
  static V bit_or(V a, V b) { return _mm256_or_si256(a, b); }
  template <int k>
  static V shr(V v) { return _mm256_srli_epi32(v, k); }
  template <int k>
  static V shl(V v) { return _mm256_slli_epi32(v, k); }
  static Mask gt(V a, V b) { return _mm256_cmpgt_epi32(a, b); }
  static V select(Mask m, V t, V f) { return _mm256_blendv_epi8(f, t, m); }
  static V add_f32(V a, V b) { return _mm256_castps_si256(_mm256_add_ps(_mm256_castsi256_ps(a), _mm256_castsi256_ps(b))); }
  static V sub_f32(V a, V b) { return _mm256_castps_si256(_mm256_sub_ps(_mm256_castsi256_ps(a), _mm256_castsi256_ps(b))); }
};
struct Half {
  static constexpr int kLanes = 8;
  static constexpr const char* kF16Method = "F16C vcvtps2ph/vcvtph2ps ymm";
  static constexpr const char* kBf16Method = "integer, AVX2 ymm";
  static void f32_to_f16(const float* x, std::uint16_t* y) {
    _mm_storeu_si128(reinterpret_cast<__m128i*>(y),
                     _mm256_cvtps_ph(_mm256_loadu_ps(x), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
  }
  static void f16_to_f32(const std::uint16_t* x, float* y) {
    _mm256_storeu_ps(y, _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(x))));
  }
  static void f32_to_bf16(const float* x, std::uint16_t* y) { f32_to_bf16_lanes<U32>(x, y); }
  static void bf16_to_f32(const std::uint16_t* x, float* y) { bf16_to_f32_lanes<U32>(x, y); }
  // kLanes values widened into an F32 register (half-precision gemv).
  static __m256 load_f16(const std::uint16_t* p) {
    return _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
  }
  static __m256 load_bf16(const std::uint16_t* p) {
    return _mm256_castsi256_ps(bf16_bits_to_f32_bits<U32>(U32::load_u16(p)));
  }
};

}  // namespace tessera::simd::avx2
