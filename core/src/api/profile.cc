#include "tessera/profile.hpp"

#include <cstdio>
#include <string>

#include "core/src/api/json_reader.hpp"
#include "core/src/api/knobs_by_name.hpp"
#include "core/src/parallel/cache_facts.hpp"
#include "tessera/platform/cpu_features.hpp"
#include "tessera/platform/json_writer.hpp"
#include "tessera/platform/topology.hpp"

namespace tessera {
namespace {

// The knobs a profile may set: those that decide speed only. The thread
// count, the wasm pool's width, the pool's tiers (fixed before a profile
// is matched to the context's level), the ISA level and the self-test are
// the deployment's choices, never a measurement's.
constexpr std::string_view kSpeedKnobs[] = {
    "TESSERA_PARALLEL_THRESHOLD",  "TESSERA_PAR_MNK_PER_WORKER", "TESSERA_FULL_WIDTH_MNK",
    "TESSERA_GEMV_PARALLEL_BYTES", "TESSERA_GEMV_TIER_STEP",     "TESSERA_GEMV_THREAD_CAP",
    "TESSERA_PARALLEL_OVERSAMPLE", "TESSERA_PACKED_OVERSAMPLE",  "TESSERA_POOL_CLASSES",
    "TESSERA_DIRECT_SLICE_BYTES",
};

bool is_speed_knob(std::string_view name) {
  for (std::string_view k : kSpeedKnobs) {
    if (k == name) return true;
  }
  return false;
}

constexpr std::string_view kBlockingKeys[2] = {"gemm_f32_blocking", "gemm_f64_blocking"};

std::string key_text(const ProfileKey& k) {
  std::string cpu = k.cpu_vendor.empty() ? std::string("an unknown CPU") : k.cpu_vendor;
  if (k.cpu_family >= 0) cpu += " family " + std::to_string(k.cpu_family);
  if (k.cpu_model >= 0) cpu += " model " + std::to_string(k.cpu_model);
  return cpu;
}

Status bad(const std::string& where, const std::string& what) {
  return Status::invalid_argument("profile: " + where + " " + what);
}

Status read_u64(const core::JsonValue& v, const std::string& where, std::uint64_t* out) {
  if (!v.as_u64(out)) return bad(where, "must be a non-negative integer");
  return {};
}

Status read_int(const core::JsonValue& v, const std::string& where, int* out) {
  if (!v.as_int(out)) return bad(where, "must be an integer");
  return {};
}

Status read_string(const core::JsonValue& v, const std::string& where, std::string* out) {
  if (v.kind != core::JsonValue::Kind::kString) return bad(where, "must be a string");
  *out = v.text;
  return {};
}

// Every key of `object` must be in `known`; every one of `known` present.
Status check_keys(const core::JsonValue& object, const std::string& where,
                  std::initializer_list<std::string_view> known) {
  for (const auto& [name, value] : object.members) {
    bool found = false;
    for (std::string_view k : known) found = found || k == name;
    if (!found) return bad(where + name, "is not a key of a tessera profile");
  }
  for (std::string_view k : known) {
    if (object.find(k) == nullptr) return bad(where + std::string(k), "is missing");
  }
  return {};
}

Status read_key(const core::JsonValue& v, ProfileKey* key) {
  const std::string at = "measured_on.";
  if (v.kind != core::JsonValue::Kind::kObject) return bad("measured_on", "must be an object");
  TESSERA_RETURN_IF_ERROR(check_keys(v, at,
                                     {"cpu_vendor", "cpu_family", "cpu_model", "isa", "l1d_bytes",
                                      "l2_bytes", "l3_bytes", "logical_cpus", "tessera_version"}));
  TESSERA_RETURN_IF_ERROR(read_string(*v.find("cpu_vendor"), at + "cpu_vendor", &key->cpu_vendor));
  TESSERA_RETURN_IF_ERROR(read_int(*v.find("cpu_family"), at + "cpu_family", &key->cpu_family));
  TESSERA_RETURN_IF_ERROR(read_int(*v.find("cpu_model"), at + "cpu_model", &key->cpu_model));
  TESSERA_RETURN_IF_ERROR(read_string(*v.find("isa"), at + "isa", &key->isa));
  Isa isa;
  if (!parse_isa(key->isa.c_str(), &isa)) return bad(at + "isa", "is not an ISA level");
  TESSERA_RETURN_IF_ERROR(read_u64(*v.find("l1d_bytes"), at + "l1d_bytes", &key->l1d_bytes));
  TESSERA_RETURN_IF_ERROR(read_u64(*v.find("l2_bytes"), at + "l2_bytes", &key->l2_bytes));
  TESSERA_RETURN_IF_ERROR(read_u64(*v.find("l3_bytes"), at + "l3_bytes", &key->l3_bytes));
  TESSERA_RETURN_IF_ERROR(
      read_int(*v.find("logical_cpus"), at + "logical_cpus", &key->logical_cpus));
  return read_string(*v.find("tessera_version"), at + "tessera_version", &key->tessera_version);
}

Status read_blocking(const core::JsonValue& v, const std::string& where,
                     GemmBlockingChoice* out) {
  if (v.kind != core::JsonValue::Kind::kObject) return bad(where, "must be an object");
  TESSERA_RETURN_IF_ERROR(check_keys(v, where + ".", {"kc", "mc", "nc"}));
  std::uint64_t value[3];
  const char* names[3] = {"kc", "mc", "nc"};
  for (int i = 0; i < 3; ++i) {
    const std::string at = where + "." + names[i];
    if (!v.find(names[i])->as_u64(&value[i]) || value[i] < 1 || value[i] > 65536) {
      return bad(at, "must be an integer in [1, 65536]");
    }
  }
  out->kc = static_cast<std::int64_t>(value[0]);
  out->mc = static_cast<std::int64_t>(value[1]);
  out->nc = static_cast<std::int64_t>(value[2]);
  return {};
}

Status read_settings(const core::JsonValue& v, Profile* profile) {
  if (v.kind != core::JsonValue::Kind::kObject) return bad("settings", "must be an object");
  for (const auto& [name, value] : v.members) {
    const std::string at = "settings." + name;
    if (name == kBlockingKeys[0] || name == kBlockingKeys[1]) {
      GemmBlockingChoice blocking;
      TESSERA_RETURN_IF_ERROR(read_blocking(value, at, &blocking));
      (name == kBlockingKeys[0] ? profile->gemm_f32 : profile->gemm_f64) = blocking;
      continue;
    }
    if (!is_speed_knob(name)) {
      return bad(at, "is not a setting a profile may hold (the speed knobs and " +
                         std::string(kBlockingKeys[0]) + "/" + std::string(kBlockingKeys[1]) +
                         ")");
    }
    std::uint64_t number = 0;
    TESSERA_RETURN_IF_ERROR(read_u64(value, at, &number));
    TESSERA_RETURN_IF_ERROR(
        core::set_numeric_knob(&profile->knobs, name, number, "profile: settings."));
  }
  return {};
}

}  // namespace

ProfileKey this_host_profile_key(Isa isa) {
  const platform::CpuFeatures& cpu = platform::cpu_features();
  const core::CacheFacts& caches = core::host_cache_facts();
  ProfileKey key;
  key.cpu_vendor = cpu.vendor;
  key.cpu_family = cpu.family;
  key.cpu_model = cpu.model;
  key.isa = isa_name(isa);
  key.l1d_bytes = caches.l1d;
  key.l2_bytes = caches.l2;
  key.l3_bytes = caches.l3;
  key.logical_cpus = static_cast<int>(platform::read_topology().cpus.size());
  key.tessera_version = TESSERA_VERSION_STRING;
  return key;
}

std::string profile_key_mismatch(const ProfileKey& measured, const ProfileKey& here) {
  if (measured.cpu_vendor != here.cpu_vendor || measured.cpu_family != here.cpu_family ||
      measured.cpu_model != here.cpu_model) {
    return "measured on " + key_text(measured) + ", this CPU is " + key_text(here);
  }
  if (measured.isa != here.isa) {
    return "measured on ISA level " + measured.isa + ", this context runs " + here.isa;
  }
  if (measured.l1d_bytes != here.l1d_bytes || measured.l2_bytes != here.l2_bytes ||
      measured.l3_bytes != here.l3_bytes) {
    return "measured with caches L1d " + std::to_string(measured.l1d_bytes) + ", L2 " +
           std::to_string(measured.l2_bytes) + ", L3 " + std::to_string(measured.l3_bytes) +
           " bytes, this host has " + std::to_string(here.l1d_bytes) + ", " +
           std::to_string(here.l2_bytes) + ", " + std::to_string(here.l3_bytes);
  }
  if (measured.logical_cpus != here.logical_cpus) {
    return "measured with " + std::to_string(measured.logical_cpus) +
           " logical CPUs visible, this process sees " + std::to_string(here.logical_cpus);
  }
  if (measured.tessera_version != here.tessera_version) {
    return "measured with tessera " + measured.tessera_version + ", this is tessera " +
           here.tessera_version;
  }
  return "";
}

std::string profile_to_json(const Profile& profile) {
  platform::JsonWriter json;
  json.begin_object();
  json.key("tessera_profile").value(Profile::kFormatVersion);
  json.key("changes_bits").value(profile.changes_bits);
  const ProfileKey& k = profile.measured_on;
  json.key("measured_on").begin_object();
  json.key("cpu_vendor").value(k.cpu_vendor);
  json.key("cpu_family").value(k.cpu_family);
  json.key("cpu_model").value(k.cpu_model);
  json.key("isa").value(k.isa);
  json.key("l1d_bytes").value(k.l1d_bytes);
  json.key("l2_bytes").value(k.l2_bytes);
  json.key("l3_bytes").value(k.l3_bytes);
  json.key("logical_cpus").value(k.logical_cpus);
  json.key("tessera_version").value(k.tessera_version);
  json.end_object();
  json.key("settings").begin_object();
  for (std::string_view name : kSpeedKnobs) {
    if (const auto value = core::numeric_knob(profile.knobs, name)) json.key(name).value(*value);
  }
  const std::optional<GemmBlockingChoice>* blockings[2] = {&profile.gemm_f32, &profile.gemm_f64};
  for (int i = 0; i < 2; ++i) {
    if (!*blockings[i]) continue;
    const GemmBlockingChoice& b = **blockings[i];
    json.key(kBlockingKeys[i]).begin_object();
    json.key("kc").value(b.kc).key("mc").value(b.mc).key("nc").value(b.nc);
    json.end_object();
  }
  json.end_object();
  json.key("notes").begin_array();
  for (const std::string& note : profile.notes) json.value(note);
  json.end_array();
  json.end_object();
  return json.str() + "\n";
}

Status parse_profile(std::string_view text, Profile* out) {
  core::JsonValue root;
  std::string error;
  if (!core::parse_json(text, &root, &error)) {
    return Status::invalid_argument("profile: not JSON: " + error);
  }
  if (root.kind != core::JsonValue::Kind::kObject) {
    return Status::invalid_argument("profile: the file must hold one JSON object");
  }
  TESSERA_RETURN_IF_ERROR(check_keys(
      root, "", {"tessera_profile", "changes_bits", "measured_on", "settings", "notes"}));
  int version = 0;
  TESSERA_RETURN_IF_ERROR(read_int(*root.find("tessera_profile"), "tessera_profile", &version));
  if (version != Profile::kFormatVersion) {
    return bad("tessera_profile", "is " + std::to_string(version) + ": this tessera reads format " +
                                      std::to_string(Profile::kFormatVersion));
  }
  Profile profile;
  const core::JsonValue& bits = *root.find("changes_bits");
  if (bits.kind != core::JsonValue::Kind::kBool) {
    return bad("changes_bits", "must be true or false");
  }
  profile.changes_bits = bits.boolean;
  TESSERA_RETURN_IF_ERROR(read_key(*root.find("measured_on"), &profile.measured_on));
  TESSERA_RETURN_IF_ERROR(read_settings(*root.find("settings"), &profile));
  const core::JsonValue& notes = *root.find("notes");
  if (notes.kind != core::JsonValue::Kind::kArray) return bad("notes", "must be an array");
  for (const core::JsonValue& note : notes.items) {
    if (note.kind != core::JsonValue::Kind::kString) return bad("notes", "must hold strings");
    profile.notes.push_back(note.text);
  }
  *out = std::move(profile);
  return {};
}

Status validate_profile(const Profile& profile) {
  TESSERA_RETURN_IF_ERROR(validate_knobs(profile.knobs));
  for (const std::string& line : describe_knobs(profile.knobs)) {
    const std::string name = line.substr(0, line.find('='));
    if (!is_speed_knob(name)) {
      return bad("knobs " + name, "is not a setting a profile may hold (the speed knobs only)");
    }
  }
  const std::optional<GemmBlockingChoice>* blockings[2] = {&profile.gemm_f32, &profile.gemm_f64};
  for (int i = 0; i < 2; ++i) {
    if (!*blockings[i]) continue;
    const GemmBlockingChoice& b = **blockings[i];
    for (const auto& [name, value] : {std::pair{"kc", b.kc}, {"mc", b.mc}, {"nc", b.nc}}) {
      if (value < 1 || value > 65536) {
        return bad(std::string(kBlockingKeys[i]) + "." + name, "must be an integer in [1, 65536]");
      }
    }
  }
  return {};
}

Status read_profile_file(const std::string& path, Profile* out) {
  std::FILE* file = std::fopen(path.c_str(), "rb");
  if (file == nullptr) {
    return Status::invalid_argument("profile: cannot open '" + path + "'");
  }
  std::string text;
  char buffer[4096];
  std::size_t n = 0;
  while ((n = std::fread(buffer, 1, sizeof buffer, file)) > 0) {
    text.append(buffer, n);
    if (text.size() > (std::size_t{1} << 20)) {
      std::fclose(file);
      return Status::invalid_argument("profile: '" + path + "' is over 1 MiB: not a profile");
    }
  }
  const bool failed = std::ferror(file) != 0;
  std::fclose(file);
  if (failed) return Status::invalid_argument("profile: cannot read '" + path + "'");
  const Status parsed = parse_profile(text, out);
  if (!parsed.ok()) return Status::invalid_argument(parsed.message() + " (in '" + path + "')");
  return {};
}

}  // namespace tessera
