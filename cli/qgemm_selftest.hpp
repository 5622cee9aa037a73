// The integer GEMM part of `tessera-cli selftest` (selftest_command.cc).
#pragma once

#include "tessera/tessera.hpp"

namespace tessera::cli {

// Checks the integer GEMM of `context` against `naive`, bit for bit (the
// contract is exact): every pairing of u8 and s8, per-tensor and per-column
// zero points, transposes and both layouts, on shapes that cross the
// register tiles and the depth groups; the int32 product, the requantized u8
// and s8 outputs, the f32 output with a bias and an activation, and the
// product on a prepacked B. Prints one PASS/FAIL line per output kind.
void selftest_qgemm(const Context& naive, const Context& context, int* passes, int* failures);

}  // namespace tessera::cli
