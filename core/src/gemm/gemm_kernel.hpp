// GEMM entries of a KernelTable. Filled in by the GEMM work (issue 4).
#pragma once

namespace tessera::core {

struct GemmKernels {};

}  // namespace tessera::core
