#include "core/src/registry/kernel_registry.hpp"

#include <algorithm>

#include "core/src/registry/backends.hpp"

namespace tessera::core {

const std::vector<const KernelTable*>& registered_tables() noexcept {
  static const std::vector<const KernelTable*> tables = [] {
    std::vector<const KernelTable*> optimized = {
#define TESSERA_KERNEL_TABLE_OF_(isa) &isa::kKernelTable,
        TESSERA_BUILT_ISAS(TESSERA_KERNEL_TABLE_OF_)
#undef TESSERA_KERNEL_TABLE_OF_
    };
    // Rank order comes from the ISA list, not from the order CMake lists
    // the backends in.
    std::sort(optimized.begin(), optimized.end(),
              [](const KernelTable* a, const KernelTable* b) { return a->isa < b->isa; });
    std::vector<const KernelTable*> all = {&kNaiveKernelTable};
    all.insert(all.end(), optimized.begin(), optimized.end());
    return all;
  }();
  return tables;
}

bool table_runnable(const KernelTable& table,
                    const platform::CpuFeatures& cpu) noexcept {
  for (const CpuFeatureFlag flag : table.required) {
    if (flag != nullptr && !(cpu.*flag)) return false;
  }
  return true;
}

bool isa_detected(Isa isa, const platform::CpuFeatures& cpu) noexcept {
  for (const KernelTable* table : registered_tables()) {
    if (table->family == KernelFamily::kOptimized && table->isa == isa) {
      return table_runnable(*table, cpu);
    }
  }
  return false;
}

std::vector<Isa> supported_isas(const platform::CpuFeatures& cpu) {
  std::vector<Isa> isas;
  for (const KernelTable* table : registered_tables()) {
    if (table->family == KernelFamily::kOptimized &&
        table_runnable(*table, cpu)) {
      isas.push_back(table->isa);
    }
  }
  return isas;
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
    if (!table_runnable(*table, cpu)) continue;
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
