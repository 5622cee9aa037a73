// The avx512 backend's kernel table: the generic bodies instantiated with the
// avx512 vector traits. Built with this ISA's compiler flags (CMake adds them
// by the file-name suffix), and only on targets that can have it.
#include "core/src/elementwise/elementwise_body.hpp"
#include "core/src/gemm/gemm_kernel_sets.hpp"
#include "core/src/registry/backends.hpp"
#include "core/src/simd/vec_avx512.hpp"

namespace tessera::core {

constinit const KernelTable kAvx512KernelTable = {
    KernelFamily::kOptimized,
    Isa::kAvx512,
    elementwise::elementwise_kernels<simd::avx512::F32>(),
    {&gemm::kAvx512F32, &gemm::kAvx512F64, nullptr, nullptr},
};

}  // namespace tessera::core
