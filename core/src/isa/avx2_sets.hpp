// The avx2 backend's kernel sets, referenced by address from its kernel
// table (kernels_avx2.cc) and from avx2_vnni's, which shares everything but
// the integer GEMM (kernels_avx2_vnni.cc).
#pragma once

#include "core/src/isa/backend_table.hpp"

namespace tessera::core::avx2 {

extern const GemmKernelSet<float> kGemmF32;
extern const GemmKernelSet<double> kGemmF64;
extern const TraitKernelSets kSets;

}  // namespace tessera::core::avx2
