// Knobs (design.md §Knobs): every tunable that tessera reads from the
// environment. Each is read once when a Context is created and can be set
// programmatically instead (ContextOptions::knobs wins over the variable).
// An unset knob keeps the documented default of the code that uses it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tessera/isa.hpp"
#include "tessera/platform/status.hpp"
#include "tessera/platform/build_config.h"  // TESSERA_CXX_API_BEGIN

TESSERA_CXX_API_BEGIN
namespace tessera {

struct Knobs {
  // GEMM serial gate on m*n*k (default 48*48*256).
  std::optional<std::uint64_t> parallel_threshold;   // TESSERA_PARALLEL_THRESHOLD
  // m*n*k per worker on the automatic path (default 2,000,000).
  std::optional<std::uint64_t> par_mnk_per_worker;   // TESSERA_PAR_MNK_PER_WORKER
  // m*n*k at which the automatic path uses full width.
  std::optional<std::uint64_t> full_width_mnk;       // TESSERA_FULL_WIDTH_MNK
  // Bytes touched below which gemv/dot stay serial.
  std::optional<std::uint64_t> gemv_parallel_bytes;  // TESSERA_GEMV_PARALLEL_BYTES
  std::optional<std::uint32_t> gemv_tier_step;       // TESSERA_GEMV_TIER_STEP
  std::optional<std::uint32_t> gemv_thread_cap;      // TESSERA_GEMV_THREAD_CAP
  std::optional<std::uint32_t> pool_classes;         // TESSERA_POOL_CLASSES
  // Bytes one depth slice of A may take for GEMM's direct (unpacked) path;
  // unset: the cache model's (the host's L2, a quarter of it for narrow
  // panels; 16 KiB on the fixed 128-bit levels). Speed only: the direct
  // and packed paths give the same bits.
  std::optional<std::uint64_t> direct_slice_bytes;   // TESSERA_DIRECT_SLICE_BYTES
  std::optional<std::uint32_t> parallel_oversample;  // TESSERA_PARALLEL_OVERSAMPLE
  std::optional<std::uint32_t> packed_oversample;    // TESSERA_PACKED_OVERSAMPLE
  std::optional<std::uint32_t> wasm_threads;         // TESSERA_WASM_THREADS
  std::optional<Isa> isa;                            // TESSERA_ISA
  std::optional<std::uint32_t> num_threads;          // TESSERA_NUM_THREADS
  // 1: check the selected ISA level's kernels when the first context on it
  // is made, and take the next level down if they fail (design.md
  // §Load-time self-test); 0: do not. Default 1 on wasm targets (the JS
  // package, WASI), 0 natively.
  std::optional<std::uint32_t> selftest;             // TESSERA_SELFTEST
};

// Describes one knob for documentation and `tessera-cli info`.
struct KnobInfo {
  const char* variable;   // "TESSERA_GEMV_TIER_STEP"
  std::uint64_t min;      // inclusive bounds of a numeric knob
  std::uint64_t max;
  const char* meaning;
};
const std::vector<KnobInfo>& knob_catalog();

// Reads every TESSERA_* knob present in the environment into `out` (fields
// of absent variables are left as they are). A bad value — non-numeric,
// negative, out of range, an unknown ISA name — is an error naming the
// variable and nothing is changed.
Status read_knobs_from_environment(Knobs* out);

// Checks programmatically set values against the same ranges; errors name
// the knob by its variable.
Status validate_knobs(const Knobs& knobs);

// Every set knob as "NAME=value" lines (for info output).
std::vector<std::string> describe_knobs(const Knobs& knobs);

}  // namespace tessera
TESSERA_CXX_API_END
