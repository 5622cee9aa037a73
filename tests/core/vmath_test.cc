// core/src/simd/vmath.hpp against long double std:: references, on the
// vector traits this test binary can run without per-ISA flags (scalar and
// the target's baseline 128-bit level). Every ISA level is also covered
// through the elementwise ops (elementwise_ops_test.cc).
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

#include "core/src/simd/vec_scalar.hpp"
#include "core/src/simd/vmath.hpp"
#if defined(__SSE2__)
#include "core/src/simd/vec_sse2.hpp"
#endif
#if defined(__wasm_simd128__)
#include "core/src/simd/vec_simd128.hpp"
#endif
#if defined(__aarch64__)
#include "core/src/simd/vec_neon.hpp"
#endif

namespace {

using tessera::simd::vexp;
using tessera::simd::vgelu;
using tessera::simd::vlog;
using tessera::simd::vsigmoid;
using tessera::simd::vtanh;

enum class Fn { kExp, kLog, kTanh, kSigmoid, kGelu };

template <class V>
typename V::Reg apply(Fn fn, typename V::Reg x) {
  switch (fn) {
    case Fn::kExp: return vexp<V>(x);
    case Fn::kLog: return vlog<V>(x);
    case Fn::kTanh: return vtanh<V>(x);
    case Fn::kSigmoid: return vsigmoid<V>(x);
    case Fn::kGelu: return vgelu<V>(x);
  }
  return x;
}

long double reference(Fn fn, long double x) {
  switch (fn) {
    case Fn::kExp: return std::exp(x);
    case Fn::kLog: return std::log(x);
    case Fn::kTanh: return std::tanh(x);
    case Fn::kSigmoid: return 1.0L / (1.0L + std::exp(-x));
    case Fn::kGelu: {
      const long double u = std::sqrt(2.0L / 3.14159265358979323846264338327950288L) *
                            (x + 0.044715L * x * x * x);
      return 0.5L * x * (1.0L + std::tanh(u));
    }
  }
  return x;
}

// Runs V over xs (tail padded with the last value).
template <class V>
std::vector<typename V::Scalar> run(Fn fn, const std::vector<typename V::Scalar>& xs) {
  using T = typename V::Scalar;
  std::vector<T> out(xs.size());
  for (std::size_t i = 0; i < xs.size(); i += V::kLanes) {
    T in[64], res[64];
    for (int l = 0; l < V::kLanes; ++l) in[l] = xs[std::min(i + l, xs.size() - 1)];
    V::store(res, apply<V>(fn, V::load(in)));
    for (int l = 0; l < V::kLanes && i + l < xs.size(); ++l) out[i + l] = res[l];
  }
  return out;
}

// Error in units of the last place of the correctly rounded result's binade
// (subnormal ulp below the normal range).
template <class T>
double ulp_error(T got, long double want) {
  if (std::isnan(want)) return std::isnan(got) ? 0.0 : 1e30;
  if (std::isinf(want) || std::isinf(got)) {
    return (static_cast<long double>(got) == want) ? 0.0 : 1e30;
  }
  const T rounded = static_cast<T>(want);
  int e = 0;
  std::frexp(std::fabs(static_cast<long double>(rounded)) > 0 ? rounded : T(1), &e);
  const int min_e = std::numeric_limits<T>::min_exponent;
  e = std::max(e, min_e);
  const long double ulp = std::ldexp(1.0L, e - std::numeric_limits<T>::digits);
  if (rounded == 0) {
    return static_cast<double>(std::fabs(got - want) /
                               std::ldexp(1.0L, min_e - std::numeric_limits<T>::digits));
  }
  return static_cast<double>(std::fabs(static_cast<long double>(got) - want) / ulp);
}

template <class T>
std::vector<T> samples(T lo, T hi, int n) {
  std::vector<T> xs;
  for (int i = 0; i <= n; ++i) xs.push_back(lo + (hi - lo) * T(i) / T(n));
  return xs;
}

template <class V>
double max_ulp(Fn fn, const std::vector<typename V::Scalar>& xs) {
  const auto out = run<V>(fn, xs);
  double worst = 0;
  for (std::size_t i = 0; i < xs.size(); ++i) {
    const double err = ulp_error(out[i], reference(fn, xs[i]));
    if (err > worst) worst = err;
  }
  return worst;
}

template <class V>
void check_level(const char* name) {
  using T = typename V::Scalar;
  const bool f32 = sizeof(T) == 4;
  const double bound = f32 ? 2.0 : 4.0;
  CAPTURE(name);
  CHECK(max_ulp<V>(Fn::kExp, samples<T>(T(-103), T(88.7), 200000)) <= bound);
  CHECK(max_ulp<V>(Fn::kLog, samples<T>(T(1e-6), T(1e6), 200000)) <= bound);
  CHECK(max_ulp<V>(Fn::kLog, samples<T>(T(0.5), T(2), 200000)) <= bound);
  CHECK(max_ulp<V>(Fn::kTanh, samples<T>(T(-12), T(12), 200000)) <= bound);
  CHECK(max_ulp<V>(Fn::kTanh, samples<T>(T(-0.01), T(0.01), 200000)) <= bound);
  // sigmoid f32: e/(1+e) rounds three times; 2.09 ulp measured.
  CHECK(max_ulp<V>(Fn::kSigmoid, samples<T>(T(-100), T(40), 200000)) <= (f32 ? 2.1 : bound));

  const T inf = std::numeric_limits<T>::infinity();
  const T nan = std::numeric_limits<T>::quiet_NaN();
  const T denorm = std::numeric_limits<T>::denorm_min();
  const std::vector<T> special = {T(0), T(-0.0), inf, -inf, nan, denorm, -denorm,
                                  std::numeric_limits<T>::max(),
                                  std::numeric_limits<T>::lowest(),
                                  std::numeric_limits<T>::min()};
  for (Fn fn : {Fn::kExp, Fn::kLog, Fn::kTanh, Fn::kSigmoid}) {
    const auto out = run<V>(fn, special);
    for (std::size_t i = 0; i < special.size(); ++i) {
      CAPTURE(static_cast<int>(fn));
      CAPTURE(special[i]);
      const long double want = reference(fn, special[i]);
      CHECK(ulp_error(out[i], want) <= bound);
      if (want == 0 || std::isinf(want)) {
        CHECK(std::signbit(out[i]) == std::signbit(want));
      }
    }
  }
  // Thresholds: exp overflow / underflow, tanh saturation, sign of zero.
  CHECK(run<V>(Fn::kExp, {T(f32 ? 88.8f : 709.8)})[0] == inf);
  CHECK(run<V>(Fn::kExp, {T(f32 ? -104.0f : -746.0)})[0] == T(0));
  CHECK(run<V>(Fn::kTanh, {T(f32 ? 9.1f : 19.2)})[0] == T(1));
  CHECK(run<V>(Fn::kTanh, {T(f32 ? -9.1f : -19.2)})[0] == T(-1));
  CHECK(std::signbit(run<V>(Fn::kTanh, {T(-0.0)})[0]));
  CHECK(run<V>(Fn::kGelu, {-inf})[0] == T(0));
  CHECK(run<V>(Fn::kGelu, {inf})[0] == inf);
  CHECK(std::isnan(run<V>(Fn::kGelu, {nan})[0]));
}

template <class T>
constexpr T kPositiveZero = T(0);

// vexp's in-range shortcut (exponent-field add) against the general path
// (clamps, two-step scaling), bit for bit: every x of a dense sweep across
// the whole finite range, and every float within 64 ulps of +-kExpFastBound
// on both sides, in vectors with all lanes inside the bound (so the
// shortcut runs) and in vectors whose last lane is a NaN (so it cannot);
// then vectors mixing lanes inside the bound with lanes below kExpLo.
template <class V>
void check_exp_shortcut(const char* name) {
  using T = typename V::Scalar;
  using C = tessera::simd::vmath_detail::Consts<T>;
  CAPTURE(name);
  std::vector<T> xs = samples<T>(T(C::kExpLo - 8), T(C::kExpHi + 8), 100000);
  for (T edge : {T(C::kExpFastBound), T(-C::kExpFastBound)}) {
    T x = edge;
    for (int i = 0; i < 64; ++i) x = std::nextafter(x, T(0));
    for (int i = 0; i < 128; ++i, x = std::nextafter(x, edge * 2)) xs.push_back(x);
  }
  int shortcut_vectors = 0;
  for (std::size_t i = 0; i < xs.size(); i += V::kLanes) {
    T in[64], fast[64], general[64], forced[64];
    for (int l = 0; l < V::kLanes; ++l) in[l] = xs[std::min(i + l, xs.size() - 1)];
    bool all_inside = true;
    for (int l = 0; l < V::kLanes; ++l) all_inside &= std::fabs(in[l]) < C::kExpFastBound;
    shortcut_vectors += all_inside;
    V::store(fast, vexp<V>(V::load(in)));
    V::store(general, tessera::simd::vmath_detail::vexp_general<V>(V::load(in)));
    if (V::kLanes > 1) in[V::kLanes - 1] = std::numeric_limits<T>::quiet_NaN();
    V::store(forced, vexp<V>(V::load(in)));
    for (int l = 0; l < V::kLanes; ++l) {
      CAPTURE(in[l]);
      REQUIRE(std::memcmp(&fast[l], &general[l], sizeof(T)) == 0);
      if (l + 1 < V::kLanes) REQUIRE(std::memcmp(&forced[l], &general[l], sizeof(T)) == 0);
    }
  }
  CHECK(shortcut_vectors > static_cast<int>(xs.size() / V::kLanes) / 2);
  // Lanes below kExpLo (+0 by either path) beside lanes inside the bound:
  // still the shortcut, lane for lane the general path's bits.
  const T below[] = {-std::numeric_limits<T>::infinity(), T(-1e30), T(2 * C::kExpLo),
                     std::nextafter(T(C::kExpLo), T(-1e30))};
  const std::vector<T> inside = samples<T>(T(-C::kExpFastBound + 1), T(C::kExpFastBound - 1), 997);
  for (std::size_t i = 0; i < inside.size(); ++i) {
    T in[64], fast[64], general[64];
    for (int l = 0; l < V::kLanes; ++l) {
      in[l] = (l + i) % 2 ? below[(i + l) % 4] : inside[(i + l) % inside.size()];
    }
    V::store(fast, vexp<V>(V::load(in)));
    V::store(general, tessera::simd::vmath_detail::vexp_general<V>(V::load(in)));
    for (int l = 0; l < V::kLanes; ++l) {
      CAPTURE(in[l]);
      REQUIRE(std::memcmp(&fast[l], &general[l], sizeof(T)) == 0);
      if (in[l] < C::kExpLo) REQUIRE(std::memcmp(&fast[l], &kPositiveZero<T>, sizeof(T)) == 0);
    }
  }
}

// Calls check(std::type_identity<V>{}, name) for every vector traits V this
// binary runs without per-ISA flags.
template <class Check>
void for_each_level(Check&& check) {
  using namespace tessera::simd;
  check(std::type_identity<scalar::F32>{}, "scalar f32");
  check(std::type_identity<scalar::F64>{}, "scalar f64");
#if defined(__SSE2__)
  check(std::type_identity<sse2::F32>{}, "sse2 f32");
  check(std::type_identity<sse2::F64>{}, "sse2 f64");
#endif
#if defined(__wasm_simd128__)
  check(std::type_identity<simd128::F32>{}, "simd128 f32");
  check(std::type_identity<simd128::F64>{}, "simd128 f64");
#endif
#if defined(__aarch64__)
  check(std::type_identity<neon::F32>{}, "neon f32");
  check(std::type_identity<neon::F64>{}, "neon f64");
#endif
}

}  // namespace

TEST_CASE("vmath: exp's in-range shortcut gives the general path's bits") {
  for_each_level([](auto level, const char* name) {
    check_exp_shortcut<typename decltype(level)::type>(name);
  });
}

TEST_CASE("vmath: exp/log/tanh/sigmoid within the bound, special values") {
  for_each_level([](auto level, const char* name) {
    check_level<typename decltype(level)::type>(name);
  });
}
