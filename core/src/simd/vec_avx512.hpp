// AVX-512F vector traits (16 x f32, 8 x f64), fused mul_add.
#pragma once

#include <immintrin.h>

#include <cstdint>
#include <cstring>

#include "core/src/simd/ieee_minmax.hpp"
#include "core/src/simd/half_integer.hpp"
#include "core/src/simd/int8_packing.hpp"
#include "core/src/simd/sum_lanes_sse.hpp"
#include "core/src/simd/vec_scalar.hpp"

namespace tessera::simd::avx512 {

// GCC 12's unmasked forms of these intrinsics pass _mm512_undefined_*() as
// the source of masked-off lanes, and every function they are inlined into
// warns -Wmaybe-uninitialized. The masked form with every lane selected and
// an operand as that source compiles to the same unmasked instruction.
inline __m512 unpack_lo(__m512 a, __m512 b) {
  return _mm512_mask_unpacklo_ps(a, __mmask16(0xFFFF), a, b);
}
inline __m512 unpack_hi(__m512 a, __m512 b) {
  return _mm512_mask_unpackhi_ps(a, __mmask16(0xFFFF), a, b);
}
inline __m512d unpack_lo(__m512d a, __m512d b) {
  return _mm512_mask_unpacklo_pd(a, __mmask8(0xFF), a, b);
}
inline __m512d unpack_hi(__m512d a, __m512d b) {
  return _mm512_mask_unpackhi_pd(a, __mmask8(0xFF), a, b);
}
// vshuff32x4: 128-bit chunks of a (low half of the result) and b (high).
template <int kImm>
inline __m512 shuffle_chunks(__m512 a, __m512 b) {
  return _mm512_mask_shuffle_f32x4(a, __mmask16(0xFFFF), a, b, kImm);
}

template <int kImm>
inline __m512d shuffle_chunks(__m512d a, __m512d b) {
  return _mm512_mask_shuffle_f64x2(a, __mmask8(0xFF), a, b, kImm);
}

// Eight rows' lane sums (row i's in lane i; F32's lanes 8-15 copy lane 0)
// in reduce_lanes' order (lane_sum.hpp), as a
// transpose tree: each step adds the halves of two rows' partial lanes in
// one register (0x44 | 0xEE: the 256-bit halves of a and b; 0x88 | 0xDD:
// chunks 0, 2 | 1, 3 of each), so the eight rows of an 8 x 8 sgemv take 24
// shuffles and adds where four rows at a time took about 50. (The masked
// forms: see unpack_lo.)
inline __m512 sum_lanes8(const __m512 (&r)[8]) {
  __m512 p[4];  // p[i]: rows 2i and 2i + 1, lane l + lane l + 8 (8 lanes each)
  for (int i = 0; i < 4; ++i) {
    p[i] = _mm512_add_ps(shuffle_chunks<0x44>(r[2 * i], r[2 * i + 1]),
                         shuffle_chunks<0xEE>(r[2 * i], r[2 * i + 1]));
  }
  // Chunk j of q0 (q1): row j (j + 4), lane l + lane l + 4 (4 lanes).
  const __m512 q0 = _mm512_add_ps(shuffle_chunks<0x88>(p[0], p[1]), shuffle_chunks<0xDD>(p[0], p[1]));
  const __m512 q1 = _mm512_add_ps(shuffle_chunks<0x88>(p[2], p[3]), shuffle_chunks<0xDD>(p[2], p[3]));
  // Chunk j: row j's lanes 0 + 2, row j + 4's, row j's 1 + 3, row j + 4's.
  const __m512 s = _mm512_add_ps(unpack_lo(q0, q1), unpack_hi(q0, q1));
  // Chunk j: row j's (0 + 2) + (1 + 3), row j + 4's, then two don't-cares.
  const __m512 t = _mm512_add_ps(s, _mm512_mask_shuffle_ps(s, __mmask16(0xFFFF), s, s, 0xEE));
  const __m512i order = _mm512_setr_epi32(0, 4, 8, 12, 1, 5, 9, 13, 0, 0, 0, 0, 0, 0, 0, 0);
  return _mm512_mask_permutexvar_ps(t, __mmask16(0xFFFF), order, t);
}

// F64's eight rows: lane l + lane l + 4, + 2, + 1, as F32's tree (22
// shuffles and adds, against 44 four rows at a time).
inline __m512d sum_lanes8(const __m512d (&r)[8]) {
  __m512d p[4];  // chunks: row 2i's lanes (0,1), (2,3), row 2i + 1's, after + 4
  for (int i = 0; i < 4; ++i) {
    p[i] = _mm512_add_pd(shuffle_chunks<0x44>(r[2 * i], r[2 * i + 1]),
                         shuffle_chunks<0xEE>(r[2 * i], r[2 * i + 1]));
  }
  // Chunk j of q0 (q1): row j (j + 4), lanes 0 + 2, 1 + 3.
  const __m512d q0 = _mm512_add_pd(shuffle_chunks<0x88>(p[0], p[1]), shuffle_chunks<0xDD>(p[0], p[1]));
  const __m512d q1 = _mm512_add_pd(shuffle_chunks<0x88>(p[2], p[3]), shuffle_chunks<0xDD>(p[2], p[3]));
  // Chunk j: row j's (0 + 2) + (1 + 3), row j + 4's.
  const __m512d t = _mm512_add_pd(unpack_lo(q0, q1), unpack_hi(q0, q1));
  const __m512i order = _mm512_setr_epi64(0, 2, 4, 6, 1, 3, 5, 7);
  return _mm512_mask_permutexvar_pd(t, __mmask8(0xFF), order, t);
}

// pack_lines6's last step (F32 and F64). In each of v0..v5, 128-bit chunk L
// belongs to depth group L; the packed panel wants group L's chunks in the
// order v0, v1, ..., v5, then group L + 1's. Pairs first (x01 = v0[0, 1],
// v1[0, 1], y01 = v0[2, 3], v1[2, 3], ...), then each output register takes
// chunks of two pairs: 12 chunk shuffles and 6 full-width stores.
inline void store_chunk_columns(float* d, __m512 v0, __m512 v1, __m512 v2, __m512 v3,
                                __m512 v4, __m512 v5) {
  const __m512 x01 = shuffle_chunks<0x44>(v0, v1), y01 = shuffle_chunks<0xEE>(v0, v1);
  const __m512 x23 = shuffle_chunks<0x44>(v2, v3), y23 = shuffle_chunks<0xEE>(v2, v3);
  const __m512 x45 = shuffle_chunks<0x44>(v4, v5), y45 = shuffle_chunks<0xEE>(v4, v5);
  // 0x88: chunks 0, 2 of each source; 0xD8: 0, 2 of the first, 1, 3 of the
  // second; 0xDD: 1, 3 of each.
  _mm512_storeu_ps(d, shuffle_chunks<0x88>(x01, x23));
  _mm512_storeu_ps(d + 16, shuffle_chunks<0xD8>(x45, x01));
  _mm512_storeu_ps(d + 32, shuffle_chunks<0xDD>(x23, x45));
  _mm512_storeu_ps(d + 48, shuffle_chunks<0x88>(y01, y23));
  _mm512_storeu_ps(d + 64, shuffle_chunks<0xD8>(y45, y01));
  _mm512_storeu_ps(d + 80, shuffle_chunks<0xDD>(y23, y45));
}

// The 256-bit halves by the masked extract (see the top of this file: GCC
// 12's cast and unmasked extract start from an undefined register).
template <int kHalf>
inline __m256d half_of(__m512d r) {
  return _mm512_mask_extractf64x4_pd(_mm256_setzero_pd(), __mmask8(0xF), r, kHalf);
}
// The two lane-wise operations the folds below apply, at 256 and 128 bits.
struct AddLanes {
  __m256 operator()(__m256 a, __m256 b) const { return _mm256_add_ps(a, b); }
  __m128 operator()(__m128 a, __m128 b) const { return _mm_add_ps(a, b); }
  __m256d operator()(__m256d a, __m256d b) const { return _mm256_add_pd(a, b); }
  __m128d operator()(__m128d a, __m128d b) const { return _mm_add_pd(a, b); }
};
struct MaxLanes {
  __m256 operator()(__m256 a, __m256 b) const { return _mm256_max_ps(a, b); }
  __m128 operator()(__m128 a, __m128 b) const { return _mm_max_ps(a, b); }
  __m256d operator()(__m256d a, __m256d b) const { return _mm256_max_pd(a, b); }
  __m128d operator()(__m128d a, __m128d b) const { return _mm_max_pd(a, b); }
};
// op(lane l, lane l + 8) (F32; l + 4 for F64) as 256 bits, then op(l,
// l + 4) (l + 2) as 128: sum_lanes' first steps with AddLanes, max_lanes'
// with MaxLanes.
template <class Op>
inline __m128d fold_to_128(__m512d r, Op op = {}) {
  const __m256d h = op(half_of<0>(r), half_of<1>(r));
  return op(_mm256_castpd256_pd128(h), _mm256_extractf128_pd(h, 1));
}
template <class Op>
inline __m128 fold_to_128(__m512 r, Op op = {}) {
  const __m512d bits = _mm512_castps_pd(r);
  const __m256 h = op(_mm256_castpd_ps(half_of<0>(bits)), _mm256_castpd_ps(half_of<1>(bits)));
  return op(_mm256_castps256_ps128(h), _mm256_extractf128_ps(h, 1));
}

// The half-width view of the AVX-512 levels (256-bit registers with
// AVX-512VL's lane masks), for a direct-path GEMM tile whose columns fit in
// 8 f32 (4 f64): Zen 4 runs a 512-bit FMA as two 256-bit halves, so a
// 16-lane tile over 8 columns spent half its multiplies on masked-off
// lanes. Only what the plain direct tile uses (no epilogue); the same
// per-element operations, so the same bits.
// Eight rows' lane sums of 256-bit registers at once, row i's sum in lane
// i: lane l += lane l + 4 (the 128-bit halves of two rows side by side),
// then l + 2, then l + 1, each add with the lower lane first, as
// reduce_lanes (lane_sum.hpp) adds them.
inline __m256 sum_lanes8(const __m256 (&r)[8]) {
  __m256 t[4];
  for (int i = 0; i < 4; ++i) {
    t[i] = _mm256_add_ps(_mm256_permute2f128_ps(r[2 * i], r[2 * i + 1], 0x20),
                         _mm256_permute2f128_ps(r[2 * i], r[2 * i + 1], 0x31));
  }
  // t[i]: row 2i's four partials, then row 2i + 1's. 0x44 takes lanes 0, 1
  // of each source (per 128 bits), 0xEE lanes 2, 3.
  const __m256 u0 = _mm256_add_ps(_mm256_shuffle_ps(t[0], t[1], 0x44), _mm256_shuffle_ps(t[0], t[1], 0xEE));
  const __m256 u1 = _mm256_add_ps(_mm256_shuffle_ps(t[2], t[3], 0x44), _mm256_shuffle_ps(t[2], t[3], 0xEE));
  // u0: rows 0, 2 (two partials each), then rows 1, 3; u1 rows 4-7 alike.
  // 0x88 takes lanes 0, 2 of each source, 0xDD lanes 1, 3.
  const __m256 s = _mm256_add_ps(_mm256_shuffle_ps(u0, u1, 0x88), _mm256_shuffle_ps(u0, u1, 0xDD));
  // s: rows 0, 2, 4, 6, then 1, 3, 5, 7.
  return _mm256_permutevar8x32_ps(s, _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7));
}

struct F32x8 {
  using Scalar = float;
  using Reg = __m256;
  using Mask = __mmask8;
  static constexpr int kLanes = 8;
  // gemv's eight-row panels of at most 16 columns (blas1_body.hpp).
  static Reg sum_lanes8(const Reg (&r)[8]) { return avx512::sum_lanes8(r); }
  static Reg load(const float* p) { return _mm256_loadu_ps(p); }
  static void store(float* p, Reg v) { _mm256_storeu_ps(p, v); }
  static Reg set1(float x) { return _mm256_set1_ps(x); }
  static Reg broadcast(const float* p) { return _mm256_set1_ps(*p); }
  static Reg zero() { return _mm256_setzero_ps(); }
  static Reg add(Reg a, Reg b) { return _mm256_add_ps(a, b); }
  static Reg mul(Reg a, Reg b) { return _mm256_mul_ps(a, b); }
  static Reg mul_add(Reg a, Reg b, Reg c) { return _mm256_fmadd_ps(a, b, c); }
  static Mask first_lanes(int n) { return n >= 8 ? Mask(0xFF) : n <= 0 ? Mask(0) : Mask((1u << n) - 1); }
  static Reg load_lanes(const float* p, Mask m) { return _mm256_maskz_loadu_ps(m, p); }
  static void store_lanes(float* p, Reg v, Mask m) { _mm256_mask_storeu_ps(p, m, v); }
};
struct F64x4 {
  using Scalar = double;
  using Reg = __m256d;
  using Mask = __mmask8;
  static constexpr int kLanes = 4;
  static Reg load(const double* p) { return _mm256_loadu_pd(p); }
  static void store(double* p, Reg v) { _mm256_storeu_pd(p, v); }
  static Reg set1(double x) { return _mm256_set1_pd(x); }
  static Reg broadcast(const double* p) { return _mm256_set1_pd(*p); }
  static Reg zero() { return _mm256_setzero_pd(); }
  static Reg add(Reg a, Reg b) { return _mm256_add_pd(a, b); }
  static Reg mul(Reg a, Reg b) { return _mm256_mul_pd(a, b); }
  static Reg mul_add(Reg a, Reg b, Reg c) { return _mm256_fmadd_pd(a, b, c); }
  static Mask first_lanes(int n) { return n >= 4 ? Mask(0xF) : n <= 0 ? Mask(0) : Mask((1u << n) - 1); }
  static Reg load_lanes(const double* p, Mask m) { return _mm256_maskz_loadu_pd(m, p); }
  static void store_lanes(double* p, Reg v, Mask m) { _mm256_mask_storeu_pd(p, m, v); }
};

struct F32 {
  using Scalar = float;
  using Reg = __m512;
  static constexpr int kLanes = 16;
  using Narrow = F32x8;  // gemm_microkernel.hpp's direct path, 8 columns or fewer
  // The lanes of r summed by halving (lane l += lane l + 8, then + 4, + 2,
  // + 1): reduce_lanes' order (lane_sum.hpp), in registers (through
  // memory, each row's 15 dependent adds cost an 8 x 8 sgemv 170 ns on
  // Zen 4, against 36 on the avx2 level).
  static float sum_lanes(Reg r) { return sse::sum_lanes1(fold_to_128<AddLanes>(r)); }
  // The largest lane of r, which holds no NaN (reduce_body.hpp's plain_max).
  static float max_lanes(Reg r) { return sse::max_lanes1(fold_to_128<MaxLanes>(r)); }
  static void sum_lanes4(Reg r0, Reg r1, Reg r2, Reg r3, float* out) {
    sse::sum_lanes4x4(fold_to_128<AddLanes>(r0), fold_to_128<AddLanes>(r1), fold_to_128<AddLanes>(r2), fold_to_128<AddLanes>(r3), out);
  }
  static Reg sum_lanes8(const Reg (&r)[8]) { return avx512::sum_lanes8(r); }
  static Reg load(const float* p) { return _mm512_loadu_ps(p); }
  static void store(float* p, Reg v) { _mm512_storeu_ps(p, v); }
  static Reg set1(float x) { return _mm512_set1_ps(x); }
  static Reg broadcast(const float* p) { return _mm512_set1_ps(*p); }
  static Reg zero() { return _mm512_setzero_ps(); }
  static Reg add(Reg a, Reg b) { return _mm512_add_ps(a, b); }
  static Reg mul(Reg a, Reg b) { return _mm512_mul_ps(a, b); }
  static Reg mul_add(Reg a, Reg b, Reg c) { return _mm512_fmadd_ps(a, b, c); }
  static Reg relu(Reg x) {
    const __mmask16 negative =
        _mm512_cmp_ps_mask(x, _mm512_setzero_ps(), _CMP_LT_OQ);
    return _mm512_mask_mov_ps(x, negative, _mm512_setzero_ps());
  }
  static Reg sub(Reg a, Reg b) { return _mm512_sub_ps(a, b); }
  static Reg div(Reg a, Reg b) { return _mm512_div_ps(a, b); }
  // The masked form with x as pass-through: the plain intrinsic's
  // _mm512_undefined_ps() trips GCC 12's -Wmaybe-uninitialized.
  static Reg sqrt(Reg x) { return _mm512_mask_sqrt_ps(x, static_cast<__mmask16>(-1), x); }
  // andnot / xor on floats are AVX512DQ, which this level is compiled with.
  static Reg abs(Reg x) { return _mm512_andnot_ps(_mm512_set1_ps(-0.0f), x); }
  static Reg neg(Reg x) { return _mm512_xor_ps(_mm512_set1_ps(-0.0f), x); }
  using Mask = __mmask16;
  static Mask lt(Reg a, Reg b) { return _mm512_cmp_ps_mask(a, b, _CMP_LT_OQ); }
  static Mask eq(Reg a, Reg b) { return _mm512_cmp_ps_mask(a, b, _CMP_EQ_OQ); }
  static Mask is_nan(Reg x) { return _mm512_cmp_ps_mask(x, x, _CMP_UNORD_Q); }
  static Reg select(Mask m, Reg t, Reg f) { return _mm512_mask_blend_ps(m, f, t); }
  // The GEMM direct path's partial tiles (gemm_microkernel.hpp): lanes
  // [0, n) of p, the others zero and never touched (a masked-out lane does
  // not fault), and the store of lanes [0, n) only.
  static Mask first_lanes(int n) {
    return n >= kLanes ? Mask(0xFFFF) : n <= 0 ? Mask(0) : Mask((1u << n) - 1);
  }
  static Reg load_lanes(const float* p, Mask m) { return _mm512_maskz_loadu_ps(m, p); }
  static void store_lanes(float* p, Reg v, Mask m) { _mm512_mask_storeu_ps(p, m, v); }
  static Reg bit_or(Reg a, Reg b) { return _mm512_or_ps(a, b); }
  static Reg bit_and(Reg a, Reg b) { return _mm512_and_ps(a, b); }
  // vmath.hpp: shift each lane's bit pattern left / right (logical) by the
  // mantissa width (23), to build 2^n and to read a float's exponent field.
  // The zero-masked forms: GCC 12's unmasked ones start from
  // _mm512_undefined_epi32 and warn -Wuninitialized.
  static Reg shl_mant(Reg x) { return _mm512_castsi512_ps(_mm512_maskz_slli_epi32(__mmask16(0xFFFF), _mm512_castps_si512(x), 23)); }
  static Reg shr_mant(Reg x) { return _mm512_castsi512_ps(_mm512_maskz_srli_epi32(__mmask16(0xFFFF), _mm512_castps_si512(x), 23)); }
  // vmath.hpp's exp: integer add of the bit patterns (scales p by 2^n when
  // b holds n << 23 and the result stays normal); every lane true?
  static Reg add_bits(Reg a, Reg b) { return _mm512_castsi512_ps(_mm512_add_epi32(_mm512_castps_si512(a), _mm512_castps_si512(b))); }
  static bool all_true(Mask m) { return m == __mmask16(0xFFFF); }
  // The first true lane, or -1 (argmax's scan).
  static int first_true(Mask m) { return m == 0 ? -1 : __builtin_ctz(m); }
  // vmath.hpp's mul_pow2: p * 2^floor(n), rounded once (vscalefps).
  // Masked for GCC 12, as unpack_lo (top of the file).
  static Reg scale_pow2(Reg p, Reg n) { return _mm512_mask_scalef_ps(p, __mmask16(0xFFFF), p, n); }
  static Reg min(Reg a, Reg b) { return ieee_minimum<F32>(a, b); }
  static Reg max(Reg a, Reg b) { return ieee_maximum<F32>(a, b); }
  // The larger of a and b when neither is NaN (equal values: either one),
  // b when b is NaN. One instruction (reduce_body.hpp's plain_max).
  // Masked for GCC 12, as unpack_lo.
  static Reg max_ordered(Reg a, Reg b) { return _mm512_mask_max_ps(a, __mmask16(0xFFFF), a, b); }
  // gemm_pack.hpp: 16 depth steps of six lines (line w at src + w*s_w,
  // contiguous along depth) written as 16 groups of six values, the packed
  // A panel of the 6-row tile from row-major A. The AVX2 register
  // transpose, per 128-bit chunk, then store_chunk_columns: 24 shuffles
  // for 96 values, where the element loop took 96 scalar moves. On an Intel
  // Xeon, 96 x 256 from hot rows packs 2x faster, and A's packing went
  // from 4.1% to 2.8% of an sgemm 1024 (kc 256).
  static void pack_lines6(const float* src, std::int64_t s_w, float* dst) {
    const __m512 r0 = _mm512_loadu_ps(src), r1 = _mm512_loadu_ps(src + s_w);
    const __m512 r2 = _mm512_loadu_ps(src + 2 * s_w), r3 = _mm512_loadu_ps(src + 3 * s_w);
    const __m512 r4 = _mm512_loadu_ps(src + 4 * s_w), r5 = _mm512_loadu_ps(src + 5 * s_w);
    // Per chunk, as 64-bit units: t0 = (01)[0], (01)[1] where (01)[q] is
    // line 0 and line 1 at the chunk's step q; t1 = (01)[2], (01)[3].
    const __m512d t0 = _mm512_castps_pd(unpack_lo(r0, r1));
    const __m512d t1 = _mm512_castps_pd(unpack_hi(r0, r1));
    const __m512d t2 = _mm512_castps_pd(unpack_lo(r2, r3));
    const __m512d t3 = _mm512_castps_pd(unpack_hi(r2, r3));
    const __m512d t4 = _mm512_castps_pd(unpack_lo(r4, r5));
    const __m512d t5 = _mm512_castps_pd(unpack_hi(r4, r5));
    // The chunk's 24 output values as six 128-bit pieces: (01)(23)[0],
    // (45)[0](01)[1], (23)(45)[1], then the same for steps 2 and 3.
    store_chunk_columns(dst, _mm512_castpd_ps(unpack_lo(t0, t2)),
                        _mm512_castpd_ps(_mm512_shuffle_pd(t4, t0, 0xAA)),
                        _mm512_castpd_ps(unpack_hi(t2, t4)),
                        _mm512_castpd_ps(unpack_lo(t1, t3)),
                        _mm512_castpd_ps(_mm512_shuffle_pd(t5, t1, 0xAA)),
                        _mm512_castpd_ps(unpack_hi(t3, t5)));
  }
  // As F64's: sixteen lines of sixteen depth steps as sixteen steps of
  // sixteen values (step q at dst + q dst_stride), 64 shuffles.
  static void transpose_square(const float* src, std::int64_t s_w, float* dst,
                               std::int64_t dst_stride) {
    __m512 r[16];
    for (int i = 0; i < 16; ++i) r[i] = _mm512_loadu_ps(src + i * s_w);
    // c[q][s]: lines 4q..4q+3 at step 4L + s in 128-bit unit L.
    __m512 c[4][4];
    for (int q = 0; q < 4; ++q) {
      const __m512d lo01 = _mm512_castps_pd(unpack_lo(r[4 * q], r[4 * q + 1]));
      const __m512d hi01 = _mm512_castps_pd(unpack_hi(r[4 * q], r[4 * q + 1]));
      const __m512d lo23 = _mm512_castps_pd(unpack_lo(r[4 * q + 2], r[4 * q + 3]));
      const __m512d hi23 = _mm512_castps_pd(unpack_hi(r[4 * q + 2], r[4 * q + 3]));
      c[q][0] = _mm512_castpd_ps(unpack_lo(lo01, lo23));
      c[q][1] = _mm512_castpd_ps(unpack_hi(lo01, lo23));
      c[q][2] = _mm512_castpd_ps(unpack_lo(hi01, hi23));
      c[q][3] = _mm512_castpd_ps(unpack_hi(hi01, hi23));
    }
    // For each s, the 4 x 4 transpose of 128-bit units: step 4L + s is
    // unit L of c[0..3][s].
    for (int st = 0; st < 4; ++st) {
      const __m512 v0 = shuffle_chunks<0x88>(c[0][st], c[1][st]);
      const __m512 v1 = shuffle_chunks<0xDD>(c[0][st], c[1][st]);
      const __m512 v2 = shuffle_chunks<0x88>(c[2][st], c[3][st]);
      const __m512 v3 = shuffle_chunks<0xDD>(c[2][st], c[3][st]);
      _mm512_storeu_ps(dst + st * dst_stride, shuffle_chunks<0x88>(v0, v2));
      _mm512_storeu_ps(dst + (8 + st) * dst_stride, shuffle_chunks<0xDD>(v0, v2));
      _mm512_storeu_ps(dst + (4 + st) * dst_stride, shuffle_chunks<0x88>(v1, v3));
      _mm512_storeu_ps(dst + (12 + st) * dst_stride, shuffle_chunks<0xDD>(v1, v3));
    }
  }
};

struct F64 {
  using Scalar = double;
  using Reg = __m512d;
  static constexpr int kLanes = 8;
  using Narrow = F64x4;  // gemm_microkernel.hpp's direct path, 4 columns or fewer
  // As F32's: lane l += lane l + 4, then + 2, + 1.
  static double sum_lanes(Reg r) { return sse::sum_lanes1(fold_to_128<AddLanes>(r)); }
  static double max_lanes(Reg r) { return sse::max_lanes1(fold_to_128<MaxLanes>(r)); }
  static void sum_lanes4(Reg r0, Reg r1, Reg r2, Reg r3, double* out) {
    sse::sum_lanes2x2(fold_to_128<AddLanes>(r0), fold_to_128<AddLanes>(r1), out);
    sse::sum_lanes2x2(fold_to_128<AddLanes>(r2), fold_to_128<AddLanes>(r3), out + 2);
  }
  static Reg sum_lanes8(const Reg (&r)[8]) { return avx512::sum_lanes8(r); }
  static Reg load(const double* p) { return _mm512_loadu_pd(p); }
  static void store(double* p, Reg v) { _mm512_storeu_pd(p, v); }
  static Reg set1(double x) { return _mm512_set1_pd(x); }
  static Reg broadcast(const double* p) { return _mm512_set1_pd(*p); }
  static Reg zero() { return _mm512_setzero_pd(); }
  static Reg add(Reg a, Reg b) { return _mm512_add_pd(a, b); }
  static Reg mul(Reg a, Reg b) { return _mm512_mul_pd(a, b); }
  static Reg mul_add(Reg a, Reg b, Reg c) { return _mm512_fmadd_pd(a, b, c); }
  static Reg relu(Reg x) {
    const __mmask8 negative =
        _mm512_cmp_pd_mask(x, _mm512_setzero_pd(), _CMP_LT_OQ);
    return _mm512_mask_mov_pd(x, negative, _mm512_setzero_pd());
  }
  static Reg sub(Reg a, Reg b) { return _mm512_sub_pd(a, b); }
  static Reg div(Reg a, Reg b) { return _mm512_div_pd(a, b); }
  // The masked form with x as pass-through: the plain intrinsic's
  // _mm512_undefined_pd() trips GCC 12's -Wmaybe-uninitialized.
  static Reg sqrt(Reg x) { return _mm512_mask_sqrt_pd(x, static_cast<__mmask8>(-1), x); }
  // andnot / xor on floats are AVX512DQ, which this level is compiled with.
  static Reg abs(Reg x) { return _mm512_andnot_pd(_mm512_set1_pd(-0.0), x); }
  static Reg neg(Reg x) { return _mm512_xor_pd(_mm512_set1_pd(-0.0), x); }
  using Mask = __mmask8;
  static Mask lt(Reg a, Reg b) { return _mm512_cmp_pd_mask(a, b, _CMP_LT_OQ); }
  static Mask eq(Reg a, Reg b) { return _mm512_cmp_pd_mask(a, b, _CMP_EQ_OQ); }
  static Mask is_nan(Reg x) { return _mm512_cmp_pd_mask(x, x, _CMP_UNORD_Q); }
  static Reg select(Mask m, Reg t, Reg f) { return _mm512_mask_blend_pd(m, f, t); }
  static Mask first_lanes(int n) {  // as F32
    return n >= kLanes ? Mask(0xFF) : n <= 0 ? Mask(0) : Mask((1u << n) - 1);
  }
  static Reg load_lanes(const double* p, Mask m) { return _mm512_maskz_loadu_pd(m, p); }
  static void store_lanes(double* p, Reg v, Mask m) { _mm512_mask_storeu_pd(p, m, v); }
  static Reg bit_or(Reg a, Reg b) { return _mm512_or_pd(a, b); }
  static Reg bit_and(Reg a, Reg b) { return _mm512_and_pd(a, b); }
  // vmath.hpp: bit-pattern shifts by the mantissa width (52).
  static Reg shl_mant(Reg x) { return _mm512_castsi512_pd(_mm512_maskz_slli_epi64(__mmask8(0xFF), _mm512_castpd_si512(x), 52)); }
  static Reg shr_mant(Reg x) { return _mm512_castsi512_pd(_mm512_maskz_srli_epi64(__mmask8(0xFF), _mm512_castpd_si512(x), 52)); }
  static Reg add_bits(Reg a, Reg b) { return _mm512_castsi512_pd(_mm512_add_epi64(_mm512_castpd_si512(a), _mm512_castpd_si512(b))); }
  static bool all_true(Mask m) { return m == __mmask8(0xFF); }
  static int first_true(Mask m) { return m == 0 ? -1 : __builtin_ctz(m); }
  static Reg scale_pow2(Reg p, Reg n) { return _mm512_mask_scalef_pd(p, __mmask8(0xFF), p, n); }
  static Reg min(Reg a, Reg b) { return ieee_minimum<F64>(a, b); }
  static Reg max(Reg a, Reg b) { return ieee_maximum<F64>(a, b); }
  // The larger of a and b when neither is NaN (equal values: either one),
  // b when b is NaN. One instruction (reduce_body.hpp's plain_max).
  static Reg max_ordered(Reg a, Reg b) { return _mm512_mask_max_pd(a, __mmask8(0xFF), a, b); }
  // As F32's: 8 depth steps of six lines as 8 groups of six values. Per
  // chunk (steps 2L, 2L + 1), t0 = lines 0 and 1 at step 2L, t1 at 2L + 1.
  static void pack_lines6(const double* src, std::int64_t s_w, double* dst) {
    const __m512d r0 = _mm512_loadu_pd(src), r1 = _mm512_loadu_pd(src + s_w);
    const __m512d r2 = _mm512_loadu_pd(src + 2 * s_w), r3 = _mm512_loadu_pd(src + 3 * s_w);
    const __m512d r4 = _mm512_loadu_pd(src + 4 * s_w), r5 = _mm512_loadu_pd(src + 5 * s_w);
    const __m512d t0 = unpack_lo(r0, r1), t1 = unpack_hi(r0, r1);
    const __m512d t2 = unpack_lo(r2, r3), t3 = unpack_hi(r2, r3);
    const __m512d t4 = unpack_lo(r4, r5), t5 = unpack_hi(r4, r5);
    store_chunk_columns(reinterpret_cast<float*>(dst), _mm512_castpd_ps(t0),
                        _mm512_castpd_ps(t2), _mm512_castpd_ps(t4), _mm512_castpd_ps(t1),
                        _mm512_castpd_ps(t3), _mm512_castpd_ps(t5));
  }
  // Eight lines of eight depth steps (line i at src + i s_w, contiguous
  // along depth) as eight steps of eight values, step q at dst + q
  // dst_stride: the B panels of a column-major B, eight columns at a time
  // (pack_panels). 24 shuffles, 8 loads and 8 stores for 64 values, where
  // the element loop took 128 scalar moves. Column-major dgemm('T', 'N'),
  // Zen 4, one thread, with pack_panels' order of eight lines at a time:
  // 1968 x 32 x 1968 (LAPACK's dlarfb) 9.5 -> 7.4 ms, 1000 x 64 x 1000 3.5
  // -> 3.1, 400 x 32 x 400 0.254 -> 0.234 (benchmarks.md).
  static void transpose_square(const double* src, std::int64_t s_w, double* dst,
                               std::int64_t dst_stride) {
    __m512d r[8];
    for (int i = 0; i < 8; ++i) r[i] = _mm512_loadu_pd(src + i * s_w);
    // Pairs of lines: t(2i) = lines 2i, 2i + 1 at the even steps, t(2i + 1)
    // at the odd ones.
    __m512d t[8];
    for (int i = 0; i < 4; ++i) {
      t[2 * i] = unpack_lo(r[2 * i], r[2 * i + 1]);
      t[2 * i + 1] = unpack_hi(r[2 * i], r[2 * i + 1]);
    }
    // 128-bit units: lanes 0, 2 of the first operand then of the second
    // (0x88), or lanes 1, 3 (0xDD). u holds four lines at steps {s, s + 4}.
    const __m512d u0 = shuffle_chunks<0x88>(t[0], t[2]);  // 0-3 at 0, 4
    const __m512d u1 = shuffle_chunks<0xDD>(t[0], t[2]);  // 0-3 at 2, 6
    const __m512d u2 = shuffle_chunks<0x88>(t[1], t[3]);  // 0-3 at 1, 5
    const __m512d u3 = shuffle_chunks<0xDD>(t[1], t[3]);  // 0-3 at 3, 7
    const __m512d u4 = shuffle_chunks<0x88>(t[4], t[6]);  // 4-7 at 0, 4
    const __m512d u5 = shuffle_chunks<0xDD>(t[4], t[6]);
    const __m512d u6 = shuffle_chunks<0x88>(t[5], t[7]);
    const __m512d u7 = shuffle_chunks<0xDD>(t[5], t[7]);
    _mm512_storeu_pd(dst, shuffle_chunks<0x88>(u0, u4));
    _mm512_storeu_pd(dst + 4 * dst_stride, shuffle_chunks<0xDD>(u0, u4));
    _mm512_storeu_pd(dst + 2 * dst_stride, shuffle_chunks<0x88>(u1, u5));
    _mm512_storeu_pd(dst + 6 * dst_stride, shuffle_chunks<0xDD>(u1, u5));
    _mm512_storeu_pd(dst + dst_stride, shuffle_chunks<0x88>(u2, u6));
    _mm512_storeu_pd(dst + 5 * dst_stride, shuffle_chunks<0xDD>(u2, u6));
    _mm512_storeu_pd(dst + 3 * dst_stride, shuffle_chunks<0x88>(u3, u7));
    _mm512_storeu_pd(dst + 7 * dst_stride, shuffle_chunks<0xDD>(u3, u7));
  }
};

// The register moves of the integer GEMM's dot traits
// (core/src/qgemm/qgemm_microkernel.hpp) on zmm: 16 int32 sums, a packed
// group of B loaded whole, A's four bytes broadcast to every lane. I8Pairs
// below and avx512_vnni's I8Quads add their packing and their dot.
struct I32Lanes {
  using Reg = __m512i;
  struct Lane : scalar::F32 {};
  static constexpr int kLanes = 16;
  static Reg zero() { return _mm512_setzero_si512(); }
  static Reg load(const std::uint8_t* p) { return _mm512_loadu_si512(p); }
  static Reg broadcast(const std::uint8_t* p) {
    std::int32_t v;
    std::memcpy(&v, p, 4);
    return _mm512_set1_epi32(v);
  }
  static void store(std::int32_t* p, Reg v) { _mm512_storeu_si512(p, v); }
};

// The dot traits on AVX-512BW without VNNI: vpmaddwd on depth pairs of
// int16, then vpaddd.
struct I8Pairs : I32Lanes {
  static constexpr Int8Packing kPacking = Int8Packing::kPairI16;
  static Reg dot(Reg acc, Reg a, Reg b) { return _mm512_add_epi32(acc, _mm512_madd_epi16(a, b)); }
};

// Half precision: f16 by the 512-bit F16C forms (AVX512F); bf16 in integer
// code (half_integer.hpp). AVX512-BF16's vcvtneps2bf16 is not used: it
// flushes subnormal inputs and outputs to zero, so its bits are not the
// other levels' (and the integer form is bound by memory all the same).
struct U32 {
  using V = __m512i;
  using Mask = __mmask16;
  static constexpr int kLanes = 16;
  // Every lane: the masked forms (see the top of this file).
  static constexpr Mask kAll = 0xFFFF;
  static V load(const float* p) { return _mm512_castps_si512(_mm512_loadu_ps(p)); }
  static void store(float* p, V v) { _mm512_storeu_ps(p, _mm512_castsi512_ps(v)); }
  static V load_u16(const std::uint16_t* p) {
    return _mm512_maskz_cvtepu16_epi32(kAll, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)));
  }
  static void store_u16(std::uint16_t* p, V v) {
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), _mm512_maskz_cvtepi32_epi16(kAll, v));
  }
  static V set1(std::uint32_t x) { return _mm512_set1_epi32(static_cast<int>(x)); }
  static V add(V a, V b) { return _mm512_add_epi32(a, b); }
  static V sub(V a, V b) { return _mm512_sub_epi32(a, b); }
  static V bit_and(V a, V b) { return _mm512_and_si512(a, b); }
  static V bit_or(V a, V b) { return _mm512_or_si512(a, b); }
  template <int k>
  static V shr(V v) { return _mm512_maskz_srli_epi32(kAll, v, k); }
  template <int k>
  static V shl(V v) { return _mm512_maskz_slli_epi32(kAll, v, k); }
  static Mask gt(V a, V b) { return _mm512_cmpgt_epi32_mask(a, b); }
  static V select(Mask m, V t, V f) { return _mm512_mask_blend_epi32(m, f, t); }
  static V add_f32(V a, V b) { return _mm512_castps_si512(_mm512_add_ps(_mm512_castsi512_ps(a), _mm512_castsi512_ps(b))); }
  static V sub_f32(V a, V b) { return _mm512_castps_si512(_mm512_sub_ps(_mm512_castsi512_ps(a), _mm512_castsi512_ps(b))); }
};
struct Half {
  static constexpr int kLanes = 16;
  static constexpr const char* kF16Method = "vcvtps2ph/vcvtph2ps zmm";
  static constexpr const char* kBf16Method = "integer, AVX-512 zmm";
  static void f32_to_f16(const float* x, std::uint16_t* y) {
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(y),
                        _mm512_maskz_cvtps_ph(U32::kAll, _mm512_loadu_ps(x), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
  }
  static void f16_to_f32(const std::uint16_t* x, float* y) {
    _mm512_storeu_ps(y, _mm512_maskz_cvtph_ps(U32::kAll, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(x))));
  }
  static void f32_to_bf16(const float* x, std::uint16_t* y) { f32_to_bf16_lanes<U32>(x, y); }
  static void bf16_to_f32(const std::uint16_t* x, float* y) { bf16_to_f32_lanes<U32>(x, y); }
  // kLanes values widened into an F32 register (half-precision gemv).
  static __m512 load_f16(const std::uint16_t* p) {
    return _mm512_maskz_cvtph_ps(U32::kAll, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)));
  }
  static __m512 load_bf16(const std::uint16_t* p) {
    return _mm512_castsi512_ps(bf16_bits_to_f32_bits<U32>(U32::load_u16(p)));
  }
};

}  // namespace tessera::simd::avx512
