// KernelTable: everything one (family, ISA level) provides, as typed function
// pointers. A Context picks one table at creation (detected ∩ built ∩
// requested, design.md §ISA dispatch) and every call dispatches through
// it: no per-call feature checks. A null entry means "this table does not
// implement it".
#pragma once

#include "core/src/kernels/blas1_kernel.hpp"
#include "core/src/kernels/elementwise_kernel.hpp"
#include "core/src/kernels/gemm_kernel.hpp"
#include "core/src/kernels/half_kernel.hpp"
#include "core/src/kernels/qgemm_kernel.hpp"
#include "core/src/kernels/quantize_kernel.hpp"
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
  // The kernel sets, by address: a level that shares another's kernels
  // (avx512_vnni has avx512's f32 and f64 ones) points at that level's,
  // defined once, compiled once with that level's flags.
  const ElementwiseKernels* elementwise;
  GemmKernels gemm;
  const Blas1Kernels* blas1;  // dot, gemv
  const ReduceKernels* reduce;  // last-axis reductions, softmax
  QGemmKernels qgemm;  // integer GEMM
  const QuantizeKernels* quantize;  // DynamicQuantizeLinear's passes
  const HalfKernels* half;  // f32 <-> f16, f32 <-> bf16
};

}  // namespace tessera::core
