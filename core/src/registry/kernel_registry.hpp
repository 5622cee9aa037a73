// The kernel registry: every KernelTable this build contains, and the rule
// that picks one (design.md §ISA dispatch): compiled ∩ detected ∩ allowed,
// highest wins.
#pragma once

#include <string>
#include <vector>

#include "core/src/registry/isa_levels.hpp"
#include "core/src/registry/kernel_table.hpp"
#include "tessera/platform/cpu_features.hpp"
#include "tessera/platform/status.hpp"

namespace tessera::core {

// All registered tables, naive family first, then optimized by ascending ISA
// rank (the order of TESSERA_ISA_LEVELS).
const std::vector<const KernelTable*>& registered_tables() noexcept;

// True if this CPU (and OS) reports every feature `table` requires.
bool table_runnable(const KernelTable& table,
                    const platform::CpuFeatures& cpu) noexcept;

// True if this build has an optimized table of level `isa` and this CPU (and
// OS) can execute its code.
bool isa_detected(Isa isa, const platform::CpuFeatures& cpu) noexcept;

// Optimized-family levels that are both built and detected, ascending.
std::vector<Isa> supported_isas(const platform::CpuFeatures& cpu);

// The table for (family, isa). The naive family exists for every isa (it is
// one portable table); `isa` must be supported for the optimized family.
// `source` names where a forced level came from ("TESSERA_ISA", "the isa
// option") for the error message.
Status select_table(KernelFamily family, const Isa* forced,
                    const char* source, const platform::CpuFeatures& cpu,
                    const KernelTable** out);

}  // namespace tessera::core
