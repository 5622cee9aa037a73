// The avx2 backend's kernel table: the generic bodies instantiated with the
// avx2 vector traits. Built with this ISA's compiler flags (CMake adds them
// by the file-name suffix), and only on targets that can have it.
#include "core/src/elementwise/elementwise_body.hpp"
#include "core/src/gemm/gemm_kernel_sets.hpp"
#include "core/src/registry/backends.hpp"
#include "core/src/simd/vec_avx2.hpp"

namespace tessera::core {

constinit const KernelTable kAvx2KernelTable = {
    KernelFamily::kOptimized,
    Isa::kAvx2,
    elementwise::elementwise_kernels<simd::avx2::F32>(),
    {&gemm::kAvx2F32, &gemm::kAvx2F64, nullptr, nullptr},
};

}  // namespace tessera::core
