// Plane rotations, as the reference BLAS (LAPACK 3.11) defines them:
//   rot    apply (c, s) to two vectors (srot, drot; csrot, zdrot with real
//          c and s on complex vectors);
//   rotg   construct (c, s) zeroing b (srotg, drotg; crotg, zrotg);
//   rotm   apply a modified Givens transformation H (srotm, drotm);
//   rotmg  construct one (srotmg, drotmg).
// rotg follows LAPACK 3.10's safe-scaling definitions (E. Anderson,
// "Algorithm 978: Safe Scaling in the Level 1 BLAS", ACM TOMS 44(1), 2017):
// the sum of squares is formed on values scaled into a range where it
// cannot overflow or underflow.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

#include "blas/src/scalar.hpp"

namespace tessera::blas {

// [x; y] := [c s; -s c] [x; y] elementwise.
template <class T, class R>
void rot(std::int64_t n, T* xp, std::int64_t incx, T* yp, std::int64_t incy, R c, R s) {
  if (n <= 0) return;
  StridedVector<T> x(xp, n, incx), y(yp, n, incy);
  for (std::int64_t i = 0; i < n; ++i) {
    const T xi = x[i], yi = y[i];
    x[i] = c * xi + s * yi;
    y[i] = c * yi - s * xi;
  }
}

// The smallest positive normal R whose reciprocal is finite, and that
// reciprocal: the scaling range of rotg.
template <class R>
R safe_min() {
  using limits = std::numeric_limits<R>;
  return std::ldexp(R(1), std::max(limits::min_exponent - 1, 1 - limits::max_exponent));
}

// Real rotg: on return a holds r and b holds z (the reconstruction value:
// s when |a| > |b|, else 1/c, or 1 when c is 0).
template <class R>
void rotg(R* a, R* b, R* c, R* s) {
  const R anorm = std::fabs(*a), bnorm = std::fabs(*b);
  if (bnorm == R(0)) {
    *c = 1;
    *s = 0;
    *b = 0;
    return;
  }
  if (anorm == R(0)) {
    *c = 0;
    *s = 1;
    *a = *b;
    *b = 1;
    return;
  }
  const R safmin = safe_min<R>(), safmax = 1 / safmin;
  const R scale = std::min(safmax, std::max({safmin, anorm, bnorm}));
  const R roe = anorm > bnorm ? *a : *b;
  const R qa = *a / scale, qb = *b / scale;
  const R r = std::copysign(R(1), roe) * (scale * std::sqrt(qa * qa + qb * qb));
  *c = *a / r;
  *s = *b / r;
  const R z = anorm > bnorm ? *s : (*c != R(0) ? 1 / *c : R(1));
  *a = r;
  *b = z;
}

// Complex rotg: c real, s complex, with
//   c = |a| / norm, s = sgn(a) conj(b) / norm, r = sgn(a) norm,
// norm = sqrt(|a|^2 + |b|^2), sgn(a) = a / |a| (1 when a is 0). On return
// a holds r.
template <class R>
void rotg(std::complex<R>* a, const std::complex<R>* b, R* c, std::complex<R>* s) {
  using C = std::complex<R>;
  const C av = *a, bv = *b;
  if (bv == C(0)) {
    *c = 1;
    *s = 0;
    return;
  }
  const R safmin = safe_min<R>(), safmax = 1 / safmin;
  // |v| of a complex value, its parts scaled before squaring.
  const auto modulus = [&](C v) {
    const R m = std::max(std::fabs(v.real()), std::fabs(v.imag()));
    if (m == R(0)) return R(0);
    const R scale = std::min(safmax, std::max(safmin, m));
    const R re = v.real() / scale, im = v.imag() / scale;
    return scale * std::sqrt(re * re + im * im);
  };
  const R bmod = modulus(bv);
  if (av == C(0)) {
    *c = 0;
    *s = std::conj(bv) / bmod;
    *a = bmod;
    return;
  }
  const R amod = modulus(av);
  const R scale = std::min(safmax, std::max({safmin, amod, bmod}));
  const R qa = amod / scale, qb = bmod / scale;
  const R norm = scale * std::sqrt(qa * qa + qb * qb);
  const C sgn_a = av / amod;
  *c = amod / norm;
  *s = sgn_a * std::conj(bv) / norm;
  *a = sgn_a * norm;
}

// The modified Givens transformation H described by param (param[0] is
// the flag: -1 full H = [h11 h12; h21 h22] from param[1..4] as h11, h21,
// h12, h22; 0: unit diagonal, h21 and h12 given; 1: h11 and h22 given,
// h12 = 1, h21 = -1; -2: the identity), applied as [x; y] := H [x; y].
template <class R>
void rotm(std::int64_t n, R* xp, std::int64_t incx, R* yp, std::int64_t incy, const R* param) {
  const R flag = param[0];
  if (n <= 0 || flag == R(-2)) return;
  StridedVector<R> x(xp, n, incx), y(yp, n, incy);
  R h11 = 1, h12 = 0, h21 = 0, h22 = 1;
  if (flag < R(0)) {
    h11 = param[1], h21 = param[2], h12 = param[3], h22 = param[4];
  } else if (flag == R(0)) {
    h21 = param[2], h12 = param[3];
  } else {
    h11 = param[1], h12 = 1, h21 = -1, h22 = param[4];
  }
  for (std::int64_t i = 0; i < n; ++i) {
    const R w = x[i], z = y[i];
    x[i] = w * h11 + z * h12;
    y[i] = w * h21 + z * h22;
  }
}

// Constructs H (param, as rotm reads it) zeroing the second component of
// (sqrt(d1) x1, sqrt(d2) y1), updating d1, d2 and x1; the scaled d1 and
// d2 are kept inside [1/4096^2, 4096^2] by rescaling H (the reference's
// gamma). The reference's steps and flags, case by case.
template <class R>
void rotmg(R* d1, R* d2, R* x1, R y1, R* param) {
  // The reference's constants: 4096, 4096^2 and the decimal 5.9604645e-8
  // for 4096^-2 (2^-24 in single precision, 2^-24 + 2e-16 in double).
  constexpr R kGamma = 4096, kGammaSq = 16777216, kRGammaSq = R(5.9604645e-8);
  R flag, h11 = 0, h12 = 0, h21 = 0, h22 = 0;
  const auto zero_all = [&] {
    flag = -1;
    h11 = h12 = h21 = h22 = 0;
    *d1 = *d2 = *x1 = 0;
  };
  if (*d1 < R(0)) {
    zero_all();
  } else {
    const R p2 = *d2 * y1;
    if (p2 == R(0)) {
      param[0] = -2;
      return;
    }
    const R p1 = *d1 * *x1;
    const R q2 = p2 * y1, q1 = p1 * *x1;
    if (std::fabs(q1) > std::fabs(q2)) {
      h21 = -y1 / *x1;
      h12 = p2 / p1;
      const R u = 1 - h12 * h21;
      if (u > R(0)) {
        flag = 0;
        *d1 /= u;
        *d2 /= u;
        *x1 *= u;
      } else {
        // Only reachable through rounding (the reference keeps it for
        // safety).
        zero_all();
      }
    } else if (q2 < R(0)) {
      zero_all();
    } else {
      flag = 1;
      h11 = p1 / p2;
      h22 = *x1 / y1;
      const R u = 1 + h11 * h22;
      const R t = *d2 / u;
      *d2 = *d1 / u;
      *d1 = t;
      *x1 = y1 * u;
    }
    // Rescaling makes H a full matrix (flag -1); as in the reference, an
    // H that was already full has its h21 and h12 reset to -1 and 1 on
    // every step.
    const auto make_full = [&] {
      if (flag == R(0)) {
        h11 = 1;
        h22 = 1;
      } else {
        h21 = -1;
        h12 = 1;
      }
      flag = -1;
    };
    if (*d1 != R(0)) {
      while (*d1 <= kRGammaSq || *d1 >= kGammaSq) {
        make_full();
        if (*d1 <= kRGammaSq) {
          *d1 *= kGammaSq;
          *x1 /= kGamma;
          h11 /= kGamma;
          h12 /= kGamma;
        } else {
          *d1 /= kGammaSq;
          *x1 *= kGamma;
          h11 *= kGamma;
          h12 *= kGamma;
        }
      }
    }
    if (*d2 != R(0)) {
      while (std::fabs(*d2) <= kRGammaSq || std::fabs(*d2) >= kGammaSq) {
        make_full();
        if (std::fabs(*d2) <= kRGammaSq) {
          *d2 *= kGammaSq;
          h21 /= kGamma;
          h22 /= kGamma;
        } else {
          *d2 /= kGammaSq;
          h21 *= kGamma;
          h22 *= kGamma;
        }
      }
    }
  }
  if (flag < R(0)) {
    param[1] = h11;
    param[2] = h21;
    param[3] = h12;
    param[4] = h22;
  } else if (flag == R(0)) {
    param[2] = h21;
    param[3] = h12;
  } else {
    param[1] = h11;
    param[4] = h22;
  }
  param[0] = flag;
}

}  // namespace tessera::blas
