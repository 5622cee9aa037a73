// The naive family: one portable table of independent reference kernels.
#include "core/src/elementwise/elementwise_naive.hpp"
#include "core/src/registry/backends.hpp"

namespace tessera::core {

constinit const KernelTable kNaiveKernelTable = {
    KernelFamily::kNaive,
    Isa::kScalar,
    {&naive::add_f32, &naive::mul_f32, &naive::relu_f32},
    {},
};

}  // namespace tessera::core
