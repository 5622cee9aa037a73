// Tuned profiles (design.md §Profiles): the speed knobs measured on one
// machine by tessera-tune, written as a small versioned JSON file and
// applied by the contexts made there (TESSERA_PROFILE=path, or
// ContextOptions::profile). A profile is keyed by what it was measured on;
// a context on another CPU, ISA level or tessera version rejects it with
// the reason among its fallbacks (or applies it anyway when asked to,
// ContextOptions::profile_portable / TESSERA_PROFILE_PORTABLE=1, with a
// warning there). Knobs set in the environment or programmatically win
// over the profile's.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tessera/isa.hpp"
#include "tessera/knobs.hpp"
#include "tessera/platform/status.hpp"
#include "tessera/platform/build_config.h"  // TESSERA_CXX_API_BEGIN

TESSERA_CXX_API_BEGIN
namespace tessera {

// What a profile was measured on; a context applies it only where every
// field is the same.
struct ProfileKey {
  std::string cpu_vendor;  // platform::CpuFeatures::vendor ("" unknown)
  int cpu_family = -1;
  int cpu_model = -1;
  std::string isa;         // the level the context runs ("avx512_vnni")
  std::uint64_t l1d_bytes = 0;  // one core's caches, 0 unknown
  std::uint64_t l2_bytes = 0;
  std::uint64_t l3_bytes = 0;
  int logical_cpus = 0;    // the process's visible CPUs
  std::string tessera_version;
  bool operator==(const ProfileKey&) const = default;
};

// GEMM cache blocking for one element type on the profile's level: the
// depth slice kc, row block mc and column block nc. Applied rounded down
// to the level's register tile. kc decides how each element's sum is
// sliced, so a kc other than the model's changes results (the
// reproducibility contract then holds for that profile); mc and nc do not.
struct GemmBlockingChoice {
  std::int64_t kc = 0;
  std::int64_t mc = 0;
  std::int64_t nc = 0;
  bool operator==(const GemmBlockingChoice&) const = default;
};

struct Profile {
  static constexpr int kFormatVersion = 1;
  ProfileKey measured_on;
  // Only the knobs that decide speed: parallel_threshold,
  // par_mnk_per_worker, full_width_mnk, gemv_parallel_bytes,
  // gemv_tier_step, gemv_thread_cap, parallel_oversample,
  // packed_oversample, pool_classes. A profile naming another is malformed.
  Knobs knobs;
  std::optional<GemmBlockingChoice> gemm_f32;
  std::optional<GemmBlockingChoice> gemm_f64;
  // Whether results differ from the defaults' (a kc other than the
  // model's): the tuner decides it and says it in the file's header.
  bool changes_bits = false;
  // What the tuner measured, one line per setting it tried (for people).
  std::vector<std::string> notes;
};

// This process's key on ISA level `isa`.
ProfileKey this_host_profile_key(Isa isa);

// Why a profile measured on `measured` does not fit `here` ("measured on
// AuthenticAMD family 25 model 17, this CPU is GenuineIntel family 6
// model 143"), "" when it fits.
std::string profile_key_mismatch(const ProfileKey& measured, const ProfileKey& here);

// The profile as its JSON file (deterministic: fixed key order).
std::string profile_to_json(const Profile& profile);

// Parses a profile file's text. A malformed file — bad JSON, an unknown or
// missing key, a value of the wrong type or out of range, another format
// version — is invalid_argument naming the key ("profile: settings.
// TESSERA_PAR_MNK_PER_WORKER must be an integer >= 1").
Status parse_profile(std::string_view json, Profile* out);

// Checks a profile made in code (ContextOptions::profile) as parse_profile
// checks a file: only speed knobs, each in range; blockings in [1, 65536].
Status validate_profile(const Profile& profile);

// Reads and parses the file at `path`; a file that cannot be read is
// invalid_argument naming the path.
Status read_profile_file(const std::string& path, Profile* out);

}  // namespace tessera
TESSERA_CXX_API_END
