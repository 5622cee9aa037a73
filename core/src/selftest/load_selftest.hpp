// The load-time self-test (design.md §Load-time self-test): before a
// context uses an ISA level's kernels, a few small calls on that level (two
// sgemm shapes, a dgemm, sdot, ddot and exp over f32) are checked against
// double-precision loops written here, independent of every kernel. It
// catches a level that computes wrong answers on this CPU and engine (a
// browser's or emulator's SIMD lowering bug, an OS that does not save the
// wide registers), which feature detection cannot see. Each level is
// checked once per process; a context that finds its level failed takes the
// next one down and says why.
#pragma once

#include <optional>
#include <string>

#include "core/src/registry/kernel_table.hpp"
#include "tessera/isa.hpp"
#include "tessera/platform/topology.hpp"

namespace tessera::core {

struct LoadSelftestOutcome {
  bool passed = false;
  // The first check that failed ("sdot n = 67: 11.75 against 12.75 (bound
  // 3.1e-05)"), empty when passed.
  std::string failure;
  double milliseconds = 0;  // what the first run of this level cost
};

// The outcome for the optimized table of `isa` (supported on this CPU),
// computed on first use and then remembered for the process. `topology` is
// the creating context's (the probe runs serially and reads nothing else).
LoadSelftestOutcome load_selftest(Isa isa, const platform::Topology& topology);

// The table a context made on `table`'s level uses: `table` itself, except
// in a test build whose test corrupted that level (below).
const KernelTable* table_in_use(const KernelTable* table);

#if TESSERA_TEST_HOOKS
// Test builds only (TESSERA_TEST_HOOKS, set where TESSERA_BUILD_TESTS is):
// from now on, contexts made on level `isa` get its table with one kernel
// corrupted (the f32 dot block kernel adds 1 to its result), so a test can
// show the self-test catching it; std::nullopt restores the real tables.
// Outcomes for a corrupted level are not remembered.
void corrupt_level_for_tests(std::optional<Isa> isa);
#endif

}  // namespace tessera::core
