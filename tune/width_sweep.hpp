// The width knobs' sweep: how the automatic path sizes a GEMM's workers.
// TESSERA_FULL_WIDTH_MNK (m n k from which a call takes the pool's full
// width instead of a tier below it) and TESSERA_PAR_MNK_PER_WORKER (work
// per worker below that), in that order, each challenger timed side by
// side with the setting it would replace, at `threads` participants, on
// square sgemms from 96 to 512 (where one worker, a tier or the full width
// is each the right answer on some machine).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tessera/tessera.hpp"

namespace tessera::tune {

struct WidthOutcome {
  bool swept = false;
  Knobs chosen;  // the width knobs that won (unset: the default kept)
  double confirmed_gain = 1.0;
  std::vector<std::string> notes;
};

WidthOutcome sweep_width_knobs(int threads, int rounds, double margin, double* budget_seconds,
                               bool dry_run);

}  // namespace tessera::tune
