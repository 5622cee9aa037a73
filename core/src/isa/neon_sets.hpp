// The neon backend's kernel sets, referenced by address from its kernel
// table (kernels_neon.cc) and from neon_dotprod's, which shares everything
// but the integer GEMM (kernels_neon_dotprod.cc).
#pragma once

#include "core/src/kernels/blas1_kernel.hpp"
#include "core/src/kernels/elementwise_kernel.hpp"
#include "core/src/kernels/gemm_kernel.hpp"
#include "core/src/kernels/quantize_kernel.hpp"
#include "core/src/kernels/reduce_kernel.hpp"

namespace tessera::core::neon {

extern const GemmKernelSet<float> kGemmF32;
extern const GemmKernelSet<double> kGemmF64;
extern const ElementwiseKernels kElementwise;
extern const Blas1Kernels kBlas1;
extern const ReduceKernels kReduce;
extern const QuantizeKernels kQuantize;

}  // namespace tessera::core::neon
