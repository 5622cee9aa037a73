// Internal helpers over the ISA list (TESSERA_ISA_LEVELS in
// core/include/tessera/isa.hpp), for messages that name levels.
#pragma once

#include <string>
#include <vector>

#include "tessera/isa.hpp"

namespace tessera::core {

// Every level of the list, in rank order, whether this build has it or not.
std::vector<Isa> all_isas();

// "scalar, sse2, avx2, avx512"
std::string isa_list(const std::vector<Isa>& isas);

}  // namespace tessera::core
