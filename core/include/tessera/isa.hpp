// ISA levels and kernel families: the two coordinates of every kernel that
// tessera registers.
#pragma once

#include <cstdint>
#include <string_view>

namespace tessera {

// Instruction-set levels. Within one architecture a higher level implies the
// lower ones (x86-64: scalar < sse2 < avx2 < avx512; aarch64: scalar < neon;
// wasm32: scalar < simd128). "avx2" means AVX2 + FMA; "avx512" means
// AVX-512 F + VL + BW + DQ (every AVX-512 CPU since Skylake-SP).
enum class Isa : std::uint8_t {
  kScalar = 0,
  kSse2 = 1,
  kAvx2 = 2,
  kAvx512 = 3,
  kNeon = 4,
  kSimd128 = 5,
};
inline constexpr int kIsaCount = 6;

// "scalar", "sse2", "avx2", "avx512", "neon", "simd128".
const char* isa_name(Isa isa) noexcept;
// Parses one of the names above (exactly, lower case). False if unknown.
bool parse_isa(std::string_view text, Isa* out) noexcept;

// naive: independent scalar reference kernels (plain loops, double
// accumulation where it matters), for verification. optimized: production
// kernels, the default.
enum class KernelFamily : std::uint8_t { kOptimized = 0, kNaive = 1 };
const char* kernel_family_name(KernelFamily family) noexcept;

}  // namespace tessera
