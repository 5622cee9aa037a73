// libFuzzer harness: the C API's elementwise kernels, f32/f64. Binary ops
// in the broadcasting form (every operand shape pair, invalid shape values,
// sizes whose byte count overflows), unary ops in place and out of place,
// with null pointers, out equal to an operand, and out partially
// overlapping one. Properties: nothing written outside out (guards), nothing
// at all on failure; only documented aliasing accepted (out may equal a
// full-shape operand exactly, nothing else); plainly valid calls succeed;
// add/sub/mul/div/min/max/abs/neg/relu/sqrt give exactly the IEEE result
// (NaN for NaN, payload aside) computed here.
#include <fuzzer/FuzzedDataProvider.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "tessera/tessera.h"
#include "tests/fuzz/fuzz_support.hpp"

namespace tessera::fuzz {
namespace {

template <class T>
using BinaryFn = tsr_status (*)(const tsr_context*, size_t, size_t, const T*, tsr_broadcast,
                                const T*, tsr_broadcast, T*);
template <class T>
using UnaryFn = tsr_status (*)(const tsr_context*, const T*, T*, size_t);

template <class T>
struct Ops;
template <>
struct Ops<float> {
  static constexpr BinaryFn<float> binary[] = {tsr_add_broadcast_f32, tsr_sub_broadcast_f32,
                                               tsr_mul_broadcast_f32, tsr_div_broadcast_f32,
                                               tsr_min_broadcast_f32, tsr_max_broadcast_f32};
  static constexpr UnaryFn<float> unary[] = {tsr_abs_f32, tsr_neg_f32,  tsr_relu_f32,
                                             tsr_sqrt_f32, tsr_exp_f32, tsr_log_f32,
                                             tsr_tanh_f32, tsr_sigmoid_f32, tsr_gelu_f32};
};
template <>
struct Ops<double> {
  static constexpr BinaryFn<double> binary[] = {tsr_add_broadcast_f64, tsr_sub_broadcast_f64,
                                                tsr_mul_broadcast_f64, tsr_div_broadcast_f64,
                                                tsr_min_broadcast_f64, tsr_max_broadcast_f64};
  static constexpr UnaryFn<double> unary[] = {tsr_abs_f64, tsr_neg_f64,  tsr_relu_f64,
                                              tsr_sqrt_f64, tsr_exp_f64, tsr_log_f64,
                                              tsr_tanh_f64, tsr_sigmoid_f64, tsr_gelu_f64};
};

template <class T>
T pick_value(FuzzedDataProvider& in) {
  const T values[] = {T(0), -T(0), T(1.5), T(-2), T(3), T(0.25),
                      std::numeric_limits<T>::infinity(), -std::numeric_limits<T>::infinity(),
                      std::numeric_limits<T>::quiet_NaN(), std::numeric_limits<T>::denorm_min()};
  return values[in.ConsumeIntegralInRange<int>(0, 9)];
}

template <class T>
bool same_value(T got, T want) {
  if (std::isnan(want)) return std::isnan(got);
  return std::memcmp(&got, &want, sizeof(T)) == 0;
}

// NumPy's minimum / maximum: a NaN operand wins (a's first), -0 < +0.
template <class T>
T reference_binary(int op, T a, T b) {
  switch (op) {
    case 0: return a + b;
    case 1: return a - b;
    case 2: return a * b;
    case 3: return a / b;
    default: {
      if (std::isnan(a)) return a;
      if (std::isnan(b)) return b;
      if (a == b) return (op == 4) == std::signbit(a) ? a : b;  // -0 vs +0
      return (op == 4) == (a < b) ? a : b;
    }
  }
}

std::size_t shape_count(int shape, std::size_t rows, std::size_t cols) {
  switch (shape) {
    case TSR_BROADCAST_FULL: return rows * cols;
    case TSR_BROADCAST_ROW: return cols;
    case TSR_BROADCAST_COLUMN: return rows;
    default: return 1;
  }
}

template <class T>
void run_binary(FuzzedDataProvider& in) {
  const int op = in.ConsumeIntegralInRange<int>(0, 5);
  std::size_t rows = in.ConsumeIntegralInRange<std::size_t>(0, 33);
  std::size_t cols = in.ConsumeIntegralInRange<std::size_t>(0, 33);
  const bool overflow = in.ConsumeIntegralInRange<int>(0, 31) == 0;
  if (overflow) rows = std::numeric_limits<std::size_t>::max() / 3, cols = 5;
  auto pick_shape = [&] {
    if (in.ConsumeIntegralInRange<int>(0, 15) == 0) return in.ConsumeIntegral<int>();
    return in.ConsumeIntegralInRange<int>(0, 3);
  };
  const int a_shape = pick_shape(), b_shape = pick_shape();
  // 0: own storage, 1: null, 2: out itself, 3: out + 1 (partial overlap).
  auto pick_mode = [&] {
    const int r = in.ConsumeIntegralInRange<int>(0, 23);
    return r < 3 ? r + 1 : 0;
  };
  const int a_mode = pick_mode(), b_mode = pick_mode();
  const bool shapes_ok = a_shape >= 0 && a_shape <= 3 && b_shape >= 0 && b_shape <= 3;
  const std::size_t count = overflow ? 1 : rows * cols;
  const std::size_t na = overflow || !shapes_ok ? 1 : shape_count(a_shape, rows, cols);
  const std::size_t nb = overflow || !shapes_ok ? 1 : shape_count(b_shape, rows, cols);
  std::vector<T> a(std::max<std::size_t>(1, na)), b(std::max<std::size_t>(1, nb));
  for (T& v : a) v = pick_value<T>(in);
  for (T& v : b) v = pick_value<T>(in);
  Guarded<T> out(count + 1);  // + 1: room for the partially overlapping operand
  for (std::size_t i = 0; i < count + 1; ++i) out.data()[i] = pick_value<T>(in);
  out.snapshot();
  const std::vector<T> out0(out.data(), out.data() + out.size());
  auto operand = [&](int mode, std::vector<T>& own) -> const T* {
    switch (mode) {
      case 1: return nullptr;
      case 2: return out.data();
      case 3: return out.data() + 1;
      default: return own.data();
    }
  };
  const T* pa = operand(a_mode, a);
  const T* pb = operand(b_mode, b);
  // Operand values as the call sees them (aliased ones are out's contents;
  // past out's end, where only a call that must fail would read, zeros).
  auto values_of = [&](int mode, const T* p, std::vector<T>& own, std::size_t n) {
    std::vector<T> v(std::max<std::size_t>(1, n), T(0));
    const T* from = p ? p : own.data();
    const std::size_t available =
        mode == 2 ? count + 1 : mode == 3 ? count : own.size();  // out has count + 1
    std::copy(from, from + std::min(v.size(), available), v.begin());
    return v;
  };
  const std::vector<T> av = values_of(a_mode, pa, a, na);
  const std::vector<T> bv = values_of(b_mode, pb, b, nb);

  const tsr_status s = Ops<T>::binary[op](nullptr, rows, cols, pa, static_cast<tsr_broadcast>(a_shape),
                                          pb, static_cast<tsr_broadcast>(b_shape), out.data());
  require(out.intact(), "a write outside out");
  // Must be rejected: a null operand with elements, an operand overlapping a
  // non-empty out other than a full-shape one equal to it.
  auto forbidden = [&](int mode, int shape, std::size_t n) {
    if (n == 0) return false;
    if (mode == 1) return true;
    if (count == 0) return false;
    // out + 1 overlaps out only when out has 2 elements or more.
    return (mode == 3 && count >= 2) || (mode == 2 && shape != TSR_BROADCAST_FULL);
  };
  const bool valid = !overflow && shapes_ok;
  const bool plain = valid && a_mode == 0 && b_mode == 0;
  if (s != TSR_OK) {
    require(out.unchanged(), "out written by a failed call", tsr_last_error_message());
    require(!plain, "valid call rejected", tsr_last_error_message());
    return;
  }
  require(valid, "overflowing size or bad shape accepted");
  if (forbidden(a_mode, a_shape, na) || forbidden(b_mode, b_shape, nb)) {
    const std::string detail = "rows " + std::to_string(rows) + " cols " + std::to_string(cols) +
                               " a mode " + std::to_string(a_mode) + " shape " +
                               std::to_string(a_shape) + " b mode " + std::to_string(b_mode) +
                               " shape " + std::to_string(b_shape);
    fail("a null or overlapping operand accepted", detail.c_str());
  }
  for (std::size_t r = 0; r < rows; ++r) {
    for (std::size_t c = 0; c < cols; ++c) {
      auto value = [&](const std::vector<T>& v, int shape) {
        switch (shape) {
          case TSR_BROADCAST_FULL: return v[r * cols + c];
          case TSR_BROADCAST_ROW: return v[c];
          case TSR_BROADCAST_COLUMN: return v[r];
          default: return v[0];
        }
      };
      const T want = reference_binary<T>(op, value(av, a_shape), value(bv, b_shape));
      require(same_value(out.data()[r * cols + c], want), "binary result differs from IEEE");
    }
  }
  require(same_value(out.data()[count], out0[count]), "out written past rows * cols");
}

template <class T>
void run_unary(FuzzedDataProvider& in) {
  const int op = in.ConsumeIntegralInRange<int>(0, 8);
  const std::size_t n = in.ConsumeIntegralInRange<std::size_t>(0, 300);
  const int mode = in.ConsumeIntegralInRange<int>(0, 7);  // 1 null, 2 in place, 3/4 overlap
  std::vector<T> x(std::max<std::size_t>(1, n));
  for (T& v : x) v = pick_value<T>(in);
  Guarded<T> out(n + 1);
  for (std::size_t i = 0; i <= n; ++i) out.data()[i] = x[std::min(i, x.size() - 1)];
  out.snapshot();
  const std::vector<T> out0(out.data(), out.data() + n + 1);
  const T* px = mode == 1 ? nullptr : mode == 2 ? out.data() : mode == 3 ? out.data() + 1
                                                                           : x.data();
  T* po = mode == 4 ? out.data() + 1 : out.data();
  if (mode == 4) px = out.data();
  const std::vector<T> xv(px ? px : x.data(), (px ? px : x.data()) + std::max<std::size_t>(1, n));
  const tsr_status s = Ops<T>::unary[op](nullptr, px, po, n);
  require(out.intact(), "a write outside out");
  const bool plain = mode == 0 || mode >= 5 || mode == 2;  // own storage or exactly in place
  if (s != TSR_OK) {
    require(out.unchanged(), "out written by a failed call", tsr_last_error_message());
    require(!plain, "valid unary call rejected", tsr_last_error_message());
    return;
  }
  const std::string detail = "op " + std::to_string(op) + " mode " + std::to_string(mode) +
                             " n " + std::to_string(n);
  // x one element off out overlaps it only from n = 2 on.
  const bool forbidden = (mode == 1 && n > 0) || ((mode == 3 || mode == 4) && n >= 2);
  require(!forbidden, "null or partially overlapping unary operand accepted", detail.c_str());
  if (op > 3) return;  // transcendentals: accuracy is tested elsewhere
  for (std::size_t i = 0; i < n; ++i) {
    const T v = xv[i];
    T want;
    switch (op) {
      case 0: want = std::fabs(v); break;
      case 1: want = -v; break;
      case 2: want = v < T(0) ? T(0) : v; break;  // NaN and -0 pass through
      default: want = std::sqrt(v); break;
    }
    require(same_value(po[i], want), "unary result differs from IEEE");
  }
}

}  // namespace
}  // namespace tessera::fuzz

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzedDataProvider in(data, size);
  switch (in.ConsumeIntegralInRange<int>(0, 3)) {
    case 0: tessera::fuzz::run_binary<float>(in); break;
    case 1: tessera::fuzz::run_binary<double>(in); break;
    case 2: tessera::fuzz::run_unary<float>(in); break;
    default: tessera::fuzz::run_unary<double>(in); break;
  }
  return 0;
}
