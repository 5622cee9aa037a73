// The numeric knobs by their variable names, for files that name them
// (tuned profiles): set one with its range check, read one back.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "tessera/knobs.hpp"
#include "tessera/platform/status.hpp"

namespace tessera::core {

// Sets the numeric knob `variable` ("TESSERA_PAR_MNK_PER_WORKER"):
// invalid_argument when no numeric knob has that name or `value` is out of
// its range (the message names `context` first, e.g. "profile: settings.").
Status set_numeric_knob(Knobs* knobs, std::string_view variable, std::uint64_t value,
                        std::string_view context);

// The value of numeric knob `variable` in `knobs` (nullopt when unset or no
// such knob).
std::optional<std::uint64_t> numeric_knob(const Knobs& knobs, std::string_view variable);

}  // namespace tessera::core
