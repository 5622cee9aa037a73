// libFuzzer harness: the C API's gemv and dot (f32/f64) with random sizes,
// layouts, transposes, increments (negative and 0 included), leading
// dimensions around their minimum, alpha/beta from {0, 1, -1, 0.5, NaN},
// null pointers, y aliasing x or A, and thread counts. Properties as in
// fuzz_gemm.cc: no write outside y's footprint, none at all on failure
// (which names its reason), only valid arguments accepted, plainly valid
// ones never rejected, and results within the rounding bound of a double
// reference, with the elements between y's strided entries untouched.
#include <fuzzer/FuzzedDataProvider.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "tessera/tessera.h"
#include "tests/fuzz/fuzz_support.hpp"

namespace tessera::fuzz {
namespace {

long long pick_inc(FuzzedDataProvider& in) { return in.ConsumeIntegralInRange<long long>(-3, 3); }

// Element i of a BLAS vector of `len` entries at increment inc (negative:
// from the end), as an index into its storage.
std::size_t vector_index(long long i, long long len, long long inc) {
  return static_cast<std::size_t>(inc > 0 ? i * inc : (len - 1 - i) * -inc);
}

std::size_t vector_footprint(long long len, long long inc) {
  if (len <= 0 || inc == 0) return 1;
  return static_cast<std::size_t>((len - 1) * (inc > 0 ? inc : -inc) + 1);
}

template <class T>
void run_dot(FuzzedDataProvider& in) {
  const long long n = in.ConsumeIntegralInRange<long long>(-2, 9000);
  const long long incx = pick_inc(in), incy = pick_inc(in);
  const bool x_null = in.ConsumeIntegralInRange<int>(0, 19) == 0;
  const int threads = in.ConsumeIntegralInRange<int>(-1, 3);
  std::vector<T> x(vector_footprint(n, incx)), y(vector_footprint(n, incy));
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = T(int(i * 7 % 9) - 4) / T(4);
  for (std::size_t i = 0; i < y.size(); ++i) y[i] = T(int(i * 5 % 7) - 3);
  T result = T(42);
  tsr_status s;
  if constexpr (sizeof(T) == 4) {
    s = tsr_sdot(nullptr, n, x_null ? nullptr : x.data(), incx, y.data(), incy, &result, threads);
  } else {
    s = tsr_ddot(nullptr, n, x_null ? nullptr : x.data(), incx, y.data(), incy, &result, threads);
  }
  // tessera's rule (tessera/blas1.hpp): increments are never 0, even for
  // n == 0 (libtessera_blas handles the BLAS's 0 increments itself).
  const bool fit = n >= 0 && incx != 0 && incy != 0;
  if (s != TSR_OK) {
    require(result == T(42), "dot wrote its result on failure");
    require(!(fit && !x_null), "valid dot rejected", tsr_last_error_message());
    return;
  }
  require(fit, "invalid dot accepted");
  if (x_null && n > 0) fail("dot accepted a null x");
  double sum = 0, magnitude = 0;
  for (long long i = 0; i < n; ++i) {
    const double p = double(x[vector_index(i, n, incx)]) * y[vector_index(i, n, incy)];
    sum += p;
    magnitude += std::fabs(p);
  }
  const double bound = 2 * (n + 2) * std::numeric_limits<T>::epsilon() * magnitude + 1e-30;
  require(std::fabs(result - sum) <= bound, "dot outside the rounding bound");
}

template <class T>
void run_gemv(FuzzedDataProvider& in) {
  const int layout = pick_enum(in), trans = pick_enum(in);
  const long long m = in.ConsumeIntegralInRange<long long>(-2, 70);
  const long long n = in.ConsumeIntegralInRange<long long>(-2, 70);
  const bool row = layout != 1;
  const long long inner = row ? n : m, outer = row ? m : n;
  const long long lda = std::max(1LL, inner) + in.ConsumeIntegralInRange<long long>(-3, 4);
  const long long incx = pick_inc(in), incy = pick_inc(in);
  const T alpha = pick_scalar<T>(in), beta = pick_scalar<T>(in);
  const int aliasing = in.ConsumeIntegralInRange<int>(0, 19);  // 0: y is x, 1: y is A, 2: null A
  const int threads = in.ConsumeIntegralInRange<int>(-1, 3);
  const bool t = trans == 1;
  const long long xlen = t ? m : n, ylen = t ? n : m;

  const bool fit = (layout == 0 || layout == 1) && (trans == 0 || trans == 1) && m >= 0 &&
                   n >= 0 && lda >= std::max(1LL, inner) && incx != 0 && incy != 0;
  std::vector<T> a(fit ? std::max<std::size_t>(1, footprint(outer, inner, lda)) : 1);
  std::vector<T> x(vector_footprint(xlen, incx));
  for (std::size_t i = 0; i < a.size(); ++i) a[i] = T(int(i * 7 % 9) - 4);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = T(int(i * 5 % 7) - 3);
  Guarded<T> y(vector_footprint(ylen, incy));
  const std::vector<T> y0(y.data(), y.data() + y.size());
  T* y_ptr = aliasing == 0 ? x.data() : aliasing == 1 ? a.data() : y.data();
  const T* a_ptr = aliasing == 2 ? nullptr : a.data();

  tsr_status s;
  if constexpr (sizeof(T) == 4) {
    s = tsr_sgemv(nullptr, static_cast<tsr_layout>(layout), static_cast<tsr_transpose>(trans), m, n,
                  alpha, a_ptr, lda, x.data(), incx, beta, y_ptr, incy, threads);
  } else {
    s = tsr_dgemv(nullptr, static_cast<tsr_layout>(layout), static_cast<tsr_transpose>(trans), m, n,
                  alpha, a_ptr, lda, x.data(), incx, beta, y_ptr, incy, threads);
  }
  require(y.intact(), "a write outside y's footprint");
  if (s != TSR_OK) {
    require(y.unchanged(), "y written by a failed call", tsr_last_error_message());
    require(!(fit && aliasing > 2), "valid gemv rejected", tsr_last_error_message());
    return;
  }
  // m == 0 or n == 0 return before some checks (BLAS's quick return), so
  // validity is required of calls that do work.
  if (m > 0 && n > 0) require(fit, "invalid gemv accepted");
  if (aliasing <= 2 || !fit) return;
  std::vector<bool> inside(y.size(), false);
  const double eps = std::numeric_limits<T>::epsilon();
  for (long long i = 0; i < ylen; ++i) {
    double sum = 0, magnitude = 0;
    for (long long p = 0; p < xlen; ++p) {
      const long long r = t ? p : i, c = t ? i : p;
      const double v = double(a[static_cast<std::size_t>(row ? r * lda + c : c * lda + r)]) *
                       x[vector_index(p, xlen, incx)];
      sum += v;
      magnitude += std::fabs(v);
    }
    const std::size_t yi = vector_index(i, ylen, incy);
    inside[yi] = true;
    const double scaled = beta == T(0) ? 0.0 : double(beta) * y0[yi];
    const double want = (alpha == T(0) || xlen == 0) ? scaled : double(alpha) * sum + scaled;
    const double got = y.data()[yi];
    if (m == 0 || n == 0) {
      require(std::memcmp(&y.data()[yi], &y0[yi], sizeof(T)) == 0, "empty gemv wrote y");
      continue;
    }
    if (std::isnan(want) || std::isnan(got)) {
      require(std::isnan(want) && std::isnan(got), "NaN mismatch");
      continue;
    }
    const double product =
        (xlen == 0 || alpha == T(0)) ? 0.0 : std::fabs(double(alpha)) * magnitude;
    const double bound = 4 * (xlen + 2) * eps * (product + std::fabs(scaled)) + 1e-30;
    require(std::fabs(got - want) <= bound, "gemv outside the rounding bound");
  }
  for (std::size_t i = 0; i < y.size(); ++i) {
    if (!inside[i]) require(std::memcmp(&y.data()[i], &y0[i], sizeof(T)) == 0, "a gap in y written");
  }
}

}  // namespace
}  // namespace tessera::fuzz

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzedDataProvider in(data, size);
  switch (in.ConsumeIntegralInRange<int>(0, 3)) {
    case 0: tessera::fuzz::run_dot<float>(in); break;
    case 1: tessera::fuzz::run_dot<double>(in); break;
    case 2: tessera::fuzz::run_gemv<float>(in); break;
    default: tessera::fuzz::run_gemv<double>(in); break;
  }
  return 0;
}
