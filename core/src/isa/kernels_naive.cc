// The naive family: one portable table of independent reference kernels.
#include "core/src/blas1/blas1_naive.hpp"
#include "core/src/elementwise/elementwise_naive.hpp"
#include "core/src/gemm/gemm_naive.hpp"
#include "core/src/reduce/reduce_naive.hpp"
#include "core/src/registry/backends.hpp"

namespace tessera::core {

constinit const KernelTable kNaiveKernelTable = {
    KernelFamily::kNaive,
    Isa::kScalar,
    {},
    naive::elementwise_kernels(),
    {nullptr, nullptr, &naive::gemm_f32, &naive::gemm_f64},
    naive::blas1_kernels(),
    naive::reduce_kernels(),
};

}  // namespace tessera::core
