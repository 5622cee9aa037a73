// exp log tanh sigmoid gelu as elementwise ops, f32 and f64, on the naive
// family and every ISA level the host supports: within the documented ulp
// bound (tessera::unary_op_ulp_bound) of the long double reference
// (elementwise_reference.hpp) on dense samples of each function's range and
// the special values; explicit special-value results; the same bits for
// executor widths 1 2 3 4 7 8; the same bits on the non-FMA levels.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "cli/elementwise_problem.hpp"
#include "support/test_support.hpp"
#include "tests/core/elementwise_reference.hpp"
#include "tests/core/elementwise_widths.hpp"

namespace tessera {
namespace {

const UnaryOp kOps[] = {UnaryOp::kExp, UnaryOp::kLog, UnaryOp::kTanh, UnaryOp::kSigmoid,
                        UnaryOp::kGelu};

// Dense samples of the range that matters for op (plus its far tails), an
// odd count so the vector tails are exercised.
template <class T>
std::vector<T> samples(UnaryOp op, std::size_t n) {
  std::vector<T> v;
  auto linear = [&](double lo, double hi) {
    for (std::size_t i = 0; i < n; ++i) v.push_back(static_cast<T>(lo + (hi - lo) * i / (n - 1)));
  };
  auto geometric = [&](double lo, double hi) {  // positive, log-spaced
    const double r = std::log(hi / lo);
    for (std::size_t i = 0; i < n; ++i) v.push_back(static_cast<T>(lo * std::exp(r * i / (n - 1))));
  };
  const bool f32 = sizeof(T) == 4;
  switch (op) {
    case UnaryOp::kExp:
      linear(f32 ? -104.0 : -746.0, f32 ? 89.0 : 710.0);
      linear(-1.0, 1.0);
      break;
    case UnaryOp::kLog:
      geometric(double(std::numeric_limits<T>::denorm_min()), double(std::numeric_limits<T>::max()));
      linear(0.5, 2.0);
      break;
    case UnaryOp::kTanh:
      linear(-12.0, 12.0);
      linear(-0.7, 0.7);
      geometric(1e-30, 1.0);
      break;
    case UnaryOp::kSigmoid:
      linear(f32 ? -110.0 : -750.0, 40.0);
      linear(-2.0, 2.0);
      break;
    case UnaryOp::kGelu:
      linear(-10.0, 10.0);
      geometric(1e-30, 1.0);
      break;
    default: break;
  }
  // The worst f32 inputs of the exhaustive sweep (bench/vmath_ulp_bench.cc).
  if (op == UnaryOp::kExp) v.push_back(T(5.96046448e-08f));
  if (op == UnaryOp::kLog) v.push_back(T(9.13646599e-43f));
  if (op == UnaryOp::kTanh) v.push_back(T(0.520136237f));
  v.push_back(T(0));
  return v;
}

template <class T>
void check_bounds() {
  for (const Context& c : test::contexts_under_test()) {
    for (UnaryOp op : kOps) {
      auto x = samples<T>(op, 40001);
      for (T s : test::ew::specials<T>()) x.push_back(s);
      std::vector<T> out(x.size());
      REQUIRE(try_unary(c, op, x, out).ok());
      double worst = 0;
      T worst_x = 0;
      for (std::size_t i = 0; i < x.size(); ++i) {
        const double d = cli::ulp_distance(test::ew::ref_unary(op, x[i]), out[i]);
        if (d > worst) {
          worst = d;
          worst_x = x[i];
        }
      }
      CAPTURE(test::level_label(c));
      CAPTURE(std::string(unary_op_name(op)));
      CAPTURE(worst_x);
      CHECK(worst <= unary_op_ulp_bound(op, sizeof(T) == 8));
      if (std::getenv("TESSERA_PRINT_ULP")) MESSAGE(test::level_label(c) << " " << unary_op_name(op) << " f" << 8 * sizeof(T) << " max ulp " << worst << " at " << worst_x);
    }
    // gelu away from its ill-conditioned negative tail.
    const auto x = samples<T>(UnaryOp::kGelu, 40001);
    std::vector<T> core_x;
    for (T v : x) {
      if (v >= T(-3)) core_x.push_back(v);
    }
    std::vector<T> out(core_x.size());
    REQUIRE(try_unary(c, UnaryOp::kGelu, core_x, out).ok());
    double worst = 0;
    for (std::size_t i = 0; i < core_x.size(); ++i) {
      const double d = cli::ulp_distance(test::ew::ref_unary(UnaryOp::kGelu, core_x[i]), out[i]);
      worst = d > worst ? d : worst;
    }
    CAPTURE(test::level_label(c));
    CHECK(worst <= kGeluCoreUlpBound);
  }
}

TEST_CASE("transcendentals are within their ulp bound on every level") {
  check_bounds<float>();
  check_bounds<double>();
}

template <class T>
void check_specials() {
  using L = std::numeric_limits<T>;
  const T inf = L::infinity(), nan = L::quiet_NaN();
  struct Case {
    UnaryOp op;
    T x, want;
  };
  const bool f32 = sizeof(T) == 4;
  const Case cases[] = {
      {UnaryOp::kExp, inf, inf},          {UnaryOp::kExp, -inf, T(0)},
      {UnaryOp::kExp, T(0), T(1)},        {UnaryOp::kExp, -T(0), T(1)},
      {UnaryOp::kExp, T(f32 ? 88.73 : 709.79), inf},
      {UnaryOp::kExp, T(f32 ? -103.98 : -745.2), T(0)},
      {UnaryOp::kExp, L::max(), inf},     {UnaryOp::kExp, L::lowest(), T(0)},
      {UnaryOp::kLog, T(0), -inf},        {UnaryOp::kLog, -T(0), -inf},
      {UnaryOp::kLog, inf, inf},          {UnaryOp::kLog, T(1), T(0)},
      {UnaryOp::kTanh, inf, T(1)},        {UnaryOp::kTanh, -inf, T(-1)},
      {UnaryOp::kTanh, T(f32 ? 9.1 : 19.1), T(1)}, {UnaryOp::kTanh, T(f32 ? -9.1 : -19.1), T(-1)},
      {UnaryOp::kTanh, T(0), T(0)},       {UnaryOp::kTanh, -T(0), -T(0)},
      {UnaryOp::kTanh, L::denorm_min(), L::denorm_min()},
      {UnaryOp::kSigmoid, inf, T(1)},     {UnaryOp::kSigmoid, -inf, T(0)},
      {UnaryOp::kSigmoid, T(0), T(0.5)},  {UnaryOp::kSigmoid, L::lowest(), T(0)},
      {UnaryOp::kGelu, inf, inf},         {UnaryOp::kGelu, -inf, -T(0)},
      {UnaryOp::kGelu, T(0), T(0)},       {UnaryOp::kGelu, -T(0), -T(0)},
  };
  for (const Context& c : test::contexts_under_test()) {
    for (const Case& k : cases) {
      // At lane 0, in a full vector and in the tail.
      std::vector<T> x(37, T(1)), out(37);
      x[0] = x[17] = x[36] = k.x;
      REQUIRE(try_unary(c, k.op, x, out).ok());
      CAPTURE(test::level_label(c));
      CAPTURE(std::string(unary_op_name(k.op)));
      CAPTURE(k.x);
      for (std::size_t i : {0u, 17u, 36u}) {
        CHECK(test::ew::same_bits(out[i], k.want));
      }
    }
    // NaN in, NaN out; log of a negative (also -Inf and -denormal) is NaN.
    for (UnaryOp op : kOps) {
      std::vector<T> x = {nan, -nan, T(1), nan}, out(4);
      REQUIRE(try_unary(c, op, x, out).ok());
      CHECK(std::isnan(out[0]));
      CHECK(std::isnan(out[1]));
      CHECK(std::isnan(out[3]));
    }
    std::vector<T> neg = {T(-1), -inf, -L::denorm_min(), L::lowest()}, out(4);
    REQUIRE(try_unary(c, UnaryOp::kLog, neg, out).ok());
    for (T v : out) CHECK(std::isnan(v));
  }
}

TEST_CASE("transcendentals: special values and thresholds") {
  check_specials<float>();
  check_specials<double>();
}

template <class T>
void check_widths(Isa isa) {
  std::vector<T> x(62891);
  cli::fill_transcendental_operand(x.data(), x.size(), 11, false);
  test::check_unary_widths(isa, kOps, x);
}

// exp takes a shortcut on vectors whose lanes are all well inside the range
// (simd/vmath.hpp): the same bits as the general path. Here each vector of
// two or more lanes carries a NaN in its odd (then even) lanes, which
// forces the general path, and the other lanes must keep the bits of the
// NaN-free run, on every level (the FMA ones too).
template <class T>
void check_exp_shortcut(Isa isa) {
  const bool f32 = sizeof(T) == 4;
  const double bound = f32 ? 86.0 : 708.0;  // vmath's kExpFastBound
  std::vector<T> x = samples<T>(UnaryOp::kExp, 20001);
  for (double edge : {bound, -bound}) {
    T v = static_cast<T>(edge);
    for (int i = 0; i < 40; ++i) v = std::nextafter(v, T(0));
    for (int i = 0; i < 80; ++i, v = std::nextafter(v, static_cast<T>(2 * edge))) x.push_back(v);
  }
  std::vector<T> clean(x.size());
  REQUIRE(try_unary(test::context_for(isa), UnaryOp::kExp, x, clean).ok());
  for (std::size_t parity : {std::size_t(0), std::size_t(1)}) {
    std::vector<T> holed = x, out(x.size());
    const T nan = std::numeric_limits<T>::quiet_NaN();
    for (std::size_t i = parity; i < x.size(); i += 2) holed[i] = nan;
    REQUIRE(try_unary(test::context_for(isa), UnaryOp::kExp, holed, out).ok());
    std::size_t bad = 0;
    for (std::size_t i = 1 - parity; i < x.size(); i += 2) {
      bad += std::memcmp(&clean[i], &out[i], sizeof(T)) != 0;
    }
    CAPTURE(parity);
    CHECK(bad == 0);
  }
}

TEST_CASE("transcendentals: exp's in-range shortcut keeps the general path's bits") {
  for (Isa isa : test::host_isas()) {
    CAPTURE(std::string(isa_name(isa)));
    check_exp_shortcut<float>(isa);
    check_exp_shortcut<double>(isa);
  }
}

TEST_CASE("transcendentals: same bits for executor widths 1, 2, 3, 4, 7 and 8") {
  for (Isa isa : test::host_isas()) {
    CAPTURE(std::string(isa_name(isa)));
    check_widths<float>(isa);
    check_widths<double>(isa);
  }
}

// Scalar, SSE2 and SIMD128 run the same operations in the same order with
// no FMA: the same bits (this build's share of the cross-target contract).
template <class T>
void check_non_fma_levels() {
  std::vector<Isa> plain;
  for (Isa isa : test::host_isas()) {
    if (isa == Isa::kScalar || isa == Isa::kSse2 || isa == Isa::kSimd128) plain.push_back(isa);
  }
  std::vector<T> x(4099);
  cli::fill_transcendental_operand(x.data(), x.size(), 5, false);
  const auto sp = test::ew::specials<T>();
  for (std::size_t i = 0; i < x.size(); i += 13) x[i] = sp[(i / 13) % sp.size()];
  for (UnaryOp op : kOps) {
    std::vector<T> first(x.size());
    REQUIRE(try_unary(test::context_for(plain.front()), op, x, first).ok());
    for (Isa isa : plain) {
      std::vector<T> out(x.size());
      REQUIRE(try_unary(test::context_for(isa), op, x, out).ok());
      CAPTURE(std::string(unary_op_name(op)));
      CAPTURE(std::string(isa_name(isa)));
      std::size_t bad = 0;
      for (std::size_t i = 0; i < x.size(); ++i) {
        bad += test::same_bits_or_both_nan(float(first[i]), float(out[i])) &&
                       std::memcmp(&first[i], &out[i], sizeof(T)) == 0
                   ? 0
                   : (std::isnan(first[i]) && std::isnan(out[i]) ? 0 : 1);
      }
      CHECK(bad == 0);
    }
  }
}

TEST_CASE("transcendentals: scalar, SSE2 and SIMD128 give the same bits") {
  check_non_fma_levels<float>();
  check_non_fma_levels<double>();
}

}  // namespace
}  // namespace tessera
