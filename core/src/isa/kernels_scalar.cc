// The scalar backend: the generic kernel bodies (elementwise, GEMM)
// instantiated with the scalar vector traits (core/src/simd/vec_scalar.hpp),
// and the kernel table the registry finds them by. Built only where this ISA
// is built, with its compiler flags (the tessera_isa_backend line in
// toolchains/modules/TesseraTarget.cmake; CMake adds them by the file-name
// suffix).
//
// GEMM kernel sets of the scalar backend: 4 x 4 tiles (16 scalar
// accumulators fit the 16 FP registers of x86-64 and of wasm engines), fixed
// portable blocking and unfused multiply-add, so scalar results are the same
// on every target (and equal to the SSE2 and SIMD128 ones).
#include "core/src/isa/backend_table.hpp"
#include "core/src/simd/vec_scalar.hpp"

namespace tessera::core::scalar {
namespace {

constexpr GemmTiles kTiles = {
    .mr = 4,
    .nr_vectors = 4,
    .unroll = 4,
    .direct_mr = 4,
    .direct_nr_vectors = 4,
    .wide_mr = 4,
    .wide_nr_vectors = 4,
    .direct_tail_mr = 0,
    .blocking = GemmBlockingRule::kFixedPortable,
    .direct_pack_b_bytes = 0,
};
constinit const GemmKernelSet<float> kGemmF32 = gemm::make_kernel_set<simd::scalar::F32, kTiles>();
constinit const GemmKernelSet<double> kGemmF64 = gemm::make_kernel_set<simd::scalar::F64, kTiles>();

constinit const TraitKernelSets kSets = trait_kernel_sets<simd::scalar::F32, simd::scalar::F64, simd::scalar::Half>();
constinit const QGemmKernelSet kQGemm =
    qgemm::make_qgemm_kernel_set<simd::scalar::I8Pairs, 4, 4>("int16 pairs, scalar");

}  // namespace

constinit const KernelTable kKernelTable =
    optimized_table(Isa::kScalar, {}, kSets, {&kGemmF32, &kGemmF64}, {&kQGemm});

}  // namespace tessera::core::scalar
