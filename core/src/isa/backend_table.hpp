// What every optimized backend file (kernels_<isa>.cc) builds the same way:
// the kernel sets that are generic in its vector traits (elementwise,
// dot/gemv, reductions, DynamicQuantizeLinear's passes, half-precision
// conversions), instantiated in that
// file with its flags, and its kernel table, which lists them next to the
// backend's own GEMM and integer GEMM sets. A level that shares another's
// sets (avx512_vnni, neon_dotprod) lists the other level's by address.
#pragma once

#include <array>

#include "core/src/blas1/blas1_body.hpp"
#include "core/src/elementwise/elementwise_body.hpp"
#include "core/src/gemm/gemm_microkernel.hpp"
#include "core/src/half/half_body.hpp"
#include "core/src/qgemm/qgemm_microkernel.hpp"
#include "core/src/quantize/quantize_body.hpp"
#include "core/src/reduce/reduce_body.hpp"
#include "core/src/registry/backends.hpp"

namespace tessera::core {

// The sets a backend instantiates from its f32 and f64 vector traits and
// its half-precision conversions (Half) alone.
struct TraitKernelSets {
  ElementwiseKernels elementwise;
  Blas1Kernels blas1;
  ReduceKernels reduce;
  QuantizeKernels quantize;
  HalfKernels half;
};

template <class F32, class F64, class Half>
constexpr TraitKernelSets trait_kernel_sets() {
  return {elementwise::elementwise_kernels<F32, F64>(), blas1::blas1_kernels<F32, F64, Half>(),
          reduce::reduce_kernels<F32, F64>(), quantize::quantize_kernels<F32>(),
          half::half_kernels<Half>()};
}

// Every CPU feature the backend's code needs (unused entries null).
using RequiredFeatures = std::array<CpuFeatureFlag, kMaxRequiredFeatures>;

// The optimized family's table of `isa`: `sets` and the GEMM sets by address.
constexpr KernelTable optimized_table(Isa isa, const RequiredFeatures& required,
                                      const TraitKernelSets& sets, GemmKernels gemm,
                                      QGemmKernels qgemm) {
  KernelTable table{KernelFamily::kOptimized, isa,   {},    &sets.elementwise, gemm,
                    &sets.blas1,              &sets.reduce, qgemm, &sets.quantize,    &sets.half};
  for (int i = 0; i < kMaxRequiredFeatures; ++i) table.required[i] = required[i];
  return table;
}

}  // namespace tessera::core
