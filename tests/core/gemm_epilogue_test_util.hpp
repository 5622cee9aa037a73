// Shared helpers of the GEMM epilogue tests: an epilogue case (bias axis,
// activation), its bias vector, the call, the bit-exact order reference
// (plain GEMM, then + bias in T, then act) and an independent double
// reference with an error bound.
#pragma once

#include <cmath>
#include <string>
#include <vector>

#include "gemm_test_util.hpp"

namespace tessera::test::gemm {

struct EpilogueCase {
  BiasKind bias = BiasKind::kNone;
  Activation act = Activation::kNone;
  std::string describe() const {
    return std::string("bias ") + bias_kind_name(bias) + " act " + activation_name(act);
  }
};

inline const std::vector<EpilogueCase>& epilogue_cases() {
  static const std::vector<EpilogueCase> cases = {
      {BiasKind::kNone, Activation::kNone},    {BiasKind::kPerColumn, Activation::kNone},
      {BiasKind::kPerRow, Activation::kNone},  {BiasKind::kNone, Activation::kRelu},
      {BiasKind::kPerColumn, Activation::kRelu}, {BiasKind::kPerRow, Activation::kRelu},
      {BiasKind::kPerColumn, Activation::kGelu}, {BiasKind::kPerRow, Activation::kSigmoid},
      {BiasKind::kNone, Activation::kGelu},    {BiasKind::kNone, Activation::kSigmoid},
  };
  return cases;
}

// Bias values in [-1, 1) (one extra sentinel past the end: never read).
template <class T>
std::vector<T> make_bias(const Shape& s, const EpilogueCase& e, std::uint64_t seed) {
  Rng rng(seed);
  const std::int64_t len = e.bias == BiasKind::kPerRow ? s.m : s.n;
  std::vector<T> bias(static_cast<std::size_t>(len + 1), T(0));
  for (std::int64_t x = 0; x < len; ++x) bias[static_cast<std::size_t>(x)] = static_cast<T>(rng.uniform_f64(-1.0, 1.0));
  bias.back() = std::numeric_limits<T>::quiet_NaN();
  return bias;
}

template <class T>
Status run_epilogue(const Context& context, const Shape& s, const Operands<T>& o,
                    const EpilogueCase& e, const std::vector<T>& bias, std::vector<T>* c,
                    Parallelism parallelism = {}) {
  *c = o.c;
  GemmEpilogue<T> ep;
  ep.bias = e.bias == BiasKind::kNone ? nullptr : bias.data();
  ep.bias_kind = e.bias;
  ep.activation = e.act;
  return try_gemm(context, s.layout, s.ta, s.tb, s.m, s.n, s.k, static_cast<T>(s.alpha),
                  o.a.data(), s.lda(), o.b.data(), s.ldb(), static_cast<T>(s.beta), c->data(),
                  s.ldc(), ep, parallelism);
}

template <class T>
T bias_at(const EpilogueCase& e, const std::vector<T>& bias, std::int64_t i, std::int64_t j) {
  return e.bias == BiasKind::kPerRow ? bias[static_cast<std::size_t>(i)]
                                     : bias[static_cast<std::size_t>(j)];
}

// The activations in long double from <cmath> (independent of vmath).
inline long double act_reference(Activation act, long double x) {
  switch (act) {
    case Activation::kNone: return x;
    case Activation::kRelu: return x < 0 ? 0 : x;
    case Activation::kGelu:
      return 0.5L * x * (1.0L + std::tanh(0.79788456080286535588L * (x + 0.044715L * x * x * x)));
    case Activation::kSigmoid: return 1.0L / (1.0L + std::exp(-x));
  }
  return x;
}

// The documented order on the plain GEMM's output: x = plain; x = x + bias
// (in T, only with a bias); C = act(x). Bit-exact for none and relu (their
// act is exact); for gelu/sigmoid `act_tolerance` ulps-of-magnitude apply.
template <class T>
void check_order(const Shape& s, const EpilogueCase& e, const std::vector<T>& bias,
                 const std::vector<T>& plain, const std::vector<T>& fused,
                 const std::string& where) {
  const bool exact = e.act == Activation::kNone || e.act == Activation::kRelu;
  const long double eps = std::numeric_limits<T>::epsilon();
  std::int64_t bad = 0;
  std::string first;
  for (std::int64_t i = 0; i < s.m; ++i) {
    for (std::int64_t j = 0; j < s.n; ++j) {
      const std::size_t idx = static_cast<std::size_t>(at(s.layout, i, j, s.ldc()));
      T x = plain[idx];
      if (e.bias != BiasKind::kNone) x = static_cast<T>(x + bias_at(e, bias, i, j));
      bool ok;
      T want;
      if (exact) {
        want = e.act == Activation::kRelu ? (x < T(0) ? T(0) : x) : x;
        ok = std::memcmp(&want, &fused[idx], sizeof(T)) == 0;
      } else {
        const long double ref = act_reference(e.act, static_cast<long double>(x));
        want = static_cast<T>(ref);
        // vmath's documented accuracy is a few ulp; 8 ulp of the larger of
        // |ref| and |x| (gelu's derivative is at most ~1.13) plus the
        // smallest normal.
        const long double tol = 8 * eps * std::max(std::fabs(ref), std::fabs((long double)x)) +
                                std::numeric_limits<T>::min();
        ok = std::fabs(static_cast<long double>(fused[idx]) - ref) <= tol;
      }
      if (!ok && bad++ == 0) {
        first = mismatch_text(i, j, static_cast<double>(fused[idx]), "want",
                              static_cast<double>(want));
      }
    }
  }
  for (std::size_t x = 0; x < fused.size(); ++x) {
    // Outside C's elements the plain call's bytes (the sentinels) remain.
    if (std::memcmp(&plain[x], &fused[x], sizeof(T)) != 0 && fused[x] == T(-777)) ++bad;
  }
  CHECK_MESSAGE(bad == 0, where, ": ", s.describe(), " ", e.describe(), ": ", bad,
                " elements off, first ", first);
}

// The epilogue-free part of the reference, for each (i, j) of C (row-major
// m x n): the sum over p of A(i, p) B(p, j) and the sum of its terms'
// magnitudes, in long double. It is the same for every epilogue case of a
// shape, so a test forms it once per shape and operands (it is nearly all
// of check_reference's work; long double is software arithmetic on wasm).
struct ExactProduct {
  std::vector<long double> sum;
  std::vector<long double> magnitude;
};

template <class T>
ExactProduct exact_product(const Shape& s, const Operands<T>& o) {
  ExactProduct product;
  const std::size_t size = static_cast<std::size_t>(s.m * s.n);
  product.sum.assign(size, 0);
  product.magnitude.assign(size, 0);
  for (std::int64_t i = 0; i < s.m; ++i) {
    for (std::int64_t j = 0; j < s.n; ++j) {
      long double exact = 0, magnitude = 0;
      for (std::int64_t p = 0; p < s.k; ++p) {
        const long double x = static_cast<long double>(op_a(s, o.a, i, p)) *
                              static_cast<long double>(op_b(s, o.b, p, j));
        exact += x;
        magnitude += std::fabs(x);
      }
      product.sum[static_cast<std::size_t>(i * s.n + j)] = exact;
      product.magnitude[static_cast<std::size_t>(i * s.n + j)] = magnitude;
    }
  }
  return product;
}

// Independent reference: the exact product in long double, alpha, beta,
// bias, act, against a bound: the plain GEMM bound (gemm_test_util.hpp)
// plus one rounding of the bias addition, scaled by the activation's
// largest slope (<= 1.13 for gelu, 0.25 for sigmoid, 1 otherwise), plus the
// activation's own few-ulp error.
template <class T>
void check_reference(const Shape& s, const Operands<T>& o, const ExactProduct& product,
                     const EpilogueCase& e, const std::vector<T>& bias,
                     const std::vector<T>& actual, const std::string& where) {
  const long double eps = std::numeric_limits<T>::epsilon();
  std::int64_t bad = 0;
  std::string first;
  for (std::int64_t i = 0; i < s.m; ++i) {
    for (std::int64_t j = 0; j < s.n; ++j) {
      const long double exact = product.sum[static_cast<std::size_t>(i * s.n + j)];
      const long double magnitude = product.magnitude[static_cast<std::size_t>(i * s.n + j)];
      const std::size_t idx = static_cast<std::size_t>(at(s.layout, i, j, s.ldc()));
      const long double c0 = s.beta == 0 ? 0 : static_cast<long double>(o.c[idx]);
      long double x = static_cast<long double>(s.alpha) * exact + static_cast<long double>(s.beta) * c0;
      const long double b = e.bias == BiasKind::kNone ? 0 : static_cast<long double>(bias_at(e, bias, i, j));
      x += b;
      const long double ref = act_reference(e.act, x);
      const long double gemm_bound = 2 * (s.k + 4) * eps *
                                         (std::fabs(static_cast<long double>(s.alpha)) * magnitude +
                                          std::fabs(static_cast<long double>(s.beta) * c0)) +
                                     2 * eps * (std::fabs(x) + std::fabs(b));
      const long double bound = 1.2L * gemm_bound + 8 * eps * std::fabs(ref) +
                                std::numeric_limits<T>::min();
      const long double err = std::fabs(static_cast<long double>(actual[idx]) - ref);
      if (!(err <= bound) && bad++ == 0) {
        first = mismatch_text(i, j, static_cast<double>(actual[idx]), "ref",
                              static_cast<double>(ref));
      }
    }
  }
  CHECK_MESSAGE(bad == 0, where, ": ", s.describe(), " ", e.describe(), ": ", bad,
                " elements off, first ", first);
}

}  // namespace tessera::test::gemm
