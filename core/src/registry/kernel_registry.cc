#include "core/src/registry/kernel_registry.hpp"

#include "core/src/registry/backends.hpp"

namespace tessera::core {

const std::vector<const KernelTable*>& registered_tables() noexcept {
  static const std::vector<const KernelTable*> tables = {
      &kNaiveKernelTable,
      &kScalarKernelTable,
#if TESSERA_BUILT_SSE2
      &kSse2KernelTable,
#endif
#if TESSERA_BUILT_AVX2
      &kAvx2KernelTable,
#endif
#if TESSERA_BUILT_AVX512
      &kAvx512KernelTable,
#endif
#if TESSERA_BUILT_NEON
      &kNeonKernelTable,
#endif
#if TESSERA_BUILT_SIMD128
      &kSimd128KernelTable,
#endif
  };
  return tables;
}

bool isa_detected(Isa isa, const platform::CpuFeatures& cpu) noexcept {
  switch (isa) {
    case Isa::kScalar: return true;
    case Isa::kSse2: return cpu.sse2;
    case Isa::kAvx2: return cpu.avx2 && cpu.fma;
    // The AVX-512 backend is compiled with F + VL + BW + DQ (the Skylake-SP
    // baseline), so the compiler may use any of them.
    case Isa::kAvx512:
      return cpu.avx512f && cpu.avx512vl && cpu.avx512bw && cpu.avx512dq;
    case Isa::kNeon: return cpu.neon;
    case Isa::kSimd128: return cpu.simd128;
  }
  return false;
}

std::vector<Isa> supported_isas(const platform::CpuFeatures& cpu) {
  std::vector<Isa> isas;
  for (const KernelTable* table : registered_tables()) {
    if (table->family == KernelFamily::kOptimized &&
        isa_detected(table->isa, cpu)) {
      isas.push_back(table->isa);
    }
  }
  return isas;
}

std::string isa_list(const std::vector<Isa>& isas) {
  std::string text;
  for (Isa isa : isas) {
    if (!text.empty()) text += ", ";
    text += isa_name(isa);
  }
  return text;
}

Status select_table(KernelFamily family, const Isa* forced,
                    const char* source, const platform::CpuFeatures& cpu,
                    const KernelTable** out) {
  if (family == KernelFamily::kNaive) {
    *out = &kNaiveKernelTable;
    return {};
  }
  const KernelTable* best = nullptr;
  for (const KernelTable* table : registered_tables()) {
    if (table->family != KernelFamily::kOptimized) continue;
    if (!isa_detected(table->isa, cpu)) continue;
    if (forced != nullptr) {
      if (table->isa == *forced) best = table;
    } else {
      best = table;  // ascending order: the last supported one is highest
    }
  }
  if (best == nullptr && forced == nullptr) {
    return Status::internal("no optimized kernel table is registered");
  }
  if (best == nullptr) {
    return Status::unsupported(
        std::string(source) + "=" + isa_name(*forced) +
        " is not supported by this build on this CPU; supported levels: " +
        isa_list(supported_isas(cpu)));
  }
  *out = best;
  return {};
}

}  // namespace tessera::core
