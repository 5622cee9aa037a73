// The dot and gemv part of `tessera-cli selftest` (selftest_command.cc).
#pragma once

#include "tessera/tessera.hpp"

namespace tessera::cli {

// Checks dot and gemv (f32, f64) of `context` against `naive` on shapes that
// cross the vector widths, panels and dot's fixed blocks, with negative
// increments; prints one PASS/FAIL line per op and dtype and counts them.
void selftest_blas1(const Context& naive, const Context& context, int* passes, int* failures);

}  // namespace tessera::cli
