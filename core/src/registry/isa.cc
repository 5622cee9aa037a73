// isa_name, parse_isa and the level lists of messages, all generated from
// TESSERA_ISA_LEVELS.
#include "tessera/isa.hpp"

#include "core/src/registry/isa_levels.hpp"

namespace tessera {

const char* isa_name(Isa isa) noexcept {
  switch (isa) {
#define TESSERA_ISA_NAME_CASE_(Enumerator, name) \
  case Isa::k##Enumerator: return #name;
    TESSERA_ISA_LEVELS(TESSERA_ISA_NAME_CASE_)
#undef TESSERA_ISA_NAME_CASE_
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

namespace core {

std::vector<Isa> all_isas() {
  std::vector<Isa> isas;
  for (int i = 0; i < kIsaCount; ++i) isas.push_back(static_cast<Isa>(i));
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

}  // namespace core
}  // namespace tessera
