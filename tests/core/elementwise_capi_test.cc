// The C API's elementwise functions: every op and dtype reaches its kernel
// (checked against the tests' reference), the broadcasting forms, and the
// errors (codes, messages naming the argument, nothing written).
#include <doctest/doctest.h>

#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "support/test_support.hpp"
#include "tessera/tessera.h"
#include "tests/core/elementwise_reference.hpp"

namespace {

using tessera::BinaryOp;
using tessera::UnaryOp;
namespace ew = tessera::test::ew;

template <class T>
using CBinary = tsr_status (*)(const tsr_context*, const T*, const T*, T*, size_t);
template <class T>
using CBroadcast = tsr_status (*)(const tsr_context*, size_t, size_t, const T*, tsr_broadcast,
                                  const T*, tsr_broadcast, T*);
template <class T>
using CUnary = tsr_status (*)(const tsr_context*, const T*, T*, size_t);

template <class T>
struct BinaryEntry {
  BinaryOp op;
  CBinary<T> same;
  CBroadcast<T> broadcast;
};

template <class T>
std::vector<T> data(std::size_t n, std::uint64_t seed) {
  tessera::test::Rng rng(seed);
  std::vector<T> v(n);
  for (auto& x : v) x = static_cast<T>(rng.uniform_f64(0.5, 3.0));
  return v;
}

template <class T>
void check_binary(const BinaryEntry<T>& e) {
  const std::size_t rows = 5, cols = 23, n = rows * cols;
  const auto a = data<T>(n, 1), b = data<T>(n, 2), row = data<T>(cols, 3);
  std::vector<T> out(n);
  REQUIRE(e.same(nullptr, a.data(), b.data(), out.data(), n) == TSR_OK);
  for (std::size_t i = 0; i < n; ++i) CHECK(ew::same_bits(out[i], ew::ref_binary(e.op, a[i], b[i])));
  REQUIRE(e.broadcast(nullptr, rows, cols, a.data(), TSR_BROADCAST_FULL, row.data(),
                      TSR_BROADCAST_ROW, out.data()) == TSR_OK);
  for (std::size_t i = 0; i < n; ++i) {
    CHECK(ew::same_bits(out[i], ew::ref_binary(e.op, a[i], row[i % cols])));
  }
  const T s = T(1.75);
  REQUIRE(e.broadcast(nullptr, 1, n, &s, TSR_BROADCAST_SCALAR, b.data(), TSR_BROADCAST_FULL,
                      out.data()) == TSR_OK);
  for (std::size_t i = 0; i < n; ++i) CHECK(ew::same_bits(out[i], ew::ref_binary(e.op, s, b[i])));
  REQUIRE(e.broadcast(nullptr, rows, cols, a.data(), TSR_BROADCAST_FULL, row.data(),
                      TSR_BROADCAST_COLUMN, out.data()) == TSR_OK);
  for (std::size_t i = 0; i < n; ++i) {
    CHECK(ew::same_bits(out[i], ew::ref_binary(e.op, a[i], row[i / cols])));
  }
}

template <class T>
void check_unary(UnaryOp op, CUnary<T> fn) {
  auto x = data<T>(37, 4);
  x[3] = -x[3];
  std::vector<T> out(37);
  REQUIRE(fn(nullptr, x.data(), out.data(), 37) == TSR_OK);
  for (std::size_t i = 0; i < 37; ++i) {
    CHECK(ew::matches(ew::ref_unary(op, x[i]), out[i], ew::exact_nan(op)));
  }
}

TEST_CASE("every C elementwise function computes its op") {
  const BinaryEntry<float> f32[] = {
      {BinaryOp::kAdd, tsr_add_f32, tsr_add_broadcast_f32},
      {BinaryOp::kSub, tsr_sub_f32, tsr_sub_broadcast_f32},
      {BinaryOp::kMul, tsr_mul_f32, tsr_mul_broadcast_f32},
      {BinaryOp::kDiv, tsr_div_f32, tsr_div_broadcast_f32},
      {BinaryOp::kMin, tsr_min_f32, tsr_min_broadcast_f32},
      {BinaryOp::kMax, tsr_max_f32, tsr_max_broadcast_f32}};
  const BinaryEntry<double> f64[] = {
      {BinaryOp::kAdd, tsr_add_f64, tsr_add_broadcast_f64},
      {BinaryOp::kSub, tsr_sub_f64, tsr_sub_broadcast_f64},
      {BinaryOp::kMul, tsr_mul_f64, tsr_mul_broadcast_f64},
      {BinaryOp::kDiv, tsr_div_f64, tsr_div_broadcast_f64},
      {BinaryOp::kMin, tsr_min_f64, tsr_min_broadcast_f64},
      {BinaryOp::kMax, tsr_max_f64, tsr_max_broadcast_f64}};
  for (const auto& e : f32) {
    CAPTURE(tessera::binary_op_name(e.op));
    check_binary(e);
  }
  for (const auto& e : f64) {
    CAPTURE(tessera::binary_op_name(e.op));
    check_binary(e);
  }
  check_unary<float>(UnaryOp::kAbs, tsr_abs_f32);
  check_unary<float>(UnaryOp::kNeg, tsr_neg_f32);
  check_unary<float>(UnaryOp::kSqrt, tsr_sqrt_f32);
  check_unary<float>(UnaryOp::kRelu, tsr_relu_f32);
  check_unary<double>(UnaryOp::kAbs, tsr_abs_f64);
  check_unary<double>(UnaryOp::kNeg, tsr_neg_f64);
  check_unary<double>(UnaryOp::kSqrt, tsr_sqrt_f64);
  check_unary<double>(UnaryOp::kRelu, tsr_relu_f64);
}

TEST_CASE("C elementwise errors name the argument and write nothing") {
  double out[6] = {9, 9, 9, 9, 9, 9};
  const double x[6] = {1, 2, 3, 4, 5, 6};
  auto message = [] { return std::string(tsr_last_error_message()); };
  CHECK(tsr_div_f64(nullptr, x, nullptr, out, 6) == TSR_INVALID_ARGUMENT);
  CHECK(message().find("b is null") != std::string::npos);
  CHECK(tsr_sub_broadcast_f64(nullptr, 2, 3, x, TSR_BROADCAST_FULL, x,
                              static_cast<tsr_broadcast>(7), out) == TSR_INVALID_ARGUMENT);
  CHECK(message().find("b has an unknown broadcast shape") != std::string::npos);
  CHECK(tsr_max_broadcast_f64(nullptr, 2, 3, x, TSR_BROADCAST_FULL, x + 1, TSR_BROADCAST_ROW,
                              out) == TSR_OK);
  CHECK(tsr_neg_f64(nullptr, x, out, 6) == TSR_OK);  // disjoint
  CHECK(out[0] == -1.0);
  double buf[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  CHECK(tsr_sqrt_f64(nullptr, buf, buf + 2, 6) == TSR_INVALID_ARGUMENT);
  CHECK(message().find("out partially overlaps x") != std::string::npos);
  CHECK(buf[2] == 3.0);
  CHECK(tsr_add_broadcast_f64(nullptr, std::numeric_limits<std::size_t>::max() / 4, 8, x, TSR_BROADCAST_ROW, x,
                              TSR_BROADCAST_ROW, out) == TSR_INVALID_ARGUMENT);
  CHECK(message().find("too large") != std::string::npos);
  CHECK(tsr_abs_f64(nullptr, buf, buf, 8) == TSR_OK);  // in place
  CHECK(message().empty());
}

}  // namespace
