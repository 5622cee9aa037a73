// KernelTable: everything one (family, ISA level) provides, as typed function
// pointers. A Context picks one table at creation (detected ∩ built ∩
// requested, design.md §ISA dispatch) and every call dispatches through
// it: no per-call feature checks. A null entry means "this table does not
// implement it".
#pragma once

#include <cstddef>

#include "core/src/blas1/blas1_kernel.hpp"
#include "core/src/gemm/gemm_kernel.hpp"
#include "tessera/isa.hpp"
#include "tessera/platform/cpu_features.hpp"

namespace tessera::core {

using BinaryF32Fn = void (*)(const float* a, const float* b, float* y,
                             std::size_t n);
using UnaryF32Fn = void (*)(const float* x, float* y, std::size_t n);

struct ElementwiseKernels {
  BinaryF32Fn add_f32 = nullptr;
  BinaryF32Fn mul_f32 = nullptr;
  UnaryF32Fn relu_f32 = nullptr;
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
};

}  // namespace tessera::core
