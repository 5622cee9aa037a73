// The machine's read bandwidth over a given number of bytes, measured by
// plain streaming sums: the reference a bandwidth-bound call (gemv, dot, an
// integer GEMM on one row) is reported against. Over the call's own bytes,
// because a 64 MiB matrix on a 32 MiB L3 is partly served by the L3 on
// every repeat: against DRAM's rate a gemv would read "190%".
#pragma once

#include <cstddef>

#include "bench_support.hpp"

namespace tessera::bench {

struct Bandwidth {
  Summary gbs;      // of the best stream count
  int streams = 1;  // that count
};

// Read rate over `bytes`, each of `threads` threads passing over its own
// slice, passes repeated for >= ~4 ms a sample. Per stream count (1, 2, 4,
// 8 side-by-side streams a thread) the median of `samples`; the best
// median wins.
Bandwidth read_bandwidth(std::size_t bytes, int threads, int samples);

}  // namespace tessera::bench
