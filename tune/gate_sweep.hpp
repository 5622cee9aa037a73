// The gates' sweeps: the thresholds that send a call down a cheaper path.
//  - TESSERA_DIRECT_SLICE_BYTES, the direct (unpacked) GEMM path's limit:
//    timed at one thread on square sgemms from 96 to 320, where the cache
//    model's budget sends some direct and some packed.
//  - TESSERA_PARALLEL_THRESHOLD, GEMM's serial gate on m*n*k: it decides
//    explicit threads(n) requests (the automatic path's per-worker minimum
//    already keeps such calls on one worker), timed on small GEMMs around
//    the default 48*48*256 with threads(N).
//  - TESSERA_GEMV_PARALLEL_BYTES, the bandwidth resolver's floor (gemv and
//    dot): timed on automatic sgemv from 256 KiB to 8 MiB of matrix, around
//    the cache model's floor (one core's private L2). With tiers (4 or more
//    participants) also TESSERA_GEMV_TIER_STEP.
#pragma once

#include <string>
#include <vector>

#include "tessera/tessera.hpp"

namespace tessera::tune {

struct GateOutcome {
  bool swept = false;
  Knobs chosen;  // the gate knobs that won (unset: the default kept)
  std::vector<std::string> changes;  // one line per sweep that changed something
  std::vector<std::string> notes;
};

GateOutcome sweep_gates(int threads, int rounds, double margin, double* budget_seconds,
                        bool dry_run);

}  // namespace tessera::tune
