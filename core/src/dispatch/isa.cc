#include "tessera/isa.hpp"

namespace tessera {

const char* isa_name(Isa isa) noexcept {
  switch (isa) {
    case Isa::kScalar: return "scalar";
    case Isa::kSse2: return "sse2";
    case Isa::kAvx2: return "avx2";
    case Isa::kAvx512: return "avx512";
    case Isa::kNeon: return "neon";
    case Isa::kSimd128: return "simd128";
  }
  return "unknown";
}

bool parse_isa(std::string_view text, Isa* out) noexcept {
  for (int i = 0; i < kIsaCount; ++i) {
    const Isa isa = static_cast<Isa>(i);
    if (text == isa_name(isa)) {
      *out = isa;
      return true;
    }
  }
  return false;
}

const char* kernel_family_name(KernelFamily family) noexcept {
  return family == KernelFamily::kNaive ? "naive" : "optimized";
}

}  // namespace tessera
