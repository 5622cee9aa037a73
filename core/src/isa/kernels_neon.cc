// The neon backend's kernel table: the generic bodies instantiated with the
// neon vector traits. Built with this ISA's compiler flags (CMake adds them
// by the file-name suffix), and only on targets that can have it.
#include "core/src/elementwise/elementwise_body.hpp"
#include "core/src/gemm/gemm_kernel_sets.hpp"
#include "core/src/registry/backends.hpp"
#include "core/src/simd/vec_neon.hpp"

namespace tessera::core {

constinit const KernelTable kNeonKernelTable = {
    KernelFamily::kOptimized,
    Isa::kNeon,
    elementwise::elementwise_kernels<simd::neon::F32>(),
    {&gemm::kNeonF32, &gemm::kNeonF64, nullptr, nullptr},
};

}  // namespace tessera::core
