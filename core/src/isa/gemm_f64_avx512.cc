// The avx512 backend's f64 GEMM kernel set (avx512_sets.hpp).
#include "core/src/gemm/gemm_microkernel.hpp"
#include "core/src/isa/avx512_sets.hpp"
#include "core/src/simd/vec_avx512.hpp"

namespace tessera::core::avx512 {

constinit const GemmKernelSet<double> kGemmF64 =
    gemm::make_kernel_set<simd::avx512::F64, kGemmTilesF64>();

}  // namespace tessera::core::avx512
