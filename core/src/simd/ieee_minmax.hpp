// IEEE 754-2019 minimum / maximum (NumPy's np.minimum / np.maximum) written
// once over a vector traits type's compare and blend primitives, so every
// level computes the same bits. The native min/max instructions are not
// used because they disagree: SSE's minps returns the second operand when
// either is NaN or both are zeros, wasm's f32x4.min returns a NaN of
// unspecified payload, pmin follows SSE. Here:
//   - a NaN operand is the result, bits unchanged (a's if both are NaN);
//   - -0 is smaller than +0, whatever the operand order;
//   - otherwise the smaller (larger) value.
// V provides lt, eq, is_nan -> Mask; select(Mask, if_true, if_false);
// bit_or / bit_and on the registers' bits.
#pragma once

namespace tessera::simd {

template <class V>
typename V::Reg ieee_minimum(typename V::Reg a, typename V::Reg b) {
  auto r = V::select(V::lt(b, a), b, a);
  // Equal values have equal bits except +0 / -0: OR keeps the sign of -0.
  r = V::select(V::eq(a, b), V::bit_or(a, b), r);
  r = V::select(V::is_nan(b), b, r);
  return V::select(V::is_nan(a), a, r);
}

template <class V>
typename V::Reg ieee_maximum(typename V::Reg a, typename V::Reg b) {
  auto r = V::select(V::lt(a, b), b, a);
  // AND clears the sign unless both are -0.
  r = V::select(V::eq(a, b), V::bit_and(a, b), r);
  r = V::select(V::is_nan(b), b, r);
  return V::select(V::is_nan(a), a, r);
}

}  // namespace tessera::simd
