// Four rows' (and one row's) horizontal sums in 128-bit registers, for the
// SSE2, AVX2 and AVX-512 traits' sum_lanes4 and sum_lanes (and one row's
// maximum, for their max_lanes): each row's
// lanes summed by halving (lane l += lane l + half, half = lanes / 2 down
// to 1), the order of reduce_lanes in
// lane_sum.hpp, so the traits give the same bits as that generic code
// (and SSE2 the same as SIMD128, which runs the generic code).
#pragma once

#include <emmintrin.h>

namespace tessera::simd::sse {

// out[i] = (t_i[0] + t_i[2]) + (t_i[1] + t_i[3]). The interleaved add of
// (t0, t1) is (t0[0]+t0[2], t1[0]+t1[2], t0[1]+t0[3], t1[1]+t1[3]), likewise
// (t2, t3); the low pairs of those two plus their high pairs are the sums.
inline void sum_lanes4x4(__m128 t0, __m128 t1, __m128 t2, __m128 t3, float* out) {
  const __m128 s01 = _mm_add_ps(_mm_unpacklo_ps(t0, t1), _mm_unpackhi_ps(t0, t1));
  const __m128 s23 = _mm_add_ps(_mm_unpacklo_ps(t2, t3), _mm_unpackhi_ps(t2, t3));
  _mm_storeu_ps(out, _mm_add_ps(_mm_movelh_ps(s01, s23), _mm_movehl_ps(s23, s01)));
}

// out[i] = t_i[0] + t_i[1].
inline void sum_lanes2x2(__m128d t0, __m128d t1, double* out) {
  _mm_storeu_pd(out, _mm_add_pd(_mm_unpacklo_pd(t0, t1), _mm_unpackhi_pd(t0, t1)));
}

// One row: (t[0] + t[2]) + (t[1] + t[3]), and t[0] + t[1].
inline float sum_lanes1(__m128 t) {
  const __m128 s = _mm_add_ps(t, _mm_movehl_ps(t, t));
  return _mm_cvtss_f32(_mm_add_ss(s, _mm_shuffle_ps(s, s, 1)));
}
inline double sum_lanes1(__m128d t) { return _mm_cvtsd_f64(_mm_add_sd(t, _mm_unpackhi_pd(t, t))); }

// The largest lane of a register holding no NaN (maxps picks its second
// operand on equal zeros, so the sign of a zero maximum is unspecified).
inline float max_lanes1(__m128 t) {
  const __m128 m = _mm_max_ps(t, _mm_movehl_ps(t, t));
  return _mm_cvtss_f32(_mm_max_ss(m, _mm_shuffle_ps(m, m, 1)));
}
inline double max_lanes1(__m128d t) { return _mm_cvtsd_f64(_mm_max_sd(t, _mm_unpackhi_pd(t, t))); }

}  // namespace tessera::simd::sse
