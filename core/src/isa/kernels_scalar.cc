// The scalar backend's kernel table: the generic bodies instantiated with the
// scalar vector traits. Built with this ISA's compiler flags (CMake adds them
// by the file-name suffix), and only on targets that can have it.
#include "core/src/elementwise/elementwise_body.hpp"
#include "core/src/gemm/gemm_kernel_sets.hpp"
#include "core/src/registry/backends.hpp"
#include "core/src/simd/vec_scalar.hpp"

namespace tessera::core {

constinit const KernelTable kScalarKernelTable = {
    KernelFamily::kOptimized,
    Isa::kScalar,
    elementwise::elementwise_kernels<simd::scalar::F32>(),
    {&gemm::kScalarF32, &gemm::kScalarF64, nullptr, nullptr},
};

}  // namespace tessera::core
