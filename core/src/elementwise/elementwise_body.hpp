// Elementwise kernel bodies, written once over a vector-traits type V
// (core/src/simd/vec_*.hpp) and instantiated in one file per ISA. Each
// instantiation is a distinct symbol (V differs), and the bodies call no
// out-of-line helper, so code compiled with one ISA's flags is never linked
// into another ISA's path.
#pragma once

#include <cstddef>

#include "core/src/registry/kernel_table.hpp"

namespace tessera::core::elementwise {

template <class V, class Op>
inline void binary_body(const typename V::Scalar* a,
                        const typename V::Scalar* b, typename V::Scalar* y,
                        std::size_t n, Op op) {
  constexpr std::size_t kL = V::kLanes;
  std::size_t i = 0;
  // Four independent vectors per iteration hide the load latency.
  for (; i + 4 * kL <= n; i += 4 * kL) {
    auto r0 = op(V::load(a + i), V::load(b + i));
    auto r1 = op(V::load(a + i + kL), V::load(b + i + kL));
    auto r2 = op(V::load(a + i + 2 * kL), V::load(b + i + 2 * kL));
    auto r3 = op(V::load(a + i + 3 * kL), V::load(b + i + 3 * kL));
    V::store(y + i, r0);
    V::store(y + i + kL, r1);
    V::store(y + i + 2 * kL, r2);
    V::store(y + i + 3 * kL, r3);
  }
  for (; i + kL <= n; i += kL) V::store(y + i, op(V::load(a + i), V::load(b + i)));
  // The tail goes through a one-lane view of the same operation, so every
  // element sees the same arithmetic whatever its position.
  for (; i < n; ++i) {
    typename V::Scalar lane_a[kL] = {}, lane_b[kL] = {}, lane_y[kL];
    lane_a[0] = a[i];
    lane_b[0] = b[i];
    V::store(lane_y, op(V::load(lane_a), V::load(lane_b)));
    y[i] = lane_y[0];
  }
}

template <class V, class Op>
inline void unary_body(const typename V::Scalar* x, typename V::Scalar* y,
                       std::size_t n, Op op) {
  constexpr std::size_t kL = V::kLanes;
  std::size_t i = 0;
  for (; i + 4 * kL <= n; i += 4 * kL) {
    auto r0 = op(V::load(x + i));
    auto r1 = op(V::load(x + i + kL));
    auto r2 = op(V::load(x + i + 2 * kL));
    auto r3 = op(V::load(x + i + 3 * kL));
    V::store(y + i, r0);
    V::store(y + i + kL, r1);
    V::store(y + i + 2 * kL, r2);
    V::store(y + i + 3 * kL, r3);
  }
  for (; i + kL <= n; i += kL) V::store(y + i, op(V::load(x + i)));
  for (; i < n; ++i) {
    typename V::Scalar lane_x[kL] = {}, lane_y[kL];
    lane_x[0] = x[i];
    V::store(lane_y, op(V::load(lane_x)));
    y[i] = lane_y[0];
  }
}

template <class V>
void add(const typename V::Scalar* a, const typename V::Scalar* b,
         typename V::Scalar* y, std::size_t n) {
  binary_body<V>(a, b, y, n, [](auto p, auto q) { return V::add(p, q); });
}

template <class V>
void mul(const typename V::Scalar* a, const typename V::Scalar* b,
         typename V::Scalar* y, std::size_t n) {
  binary_body<V>(a, b, y, n, [](auto p, auto q) { return V::mul(p, q); });
}

template <class V>
void relu(const typename V::Scalar* x, typename V::Scalar* y, std::size_t n) {
  unary_body<V>(x, y, n, [](auto p) { return V::relu(p); });
}

template <class V>
constexpr ElementwiseKernels elementwise_kernels() {
  ElementwiseKernels k;
  k.add_f32 = &add<V>;
  k.mul_f32 = &mul<V>;
  k.relu_f32 = &relu<V>;
  return k;
}

}  // namespace tessera::core::elementwise
