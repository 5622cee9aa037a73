// The half-precision part of `tessera-cli selftest` (selftest_command.cc).
#pragma once

#include "tessera/tessera.hpp"

namespace tessera::cli {

// Checks the f32 <-> f16 and f32 <-> bf16 conversions of `context` against
// `naive`, bit for bit: widening every one of the 2^16 half values, and
// narrowing every 16-bit upper half of an f32 with low halves around the
// rounding points, at lengths that leave register tails. Prints one
// PASS/FAIL line per format.
void selftest_half(const Context& naive, const Context& context, int* passes, int* failures);

}  // namespace tessera::cli
