// The f32 and f64 FMA peak of one core per x86-64 level this CPU has
// (avx512, avx2): register-only FMA chains, the best of 15 short runs each.
// bench-gemm reports its GEMMs against it; bench-qgemm sets the integer
// levels' own peaks beside it (an integer GEMM's speed-up over sgemm can
// be no more than the ratio of the two peaks).
#pragma once

#include <string>
#include <vector>

namespace tessera::bench {

struct FmaPeak {
  std::string isa;  // "avx512", "avx2"
  double f32 = 0, f64 = 0;  // GFLOP/s, one core
};

// Empty on other architectures.
std::vector<FmaPeak> measure_fma_peaks();

}  // namespace tessera::bench
