// Elementwise kernel bodies, written once over a vector-traits type V
// (core/src/simd/vec_*.hpp) and instantiated in one file per ISA. Each
// instantiation is a distinct symbol (V differs), and the bodies call no
// out-of-line helper, so code compiled with one ISA's flags is never linked
// into another ISA's path.
#pragma once

#include <cstddef>

#include "core/src/kernels/elementwise_kernel.hpp"
#include "core/src/simd/vmath.hpp"

namespace tessera::core::elementwise {

// Operand sources of a binary body: a stream of elements, or one value
// splatted to every lane (the scalar forms).
template <class V>
struct Stream {
  const typename V::Scalar* p;
  typename V::Reg load(std::size_t i) const { return V::load(p + i); }
  typename V::Scalar at(std::size_t i) const { return p[i]; }
};
template <class V>
struct Splat {
  typename V::Scalar s;
  typename V::Reg r;
  explicit Splat(typename V::Scalar value) : s(value), r(V::set1(value)) {}
  typename V::Reg load(std::size_t) const { return r; }
  typename V::Scalar at(std::size_t) const { return s; }
};

template <class V, class A, class B, class Op>
inline void binary_body(const A& a, const B& b, typename V::Scalar* y,
                        std::size_t n, Op op) {
  constexpr std::size_t kL = V::kLanes;
  std::size_t i = 0;
  // Four independent vectors per iteration hide the load latency.
  for (; i + 4 * kL <= n; i += 4 * kL) {
    auto r0 = op(a.load(i), b.load(i));
    auto r1 = op(a.load(i + kL), b.load(i + kL));
    auto r2 = op(a.load(i + 2 * kL), b.load(i + 2 * kL));
    auto r3 = op(a.load(i + 3 * kL), b.load(i + 3 * kL));
    V::store(y + i, r0);
    V::store(y + i + kL, r1);
    V::store(y + i + 2 * kL, r2);
    V::store(y + i + 3 * kL, r3);
  }
  for (; i + kL <= n; i += kL) V::store(y + i, op(a.load(i), b.load(i)));
  // The tail goes through a one-lane view of the same operation, so every
  // element sees the same arithmetic whatever its position. The unused
  // lanes hold 1 (not 0), so div and sqrt raise no spurious flags there.
  for (; i < n; ++i) {
    typename V::Scalar lane_a[kL], lane_b[kL], lane_y[kL];
    for (std::size_t l = 0; l < kL; ++l) lane_a[l] = lane_b[l] = 1;
    lane_a[0] = a.at(i);
    lane_b[0] = b.at(i);
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
    typename V::Scalar lane_x[kL], lane_y[kL];
    for (std::size_t l = 0; l < kL; ++l) lane_x[l] = 1;
    lane_x[0] = x[i];
    V::store(lane_y, op(V::load(lane_x)));
    y[i] = lane_y[0];
  }
}

// One kernel per (op, form): the op name is the vector traits' method name
// (V::add, V::min, V::sqrt, ...), so the op lists of tessera/elementwise.hpp
// generate every instantiation.
#define TESSERA_BINARY_KERNELS_(name, id)                                        \
  template <class V>                                                             \
  void name##_vv(const typename V::Scalar* a, const typename V::Scalar* b,      \
                 typename V::Scalar* y, std::size_t n) {                         \
    binary_body<V>(Stream<V>{a}, Stream<V>{b}, y, n,                             \
                   [](auto p, auto q) { return V::name(p, q); });                \
  }                                                                              \
  template <class V>                                                             \
  void name##_vs(const typename V::Scalar* a, typename V::Scalar s,             \
                 typename V::Scalar* y, std::size_t n) {                         \
    binary_body<V>(Stream<V>{a}, Splat<V>(s), y, n,                              \
                   [](auto p, auto q) { return V::name(p, q); });                \
  }                                                                              \
  template <class V>                                                             \
  void name##_sv(typename V::Scalar s, const typename V::Scalar* b,             \
                 typename V::Scalar* y, std::size_t n) {                         \
    binary_body<V>(Splat<V>(s), Stream<V>{b}, y, n,                              \
                   [](auto p, auto q) { return V::name(p, q); });                \
  }
TESSERA_ELEMENTWISE_BINARY_OPS(TESSERA_BINARY_KERNELS_)
#undef TESSERA_BINARY_KERNELS_

// The traits plus the transcendentals of vmath.hpp under their op names.
template <class V>
struct WithMath : V {
  using Reg = typename V::Reg;
  static Reg exp(Reg x) { return simd::vexp<V>(x); }
  static Reg log(Reg x) { return simd::vlog<V>(x); }
  static Reg tanh(Reg x) { return simd::vtanh<V>(x); }
  static Reg sigmoid(Reg x) { return simd::vsigmoid<V>(x); }
  static Reg gelu(Reg x) { return simd::vgelu<V>(x); }
};

#define TESSERA_UNARY_KERNELS_(name, id)                                         \
  template <class V>                                                             \
  void name##_v(const typename V::Scalar* x, typename V::Scalar* y,             \
                std::size_t n) {                                                 \
    unary_body<V>(x, y, n, [](auto p) { return WithMath<V>::name(p); });                 \
  }
TESSERA_ELEMENTWISE_UNARY_OPS(TESSERA_UNARY_KERNELS_)
#undef TESSERA_UNARY_KERNELS_

template <class V>
constexpr ElementwiseOps<typename V::Scalar> elementwise_ops() {
  ElementwiseOps<typename V::Scalar> k;
#define TESSERA_BINARY_ENTRY_(name, id)                                 \
  k.binary[static_cast<int>(BinaryOp::id)] = &name##_vv<V>;             \
  k.binary_scalar_rhs[static_cast<int>(BinaryOp::id)] = &name##_vs<V>;  \
  k.binary_scalar_lhs[static_cast<int>(BinaryOp::id)] = &name##_sv<V>;
  TESSERA_ELEMENTWISE_BINARY_OPS(TESSERA_BINARY_ENTRY_)
#undef TESSERA_BINARY_ENTRY_
#define TESSERA_UNARY_ENTRY_(name, id) \
  k.unary[static_cast<int>(UnaryOp::id)] = &name##_v<V>;
  TESSERA_ELEMENTWISE_UNARY_OPS(TESSERA_UNARY_ENTRY_)
#undef TESSERA_UNARY_ENTRY_
  return k;
}

// The table entry of one backend: its f32 and f64 traits.
template <class F32, class F64>
constexpr ElementwiseKernels elementwise_kernels() {
  return {elementwise_ops<F32>(), elementwise_ops<F64>()};
}

}  // namespace tessera::core::elementwise
