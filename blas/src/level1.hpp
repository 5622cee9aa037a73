// The level-1 BLAS routines beyond dot (axpy, scal, copy, swap, asum, nrm2,
// i?amax; real or complex T) with the reference BLAS's conventions, shared
// by the Fortran and CBLAS entry points:
//   - n <= 0 does nothing (the functions return 0);
//   - axpy, copy and swap take any increments: a negative one walks its
//     vector backwards from element (n-1)*|inc|, and 0 repeats one element
//     (for an output, the element is written n times, in order);
//   - scal, asum and i?amax do nothing (return 0) when incx <= 0, as the
//     reference does; nrm2 takes any incx (0: n copies of x[0]).
//
// These are bandwidth-bound loops over one or two vectors: they run on the
// calling thread, and the contiguous forms are left to the compiler's
// vectoriser at the library's baseline ISA. Each result is computed by one
// fixed operation order, so it never depends on the thread count.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "blas/src/scalar.hpp"

namespace tessera::blas {

// Offset of logical element 0 of a vector of n elements with increment inc.
inline std::int64_t first_element(std::int64_t n, std::int64_t inc) {
  return inc < 0 ? (n - 1) * -inc : 0;
}

template <class T>
void axpy(std::int64_t n, T alpha, const T* x, std::int64_t incx, T* y, std::int64_t incy) {
  // The reference returns before reading x when alpha is 0, so y keeps its
  // values (a NaN or Inf in x does not reach it).
  if (n <= 0 || alpha == T(0)) return;
  if (incx == 1 && incy == 1) {
    for (std::int64_t i = 0; i < n; ++i) y[i] += alpha * x[i];
    return;
  }
  std::int64_t ix = first_element(n, incx), iy = first_element(n, incy);
  for (std::int64_t i = 0; i < n; ++i, ix += incx, iy += incy) y[iy] += alpha * x[ix];
}

template <class T>
void scal(std::int64_t n, T alpha, T* x, std::int64_t incx) {
  if (n <= 0 || incx <= 0) return;
  // alpha * x for every element, alpha == 0 included (0 * NaN stays NaN,
  // as in the reference).
  if (incx == 1) {
    for (std::int64_t i = 0; i < n; ++i) x[i] *= alpha;
    return;
  }
  for (std::int64_t i = 0; i < n; ++i) x[i * incx] *= alpha;
}

template <class T>
void copy(std::int64_t n, const T* x, std::int64_t incx, T* y, std::int64_t incy) {
  if (n <= 0) return;
  std::int64_t ix = first_element(n, incx), iy = first_element(n, incy);
  for (std::int64_t i = 0; i < n; ++i, ix += incx, iy += incy) y[iy] = x[ix];
}

template <class T>
void swap(std::int64_t n, T* x, std::int64_t incx, T* y, std::int64_t incy) {
  if (n <= 0) return;
  std::int64_t ix = first_element(n, incx), iy = first_element(n, incy);
  for (std::int64_t i = 0; i < n; ++i, ix += incx, iy += incy) {
    const T t = x[ix];
    x[ix] = y[iy];
    y[iy] = t;
  }
}

// Sum of |x_i| (|re| + |im| for complex data, as scasum/dzasum).
template <class T>
real_of<T> asum(std::int64_t n, const T* x, std::int64_t incx) {
  if (n <= 0 || incx <= 0) return real_of<T>(0);
  real_of<T> sum = 0;
  for (std::int64_t i = 0; i < n; ++i) sum += abs1(x[i * incx]);
  return sum;
}

// 1-based index of the first element of largest |x| (|re| + |im| for
// complex data); 0 when n <= 0 or incx <= 0. A NaN is never larger than
// what came before it (the reference's comparison), so only a leading NaN
// is reported.
template <class T>
std::int64_t iamax(std::int64_t n, const T* x, std::int64_t incx) {
  if (n <= 0 || incx <= 0) return 0;
  std::int64_t best = 0;
  real_of<T> best_abs = abs1(x[0]);
  for (std::int64_t i = 1; i < n; ++i) {
    const real_of<T> a = abs1(x[i * incx]);
    if (a > best_abs) {
      best = i;
      best_abs = a;
    }
  }
  return best + 1;
}

// Euclidean norm without overflow or underflow in the squares.
//
// f32: the squares are summed in double, whose range holds the square of
// every float (denormals included), so no scaling is needed and the result
// is rounded once.
//
// f64: Blue's three accumulators (J. L. Blue, ACM TOMS 4(1), 1978; the
// thresholds as in Anderson, ACM TOMS 44(1), 2017): elements above `big`
// are summed scaled down, below `small` scaled up, the rest unscaled; all
// scale factors are powers of two, so scaling is exact. Inf gives Inf, a
// NaN gives NaN.
//
// `value(i)` reads the i-th of `count` real values (a complex vector is
// read as its parts, re then im of each element).
template <class Value>
float nrm2_sum_f32(std::int64_t count, Value value) {
  double sum = 0.0;
  for (std::int64_t i = 0; i < count; ++i) {
    const double v = value(i);
    sum += v * v;
  }
  return static_cast<float>(std::sqrt(sum));
}

template <class Value>
double nrm2_sum_f64(std::int64_t count, Value value) {
  using limits = std::numeric_limits<double>;
  constexpr int kDigits = limits::digits;        // 53
  constexpr int kMinExp = limits::min_exponent;  // -1021
  constexpr int kMaxExp = limits::max_exponent;  // 1024
  // Below `small` a square could underflow, above `big` a sum of n squares
  // could overflow (n up to 2^digits).
  const double small = std::ldexp(1.0, (kMinExp - 1) / 2);                   // 2^-511
  const double big = std::ldexp(1.0, (kMaxExp - kDigits + 1) / 2);          // 2^486
  const double scale_small_up = std::ldexp(1.0, -((kMinExp - kDigits) / 2));  // 2^537
  const double scale_big_down = std::ldexp(1.0, -((kMaxExp + kDigits) / 2));  // 2^-538
  double sum_small = 0.0, sum_mid = 0.0, sum_big = 0.0;
  for (std::int64_t i = 0; i < count; ++i) {
    const double a = std::fabs(value(i));
    if (a > big) {
      const double s = a * scale_big_down;
      sum_big += s * s;
    } else if (a < small) {
      const double s = a * scale_small_up;
      sum_small += s * s;
    } else {
      sum_mid += a * a;  // a NaN lands here (both comparisons false)
    }
  }
  if (sum_big > 0.0) {
    // Mid-range squares are negligible next to a big one unless the big
    // sum is small; fold them in scaled the same way. A NaN in sum_mid
    // propagates through the addition.
    if (sum_mid > 0.0 || std::isnan(sum_mid)) {
      sum_big += (sum_mid * scale_big_down) * scale_big_down;
    }
    return std::sqrt(sum_big) / scale_big_down;
  }
  if (sum_small > 0.0) {
    if (sum_mid > 0.0 || std::isnan(sum_mid)) {
      // Both parts matter: combine the two norms as hypot does.
      const double mid = std::sqrt(sum_mid);
      if (std::isnan(mid)) return mid;
      const double tiny = std::sqrt(sum_small) / scale_small_up;
      const double hi = mid > tiny ? mid : tiny;
      const double lo = mid > tiny ? tiny : mid;
      const double r = lo / hi;
      return hi * std::sqrt(1.0 + r * r);
    }
    return std::sqrt(sum_small) / scale_small_up;
  }
  return std::sqrt(sum_mid);
}

// The norm of the `count` real values value(0..count-1).
template <class R, class Value>
R nrm2_of(std::int64_t count, Value value) {
  if constexpr (std::is_same_v<R, float>) {
    return nrm2_sum_f32(count, value);
  } else {
    return nrm2_sum_f64(count, value);
  }
}

template <class T>
real_of<T> nrm2(std::int64_t n, const T* x, std::int64_t incx) {
  using R = real_of<T>;
  if (n <= 0) return R(0);
  // Every element is read once whichever way the vector is walked, so a
  // negative increment reads the same set forwards; 0 reads x[0] n times.
  const std::int64_t stride = incx < 0 ? -incx : incx;
  const auto part = [x, stride](std::int64_t i) -> R {
    if constexpr (kIsComplex<T>) {
      const T v = x[(i >> 1) * stride];
      return (i & 1) != 0 ? v.imag() : v.real();
    } else {
      return x[i * stride];
    }
  };
  const std::int64_t parts = kIsComplex<T> ? 2 : 1;
  if (incx == 0) {
    // n copies of x[0]: sqrt(n) * |x[0]|, with no sum that could overflow.
    return static_cast<R>(std::sqrt(static_cast<double>(n))) * nrm2_of<R>(parts, part);
  }
  return nrm2_of<R>(n * parts, part);
}

}  // namespace tessera::blas
