// The horizontal sum of one register in the fixed order every backend
// shares: fold the upper half of the lanes onto the lower half (lane i +=
// lane i + L/2) until one lane is left. A tree of depth log2(L), not a
// chain of L - 1 dependent adds. The order depends on the lane count only,
// so two backends with the same lanes give the same bits; the SSE2, AVX2
// and AVX-512 traits' sum_lanes compute it in registers
// (sum_lanes_sse.hpp), others through memory.
#pragma once

namespace tessera::simd {

template <class V>
inline typename V::Scalar reduce_lanes(typename V::Reg v) {
  if constexpr (requires { V::sum_lanes(v); }) return V::sum_lanes(v);
  typename V::Scalar lanes[V::kLanes];
  V::store(lanes, v);
  for (int half = V::kLanes / 2; half >= 1; half /= 2) {
    for (int l = 0; l < half; ++l) lanes[l] += lanes[l + half];
  }
  return lanes[0];
}

}  // namespace tessera::simd
