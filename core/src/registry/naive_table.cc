// The naive family: one portable table of independent reference kernels.
#include "core/src/blas1/blas1_naive.hpp"
#include "core/src/elementwise/elementwise_naive.hpp"
#include "core/src/gemm/gemm_naive.hpp"
#include "core/src/registry/backends.hpp"

namespace tessera::core {

constinit const KernelTable kNaiveKernelTable = {
    KernelFamily::kNaive,
    Isa::kScalar,
    {},
    {&naive::add_f32, &naive::mul_f32, &naive::relu_f32},
    {nullptr, nullptr, &naive::gemm_f32, &naive::gemm_f64},
    naive::blas1_kernels(),
};

}  // namespace tessera::core
