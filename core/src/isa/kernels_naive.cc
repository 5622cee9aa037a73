// The naive family: one portable table of independent reference kernels.
#include "core/src/blas1/blas1_naive.hpp"
#include "core/src/elementwise/elementwise_naive.hpp"
#include "core/src/gemm/gemm_naive.hpp"
#include "core/src/half/half_naive.hpp"
#include "core/src/qgemm/qgemm_naive.hpp"
#include "core/src/quantize/quantize_naive.hpp"
#include "core/src/reduce/reduce_naive.hpp"
#include "core/src/registry/backends.hpp"

namespace tessera::core {
namespace {

constinit const ElementwiseKernels kElementwise = naive::elementwise_kernels();
constinit const Blas1Kernels kBlas1 = naive::blas1_kernels();
constinit const ReduceKernels kReduce = naive::reduce_kernels();
constinit const QuantizeKernels kQuantize = naive::quantize_kernels();
constinit const HalfKernels kHalf = naive::half_kernels();

}  // namespace

constinit const KernelTable kNaiveKernelTable = {
    KernelFamily::kNaive,
    Isa::kScalar,
    {},
    &kElementwise,
    {nullptr, nullptr, &naive::gemm_f32, &naive::gemm_f64},
    &kBlas1,
    &kReduce,
    {nullptr, &naive::qgemm},
    &kQuantize,
    &kHalf,
};

}  // namespace tessera::core
