// The neon backend's kernel sets, referenced by address from its kernel
// table (kernels_neon.cc) and from neon_dotprod's, which shares everything
// but the integer GEMM (kernels_neon_dotprod.cc).
#pragma once

#include "core/src/isa/backend_table.hpp"

namespace tessera::core::neon {

extern const GemmKernelSet<float> kGemmF32;
extern const GemmKernelSet<double> kGemmF64;
extern const TraitKernelSets kSets;

}  // namespace tessera::core::neon
