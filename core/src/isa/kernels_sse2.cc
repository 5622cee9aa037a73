// The sse2 backend's kernel table: the generic bodies instantiated with the
// sse2 vector traits. Built with this ISA's compiler flags (CMake adds them
// by the file-name suffix), and only on targets that can have it.
#include "core/src/elementwise/elementwise_body.hpp"
#include "core/src/gemm/gemm_kernel_sets.hpp"
#include "core/src/registry/backends.hpp"
#include "core/src/simd/vec_sse2.hpp"

namespace tessera::core {

constinit const KernelTable kSse2KernelTable = {
    KernelFamily::kOptimized,
    Isa::kSse2,
    elementwise::elementwise_kernels<simd::sse2::F32>(),
    {&gemm::kSse2F32, &gemm::kSse2F64, nullptr, nullptr},
};

}  // namespace tessera::core
