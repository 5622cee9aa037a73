// The GEMM kernel sets each compiled ISA backend exports (defined in
// gemm_kernel_<isa>.cc, referenced by the kernel tables in
// core/src/isa/kernels_<isa>.cc). Only backends this build contains are
// declared.
#pragma once

#include "core/src/gemm/gemm_kernel.hpp"
#include "tessera/platform/build_config.h"

namespace tessera::core::gemm {

extern const GemmKernelSet<float> kScalarF32;
extern const GemmKernelSet<double> kScalarF64;
#if TESSERA_BUILT_SSE2
extern const GemmKernelSet<float> kSse2F32;
extern const GemmKernelSet<double> kSse2F64;
#endif
#if TESSERA_BUILT_AVX2
extern const GemmKernelSet<float> kAvx2F32;
extern const GemmKernelSet<double> kAvx2F64;
#endif
#if TESSERA_BUILT_AVX512
extern const GemmKernelSet<float> kAvx512F32;
extern const GemmKernelSet<double> kAvx512F64;
#endif
#if TESSERA_BUILT_NEON
extern const GemmKernelSet<float> kNeonF32;
extern const GemmKernelSet<double> kNeonF64;
#endif
#if TESSERA_BUILT_SIMD128
extern const GemmKernelSet<float> kSimd128F32;
extern const GemmKernelSet<double> kSimd128F64;
#endif

}  // namespace tessera::core::gemm
