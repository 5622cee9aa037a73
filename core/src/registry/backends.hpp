// The kernel tables of the backends this build contains: the naive family's
// one portable table, and tessera::core::<isa>::kKernelTable for every <isa>
// of TESSERA_BUILT_ISAS (build_config.h, generated from the backend list in
// toolchains/modules/TesseraTarget.cmake), each defined in its backend's
// core/src/isa/kernels_<isa>.cc. Only built backends are declared, so there
// are no stubs.
//
// Tables are constant-initialised data, not functions: touching the AVX-512
// table on a CPU without AVX-512 runs no AVX-512 code. Only calling through
// one of its pointers would, and the registry only selects a table whose
// required CPU features the CPU reports.
#pragma once

#include "core/src/registry/kernel_table.hpp"
#include "tessera/platform/build_config.h"

namespace tessera::core {

extern const KernelTable kNaiveKernelTable;

#define TESSERA_DECLARE_KERNEL_TABLE_(isa) \
  namespace isa {                          \
  extern const KernelTable kKernelTable;   \
  }
TESSERA_BUILT_ISAS(TESSERA_DECLARE_KERNEL_TABLE_)
#undef TESSERA_DECLARE_KERNEL_TABLE_

}  // namespace tessera::core
