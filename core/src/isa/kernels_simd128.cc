// The simd128 backend's kernel table: the generic bodies instantiated with the
// simd128 vector traits. Built with this ISA's compiler flags (CMake adds them
// by the file-name suffix), and only on targets that can have it.
#include "core/src/elementwise/elementwise_body.hpp"
#include "core/src/gemm/gemm_kernel_sets.hpp"
#include "core/src/registry/backends.hpp"
#include "core/src/simd/vec_simd128.hpp"

namespace tessera::core {

constinit const KernelTable kSimd128KernelTable = {
    KernelFamily::kOptimized,
    Isa::kSimd128,
    elementwise::elementwise_kernels<simd::simd128::F32>(),
    {&gemm::kSimd128F32, &gemm::kSimd128F64, nullptr, nullptr},
};

}  // namespace tessera::core
