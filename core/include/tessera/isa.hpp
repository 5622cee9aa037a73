// ISA levels and kernel families: the two coordinates of every kernel that
// tessera registers.
#pragma once

#include <cstdint>
#include <string_view>

#include "tessera/platform/build_config.h"  // TESSERA_CXX_API_BEGIN

// The ISA levels, one line each: X(Enumerator, name) declares Isa::kEnumerator
// and its name (the TESSERA_ISA value, the kernel file suffix
// core/src/isa/kernels_<name>.cc). This list is the only place the levels are
// spelled out: the enum, isa_name/parse_isa, the knob and error messages and
// the kernel registry are all generated from it. Line order is rank order:
// within one architecture a later level is a higher one and, but for
// avx2_vnni, implies the earlier ones (x86-64: scalar < sse2 < avx2 <
// avx2_vnni < avx512 < avx512_vnni < amx; an AVX-512 CPU may lack
// AVX-VNNI, and the registry picks the highest level the CPU has;
// aarch64: scalar < neon < neon_dotprod; wasm32: scalar < simd128 <
// simd128_relaxed), and the registry picks the highest. "simd128_relaxed" is SIMD128 plus relaxed SIMD's fused
// multiply-add (f32x4/f64x2.relaxed_madd), in a module of its own (a host
// without relaxed SIMD rejects the whole module).
// "avx2" means AVX2 + FMA; "avx512" means AVX-512 F + VL + BW + DQ (every
// AVX-512 CPU since Skylake-SP); "avx512_vnni" adds VNNI (vpdpbusd: Cascade
// Lake, Ice Lake, Zen 4 and later), "avx2_vnni" adds AVX-VNNI to avx2
// (VEX vpdpbusd on ymm: Alder Lake, Zen 5 and later, for CPUs without
// AVX-512), "amx" adds AMX-INT8 to avx512_vnni (tdpbusd on 16 x 64-byte
// tiles: Sapphire Rapids and later Xeons) and "neon_dotprod" the ARMv8.2
// dot product (sdot): each runs
// the level below's f32 and f64 kernels, the same code and bits, and only
// its integer GEMM differs. Which levels a build contains, and their
// compiler flags, is the CMake list in toolchains/modules/TesseraTarget.cmake.
#define TESSERA_ISA_LEVELS(X) \
  X(Scalar, scalar)           \
  X(Sse2, sse2)               \
  X(Avx2, avx2)               \
  X(Avx2Vnni, avx2_vnni)      \
  X(Avx512, avx512)           \
  X(Avx512Vnni, avx512_vnni)  \
  X(Amx, amx)                 \
  X(Neon, neon)               \
  X(NeonDotprod, neon_dotprod) \
  X(Simd128, simd128)         \
  X(Simd128Relaxed, simd128_relaxed)

TESSERA_CXX_API_BEGIN
namespace tessera {

enum class Isa : std::uint8_t {
#define TESSERA_ISA_ENUMERATOR_(Enumerator, name) k##Enumerator,
  TESSERA_ISA_LEVELS(TESSERA_ISA_ENUMERATOR_)
#undef TESSERA_ISA_ENUMERATOR_
};
#define TESSERA_ISA_COUNT_(Enumerator, name) +1
inline constexpr int kIsaCount = 0 TESSERA_ISA_LEVELS(TESSERA_ISA_COUNT_);
#undef TESSERA_ISA_COUNT_

// The level's name from TESSERA_ISA_LEVELS ("avx512").
const char* isa_name(Isa isa) noexcept;
// Parses one of those names (exactly, lower case). False if unknown.
bool parse_isa(std::string_view text, Isa* out) noexcept;

// naive: independent scalar reference kernels (plain loops, double
// accumulation where it matters), for verification. optimized: production
// kernels, the default.
enum class KernelFamily : std::uint8_t { kOptimized = 0, kNaive = 1 };
const char* kernel_family_name(KernelFamily family) noexcept;

}  // namespace tessera
TESSERA_CXX_API_END
