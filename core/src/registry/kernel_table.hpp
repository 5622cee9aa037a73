// KernelTable: everything one (family, ISA level) provides, as typed function
// pointers. A Context picks one table at creation (detected ∩ built ∩
// requested, design.md §ISA dispatch) and every call dispatches through
// it: no per-call feature checks. A null entry means "this table does not
// implement it".
#pragma once

#include <cstddef>

#include "core/src/blas1/blas1_kernel.hpp"
#include "core/src/gemm/gemm_kernel.hpp"
#include "core/src/reduce/reduce_kernel.hpp"
#include "tessera/elementwise.hpp"
#include "tessera/isa.hpp"
#include "tessera/platform/cpu_features.hpp"

namespace tessera::core {

// Elementwise kernel forms, per dtype T, indexed by tessera::BinaryOp /
// UnaryOp (tessera/elementwise.hpp): y = a ⊙ b (same shape), y = a ⊙ s,
// y = s ⊙ b, y = f(x). Broadcast shapes are rows of these (the driver).
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

// One CPU feature flag of platform::CpuFeatures (&CpuFeatures::avx2).
using CpuFeatureFlag = bool platform::CpuFeatures::*;
inline constexpr int kMaxRequiredFeatures = 8;

struct KernelTable {
  KernelFamily family;
  Isa isa;
  // The CPU (and OS) features this table's code needs, all of them; unused
  // entries are null. Plain data: the registry checks them before it calls
  // anything compiled with the backend's flags.
  CpuFeatureFlag required[kMaxRequiredFeatures];
  ElementwiseKernels elementwise;
  GemmKernels gemm;
  Blas1Kernels blas1;  // dot, gemv
  ReduceKernels reduce;  // last-axis reductions, softmax
};

}  // namespace tessera::core
