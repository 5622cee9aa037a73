// Elementwise entries of a KernelTable (design.md §Kernel core): the kernel
// forms per dtype T, indexed by tessera::BinaryOp / UnaryOp
// (tessera/elementwise.hpp): y = a ⊙ b (same shape), y = a ⊙ s, y = s ⊙ b,
// y = f(x). Broadcast shapes are rows of these (the driver).
#pragma once

#include <cstddef>

#include "tessera/elementwise.hpp"

namespace tessera::core {

template <class T>
using BinaryFn = void (*)(const T* a, const T* b, T* y, std::size_t n);
template <class T>
using BinaryScalarRhsFn = void (*)(const T* a, T s, T* y, std::size_t n);
template <class T>
using BinaryScalarLhsFn = void (*)(T s, const T* b, T* y, std::size_t n);
template <class T>
using UnaryFn = void (*)(const T* x, T* y, std::size_t n);

template <class T>
struct ElementwiseOps {
  BinaryFn<T> binary[kBinaryOpCount] = {};
  BinaryScalarRhsFn<T> binary_scalar_rhs[kBinaryOpCount] = {};
  BinaryScalarLhsFn<T> binary_scalar_lhs[kBinaryOpCount] = {};
  UnaryFn<T> unary[kUnaryOpCount] = {};
};

struct ElementwiseKernels {
  ElementwiseOps<float> f32;
  ElementwiseOps<double> f64;
};

}  // namespace tessera::core
