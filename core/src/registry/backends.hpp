// The kernel tables each compiled ISA backend exports. Only backends this
// build contains are declared (build_config.h), so there are no stubs.
//
// Tables are constant-initialised data, not functions: touching the AVX-512
// table on a CPU without AVX-512 runs no AVX-512 code. Only calling through
// one of its pointers would, and the registry only selects a table whose
// level isa_detected() confirmed.
#pragma once

#include "core/src/registry/kernel_table.hpp"
#include "tessera/platform/build_config.h"

namespace tessera::core {

extern const KernelTable kNaiveKernelTable;
extern const KernelTable kScalarKernelTable;
#if TESSERA_BUILT_SSE2
extern const KernelTable kSse2KernelTable;
#endif
#if TESSERA_BUILT_AVX2
extern const KernelTable kAvx2KernelTable;
#endif
#if TESSERA_BUILT_AVX512
extern const KernelTable kAvx512KernelTable;
#endif
#if TESSERA_BUILT_NEON
extern const KernelTable kNeonKernelTable;
#endif
#if TESSERA_BUILT_SIMD128
extern const KernelTable kSimd128KernelTable;
#endif

}  // namespace tessera::core
