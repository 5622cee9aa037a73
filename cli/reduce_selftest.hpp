// The last-axis reduction and softmax part of `tessera-cli selftest`
// (selftest_command.cc).
#pragma once

#include "tessera/tessera.hpp"

namespace tessera::cli {

// Checks sum, max, mean, argmax, softmax and log-softmax (f32, f64) of
// `context` against `naive` on shapes that cross the vector widths and the
// 4096-element blocks; prints one PASS/FAIL line per op and dtype and counts
// them. An op the build does not implement is an explicit FAIL.
void selftest_reduce(const Context& naive, const Context& context, int* passes, int* failures);

}  // namespace tessera::cli
