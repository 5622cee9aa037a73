// KernelTable: everything one (family, ISA level) provides, as typed function
// pointers. A Context picks one table at creation (detected ∩ built ∩
// requested, design.md §ISA dispatch) and every call dispatches through
// it: no per-call feature checks. A null entry means "this table does not
// implement it".
#pragma once

#include "core/src/kernels/blas1_kernel.hpp"
#include "core/src/kernels/elementwise_kernel.hpp"
#include "core/src/kernels/gemm_kernel.hpp"
#include "core/src/kernels/reduce_kernel.hpp"
#include "tessera/isa.hpp"
#include "tessera/platform/cpu_features.hpp"

namespace tessera::core {

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
