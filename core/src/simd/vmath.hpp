// Vectorised transcendentals written once over the vector traits V
// (vec_scalar / sse2 / avx2 / avx512 / neon / simd128), f32 and f64:
//
//   template <class V> typename V::Reg vexp(typename V::Reg x);      e^x
//   template <class V> typename V::Reg vlog(typename V::Reg x);      ln x
//   template <class V> typename V::Reg vtanh(typename V::Reg x);     tanh x
//   template <class V> typename V::Reg vsigmoid(typename V::Reg x);  1/(1+e^-x)
//   template <class V> typename V::Reg vgelu(typename V::Reg x);
//       0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))), evaluated as the
//       identical x * sigmoid(2u) so the negative tail does not cancel.
//
// These signatures are stable (other kernels call them: softmax, GEMM
// epilogues). They are always inlined: GCC kept them out of line, and a
// call per vector (arguments through memory, every constant reloaded) took
// half of exp's time in the elementwise loop. A caller that would unroll
// many copies applies them from a rolled loop instead (the GEMM epilogue).
// Only trait operations are used, so SSE2 and SIMD128 (mul_add = multiply
// then add, same order) give the same bits; FMA levels differ in the last
// bits. The polynomials are Taylor series truncated where the remainder
// is far below half an ulp on the reduced range; the rounding of the final
// steps dominates the error (measured figures: docs/design.md).
//
// Special values: NaN in -> NaN out (quieted); exp(+Inf)=+Inf, exp(-Inf)=+0,
// overflow -> +Inf, underflow rounds through the subnormals to +0;
// log(+-0)=-Inf, log(x<0)=NaN, log(+Inf)=+Inf; tanh(+-Inf)=+-1, tanh keeps
// the sign of zero and reaches +-1 exactly; sigmoid(-Inf)=+0,
// sigmoid(+Inf)=1; gelu(+Inf)=+Inf, gelu(-Inf)=-0 (the limit).
//
// Trait operations used beyond arithmetic: lt, eq, is_nan, select, bit_or,
// bit_and, and shl_mant / shr_mant (bit-pattern shift by the mantissa
// width, 23 or 52), add_bits (integer add of bit patterns), all_true (every
// lane of a mask); scale_pow2 (p * 2^n) where a level has it.
#pragma once

#include <cstring>
#include <cstdint>
#include <limits>
#include <type_traits>

namespace tessera::simd {

namespace vmath_detail {

template <class T>
struct Consts;

template <>
struct Consts<float> {
  static constexpr float kMagic = 12582912.0f;  // 1.5 * 2^23: round to integer
  static constexpr float kBias = 127.0f;
  static constexpr float kTwoPowMant = 8388608.0f;  // 2^23
  static constexpr float kLog2e = 1.44269504088896341f;
  // ln 2 split so that n * kLn2Hi is exact for |n| < 2^15.
  static constexpr float kLn2Hi = 0.693359375f;
  static constexpr float kLn2Lo = -2.12194440054690583e-4f;
  static constexpr float kExpLo = -104.0f;  // e^x rounds to +0 for x <= -104
  static constexpr float kExpHi = 89.0f;    // e^89 overflows
  // |x| < 86: |n| <= 124, so p * 2^n (p in [0.7, 1.42]) and 2^n are normal.
  static constexpr float kExpFastBound = 86.0f;
  static constexpr float kTanhSat = 10.0f;  // tanh(10) rounds to 1
  static constexpr int kExpDegree = 7;
  static constexpr int kLogTerms = 4;
  static constexpr std::uint32_t kMantMask = 0x007FFFFFu;
  static constexpr std::uint32_t kOneBits = 0x3F800000u;
  static constexpr float kMinNormal = 1.17549435e-38f;
  static constexpr float kDenormScale = 8388608.0f;  // 2^23
  static constexpr float kDenormShift = 23.0f;
};

template <>
struct Consts<double> {
  static constexpr double kMagic = 6755399441055744.0;  // 1.5 * 2^52
  static constexpr double kBias = 1023.0;
  static constexpr double kTwoPowMant = 4503599627370496.0;  // 2^52
  static constexpr double kLog2e = 1.44269504088896338700e+00;
  // ln 2 split so that n * kLn2Hi is exact for |n| < 2^20.
  static constexpr double kLn2Hi = 6.93147180369123816490e-01;
  static constexpr double kLn2Lo = 1.90821492927058770002e-10;
  static constexpr double kExpLo = -746.0;  // e^x rounds to +0 for x <= -746
  static constexpr double kExpHi = 710.0;
  // |x| < 708: |n| <= 1021, so p * 2^n (p in [0.7, 1.42]) and 2^n are normal.
  static constexpr double kExpFastBound = 708.0;
  static constexpr double kTanhSat = 20.0;
  static constexpr int kExpDegree = 13;
  static constexpr int kLogTerms = 11;
  static constexpr std::uint64_t kMantMask = 0x000FFFFFFFFFFFFFull;
  static constexpr std::uint64_t kOneBits = 0x3FF0000000000000ull;
  static constexpr double kMinNormal = 2.2250738585072014e-308;
  static constexpr double kDenormScale = 4503599627370496.0;  // 2^52
  static constexpr double kDenormShift = 52.0;
};

// memcpy, not std::bit_cast: Emscripten 3.1.6's libc++ has no bit_cast.
template <class T, class B>
T from_bits(B b) {
  static_assert(sizeof(T) == sizeof(B));
  T x;
  std::memcpy(&x, &b, sizeof x);
  return x;
}

// Nearest integer (ties to even) of |x| < 2^(mant-1), as a float value.
template <class V>
typename V::Reg round_int(typename V::Reg x) {
  using C = Consts<typename V::Scalar>;
  const auto magic = V::set1(C::kMagic);
  return V::sub(V::add(x, magic), magic);
}

// 2^n for an integral n with a normal result (bias + n in [1, 2*bias]):
// adding kMagic + bias puts bias + n in the low mantissa bits, the shift
// moves them into the exponent field and drops everything above.
template <class V>
typename V::Reg pow2_int(typename V::Reg n) {
  using C = Consts<typename V::Scalar>;
  return V::shl_mant(V::add(n, V::set1(C::kMagic + C::kBias)));
}

// e^r - 1 = r * q(r) on |r| <= ln2/2 (plus rounding slack); returns q, the
// Taylor series of (e^r - 1)/r truncated at degree kExpDegree - 1.
template <class V>
typename V::Reg expm1_quot(typename V::Reg r) {
  using T = typename V::Scalar;
  using C = Consts<T>;
  // Coefficients 1/(k+1)!, k = 0..kExpDegree-1, Horner from the top.
  T coef[C::kExpDegree];
  T fact = 1;
  for (int k = 0; k < C::kExpDegree; ++k) {
    fact *= T(k + 1);
    coef[k] = T(1) / fact;
  }
  auto q = V::set1(coef[C::kExpDegree - 1]);
  for (int k = C::kExpDegree - 2; k >= 0; --k) {
    q = V::mul_add(q, r, V::set1(coef[k]));
  }
  return q;
}

// Cody-Waite reduction x = n ln2 + r, |r| <~ ln2/2. Written as mul_adds:
// fused on the FMA levels (one rounding less, one instruction each), and on
// the others a multiply then an add, bit for bit the x - n ln2 of the
// unfused form (x - y == -y + x exactly), so the pinned bits stand.
// `biased` is n + kMagic, whose low bits hold n as a two's-complement integer.
template <class V>
void reduce_ln2(typename V::Reg x, typename V::Reg& n, typename V::Reg& r,
                typename V::Reg& biased) {
  using C = Consts<typename V::Scalar>;
  const auto magic = V::set1(C::kMagic);
  biased = V::mul_add(x, V::set1(C::kLog2e), magic);
  n = V::sub(biased, magic);
  r = V::mul_add(n, V::set1(-C::kLn2Hi), x);
  r = V::mul_add(n, V::set1(-C::kLn2Lo), r);
}

// min(x, hi) and max(x, lo) for a NaN-free bound, by compare and select: a
// NaN x passes through (its compares are false). Two instructions where
// the traits' IEEE minimum / maximum take several (they order -0 and +0
// and pick among NaNs, which a clamp against a constant does not need).
template <class V>
typename V::Reg clamp_above(typename V::Reg x, typename V::Reg hi) {
  return V::select(V::lt(hi, x), hi, x);
}
template <class V>
typename V::Reg clamp_below(typename V::Reg x, typename V::Reg lo) {
  return V::select(V::lt(x, lo), lo, x);
}

// p * 2^n for integral n in [-150, 128] (f32; [-1075, 1024] f64), rounded
// once: 2^n as 2^n1 * 2^n2, both normal, so a subnormal result is rounded
// in the last multiply only and 2^128 / 2^1024 need no special exponent.
// Where the traits have scale_pow2 (AVX-512's vscalef: p * 2^floor(n),
// correctly rounded) it is one instruction giving the same bits.
template <class V>
typename V::Reg mul_pow2(typename V::Reg p, typename V::Reg n) {
  if constexpr (requires { V::scale_pow2(p, n); }) {
    return V::scale_pow2(p, n);
  } else {
    const auto n1 = round_int<V>(V::mul(n, V::set1(typename V::Scalar(0.5))));
    const auto n2 = V::sub(n, n1);
    return V::mul(V::mul(p, pow2_int<V>(n1)), pow2_int<V>(n2));
  }
}

// e^r for x = n ln2 + r (see reduce_ln2), |x| within the clamps.
template <class V>
typename V::Reg exp_reduced(typename V::Reg x, typename V::Reg& n, typename V::Reg& biased) {
  typename V::Reg r;
  reduce_ln2<V>(x, n, r, biased);
  return V::mul_add(r, expm1_quot<V>(r), V::set1(typename V::Scalar(1)));
}

// e^x on the whole range: clamped so n stays in mul_pow2's range (the
// clamped ends still overflow to +Inf / round to +0; a NaN passes through).
template <class V>
[[gnu::always_inline]] inline typename V::Reg vexp_general(typename V::Reg x) {
  using C = Consts<typename V::Scalar>;
  const auto xc = clamp_above<V>(clamp_below<V>(x, V::set1(C::kExpLo)), V::set1(C::kExpHi));
  typename V::Reg n, biased;
  const auto p = exp_reduced<V>(xc, n, biased);  // sets n: its own statement
  const auto y = mul_pow2<V>(p, n);
  return V::select(V::is_nan(x), V::add(x, x), y);
}

}  // namespace vmath_detail

template <class V>
[[gnu::always_inline]] inline typename V::Reg vexp(typename V::Reg x) {
  using C = vmath_detail::Consts<typename V::Scalar>;
  using namespace vmath_detail;
  // Common case, every lane |x| < kExpFastBound (false for a NaN) or below
  // kExpLo (-Inf included: a masked softmax entry, sigmoid's tail), where
  // vexp_general gives +0. Inside the bound, p * 2^n is normal and 2^n is
  // too, so adding n to p's exponent field is exact and gives
  // vexp_general's bits (its single rounding has nothing to round). No
  // clamps, no NaN select, no two-step scaling: about half the operations.
  const auto zero_lanes = V::lt(x, V::set1(C::kExpLo));
  const auto xs = V::select(zero_lanes, V::zero(), x);
  if (V::all_true(V::lt(V::abs(xs), V::set1(C::kExpFastBound)))) [[likely]] {
    typename V::Reg n, biased;
    const auto p = exp_reduced<V>(xs, n, biased);  // sets biased: its own statement
    return V::select(zero_lanes, V::zero(), V::add_bits(p, V::shl_mant(biased)));
  }
  return vexp_general<V>(x);
}

template <class V>
[[gnu::always_inline]] inline typename V::Reg vlog(typename V::Reg x) {
  using T = typename V::Scalar;
  using C = vmath_detail::Consts<T>;
  using namespace vmath_detail;
  // Subnormals: scale into the normal range first.
  const auto tiny = V::lt(x, V::set1(C::kMinNormal));
  const auto xs = V::select(tiny, V::mul(x, V::set1(C::kDenormScale)), x);
  auto e = V::sub(V::bit_or(V::shr_mant(xs), V::set1(C::kTwoPowMant)),
                  V::set1(C::kTwoPowMant + C::kBias));
  e = V::select(tiny, V::sub(e, V::set1(C::kDenormShift)), e);
  // Mantissa m in [1, 2), then moved to [sqrt(1/2), sqrt(2)).
  auto m = V::bit_or(V::bit_and(xs, V::set1(from_bits<T>(C::kMantMask))),
                     V::set1(from_bits<T>(C::kOneBits)));
  const auto big = V::lt(V::set1(T(1.41421356237309504880)), m);
  m = V::select(big, V::mul(m, V::set1(T(0.5))), m);
  e = V::select(big, V::add(e, V::set1(T(1))), e);
  // log(m) = log1p(f) with f = m - 1 exact; s = f / (2 + f), log1p(f) =
  // 2 atanh(s) = f - f^2/2 + s (f^2/2 + R(s^2)), R(z) = sum 2 z^k / (2k+1).
  const auto f = V::sub(m, V::set1(T(1)));
  const auto s = V::div(f, V::add(f, V::set1(T(2))));
  const auto z = V::mul(s, s);
  auto rz = V::set1(T(2) / T(2 * C::kLogTerms + 1));
  for (int k = C::kLogTerms - 1; k >= 1; --k) {
    rz = V::mul_add(rz, z, V::set1(T(2) / T(2 * k + 1)));
  }
  rz = V::mul(rz, z);
  const auto hfsq = V::mul(V::set1(T(0.5)), V::mul(f, f));
  // e ln2_hi + (f - (hfsq - (s (hfsq + R) + e ln2_lo))): the large part and
  // the exact e*ln2_hi are added last.
  const auto tail =
      V::sub(hfsq, V::mul_add(s, V::add(hfsq, rz), V::mul(e, V::set1(C::kLn2Lo))));
  auto y = V::add(V::mul(e, V::set1(C::kLn2Hi)), V::sub(f, tail));
  const T inf = std::numeric_limits<T>::infinity();
  y = V::select(V::eq(x, V::zero()), V::set1(-inf), y);
  y = V::select(V::lt(x, V::zero()), V::set1(std::numeric_limits<T>::quiet_NaN()), y);
  y = V::select(V::eq(x, V::set1(inf)), x, y);
  return V::select(V::is_nan(x), V::add(x, x), y);
}

template <class V>
[[gnu::always_inline]] inline typename V::Reg vtanh(typename V::Reg x) {
  using T = typename V::Scalar;
  using C = vmath_detail::Consts<T>;
  using namespace vmath_detail;
  // tanh|x| = em1 / (em1 + 2), em1 = e^(2|x|) - 1 = (2^n - 1) + 2^n r q(r):
  // for small |x| n = 0 and em1 = r q keeps full relative accuracy.
  const auto ax = clamp_above<V>(V::abs(x), V::set1(C::kTanhSat));
  const auto y2 = V::add(ax, ax);
  typename V::Reg n, r, biased;
  reduce_ln2<V>(y2, n, r, biased);
  const auto s = pow2_int<V>(n);
  const auto em1 = V::mul_add(s, V::mul(r, expm1_quot<V>(r)), V::sub(s, V::set1(T(1))));
  auto t = V::div(em1, V::add(em1, V::set1(T(2))));
  if constexpr (sizeof(T) == 4) {
    // |x| < 0.5 in f32: the odd Taylor series (terms shrink ~10x each) is
    // about 1 ulp better than the quotient's three roundings.
    const float c[] = {-1.0f / 3, 2.0f / 15, -17.0f / 315, 62.0f / 2835,
                       -1382.0f / 155925, 21844.0f / 6081075,
                       -929569.0f / 638512875, 6404582.0f / 10854718875,
                       -443861162.0f / 1856156927625};
    const auto z = V::mul(ax, ax);
    auto poly = V::set1(c[8]);
    for (int k = 7; k >= 0; --k) poly = V::mul_add(poly, z, V::set1(c[k]));
    const auto small = V::mul_add(ax, V::mul(z, poly), ax);
    t = V::select(V::lt(ax, V::set1(0.5f)), small, t);
  }
  t = V::bit_or(t, V::bit_and(x, V::set1(T(-0.0))));
  return V::select(V::is_nan(x), V::add(x, x), t);
}

template <class V>
[[gnu::always_inline]] inline typename V::Reg vsigmoid(typename V::Reg x) {
  using T = typename V::Scalar;
  // e = e^-|x| never overflows: 1/(1+e) for x >= 0, e/(1+e) for x < 0 keeps
  // the subnormal tail of sigmoid(-large).
  const auto e = vexp<V>(V::neg(V::abs(x)));
  const auto d = V::add(V::set1(T(1)), e);
  const auto num = V::select(V::lt(x, V::zero()), e, V::set1(T(1)));
  const auto y = V::div(num, d);
  return V::select(V::is_nan(x), V::add(x, x), y);
}

template <class V>
[[gnu::always_inline]] inline typename V::Reg vgelu(typename V::Reg x) {
  using T = typename V::Scalar;
  // 0.5 (1 + tanh u) = sigmoid(2u), 2u = 2 sqrt(2/pi) (x + 0.044715 x^3).
  const auto x3 = V::mul(V::mul(x, x), x);
  const auto inner = V::mul_add(V::set1(T(0.044715)), x3, x);
  const auto u2 = V::mul(V::set1(T(1.59576912160573071176)), inner);
  auto y = V::mul(x, vsigmoid<V>(u2));
  // -Inf * sigmoid(-Inf) = -Inf * 0 would be NaN; the limit is -0.
  const T inf = std::numeric_limits<T>::infinity();
  y = V::select(V::eq(x, V::set1(-inf)), V::set1(T(-0.0)), y);
  return y;
}

}  // namespace tessera::simd
