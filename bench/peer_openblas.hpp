// OpenBLAS as a peer on its best kernel for this host. OpenBLAS picks its
// kernels (its "core") in a load-time constructor from cpuid, and a release
// that predates the CPU falls back to an old core: OpenBLAS 0.3.21 runs a
// 2023 Xeon on its Prescott (SSE3) kernels. A comparison against that is
// void, so the benches call select_openblas_core() first thing in main():
//   1. a user's OPENBLAS_CORETYPE / OPENBLAS_L2_SIZE are removed (by
//      re-executing without them), so the detection below is OpenBLAS's own;
//   2. when the detected core is below the best core OpenBLAS has for the
//      host's ISA (SkylakeX or Cooperlake for AVX-512, Haswell or Zen for
//      AVX2, Sandybridge for AVX), the bench re-executes itself with
//      OPENBLAS_CORETYPE set to that core;
//   3. TESSERA_BENCH_OPENBLAS_CORE=<name> forces a core instead (to compare
//      against a specific one).
// The report names the detected and the used core.
#pragma once

#include <string>

namespace tessera::bench {

// `bench` names the program in messages. Returns normally in the process
// that measures; may re-execute the program (at most twice).
void select_openblas_core(char** argv, const char* bench);

// "OpenBLAS 0.3.21 ..., core detected Prescott, used SkylakeX (set by the
// bench: the best OpenBLAS core for avx512)", or why OpenBLAS is absent.
std::string openblas_report();

// The core OpenBLAS runs on ("SkylakeX"), "" without OpenBLAS.
std::string openblas_core();

// The best core OpenBLAS 0.3.21 has for this host ("" when none is better
// than its generic kernels) and its ISA tier name.
std::string best_openblas_core_for_host(std::string* tier);

}  // namespace tessera::bench
