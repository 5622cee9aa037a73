// The scalar vocabulary the BLAS templates are written in, so that one
// body serves s, d, c and z: the real type under a complex one, the
// conjugate that is the identity on real data, the BLAS's cheap modulus
// |re| + |im| (CABS1) and the real part.
//
// Complex arithmetic: the library is compiled with -fcx-fortran-rules
// (blas/CMakeLists.txt), so a complex product is the textbook four
// multiplies and two adds and a quotient is range-reduced, as gfortran
// computes the reference BLAS's COMPLEX expressions, instead of C's
// Annex G products that call a library function to repair Inf and NaN.
#pragma once

#include <cmath>
#include <complex>
#include <cstdint>
#include <type_traits>

namespace tessera::blas {

using c32 = std::complex<float>;
using c64 = std::complex<double>;

template <class T>
struct RealOf {
  using type = T;
};
template <class R>
struct RealOf<std::complex<R>> {
  using type = R;
};
template <class T>
using real_of = typename RealOf<T>::type;

template <class T>
inline constexpr bool kIsComplex = !std::is_same_v<T, real_of<T>>;

template <class T>
T conj_if(T v, bool conj) {
  if constexpr (kIsComplex<T>) {
    return conj ? std::conj(v) : v;
  } else {
    (void)conj;
    return v;
  }
}

template <class T>
real_of<T> real_part(T v) {
  if constexpr (kIsComplex<T>) {
    return v.real();
  } else {
    return v;
  }
}

// CABS1: |re(v)| + |im(v)| (|v| for real data), the measure i?amax and
// ?asum use.
template <class T>
real_of<T> abs1(T v) {
  if constexpr (kIsComplex<T>) {
    return std::fabs(v.real()) + std::fabs(v.imag());
  } else {
    return std::fabs(v);
  }
}

// The C types a Fortran COMPLEX function returns its value as (gfortran's
// convention is C's `float _Complex`): std::complex has the same layout
// and registers, but is a class, which an extern "C" function should not
// return.
using c_complex_float = __complex__ float;
using c_complex_double = __complex__ double;
inline c_complex_float to_c(std::complex<float> v) {
  c_complex_float r;
  __real__ r = v.real();
  __imag__ r = v.imag();
  return r;
}
inline c_complex_double to_c(std::complex<double> v) {
  c_complex_double r;
  __real__ r = v.real();
  __imag__ r = v.imag();
  return r;
}
template <class C>
auto from_c(C v) {
  return std::complex<decltype(+__real__ v)>(__real__ v, __imag__ v);
}

// Element i (0-based, logical) of a BLAS vector of n elements with
// increment inc: a negative increment walks it backwards from
// (n-1)*|inc|, 0 repeats one element.
template <class T>
struct StridedVector {
  T* base;
  std::int64_t inc;
  StridedVector(T* p, std::int64_t n, std::int64_t increment)
      : base(p + (increment < 0 && n > 0 ? (n - 1) * -increment : 0)), inc(increment) {}
  T& operator[](std::int64_t i) const { return base[i * inc]; }
};

}  // namespace tessera::blas
