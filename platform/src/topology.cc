#include "tessera/platform/topology.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>

#include "tessera/platform/json_writer.hpp"

namespace tessera::platform {

const char* core_class_name(CoreClass c) noexcept {
  switch (c) {
    case CoreClass::kPerformance: return "performance";
    case CoreClass::kEfficiency: return "efficiency";
    case CoreClass::kUnknown: return "unknown";
  }
  return "unknown";
}

int Topology::physical_core_count() const {
  std::set<std::pair<int, int>> cores;
  for (const LogicalCpu& cpu : cpus) cores.insert({cpu.package, cpu.core});
  return static_cast<int>(cores.size());
}

std::uint64_t Topology::cache_bytes(int level) const {
  const CacheInfo* c = cache(level);
  return c != nullptr ? c->size_bytes : 0;
}

const CacheInfo* Topology::cache(int level) const {
  for (const CacheInfo& c : caches) {
    if (c.level == level) return &c;
  }
  return nullptr;
}

const LogicalCpu* Topology::find_cpu(int id) const {
  for (const LogicalCpu& cpu : cpus) {
    if (cpu.id == id) return &cpu;
  }
  return nullptr;
}

int Topology::quota_width() const {
  if (!cpu_quota) return 0;
  return std::max(1, static_cast<int>(std::floor(*cpu_quota)));
}

int Topology::usable_width() const {
  int width = std::max(1, physical_core_count());
  if (cpu_quota) width = std::min(width, quota_width());
  return width;
}

std::vector<int> Topology::cpu_ids() const {
  std::vector<int> ids;
  ids.reserve(cpus.size());
  for (const LogicalCpu& cpu : cpus) ids.push_back(cpu.id);
  std::sort(ids.begin(), ids.end());
  return ids;
}

namespace {

std::string bytes_text(std::uint64_t bytes) {
  char buf[32];
  if (bytes >= (1u << 20) && bytes % (1u << 20) == 0) {
    std::snprintf(buf, sizeof buf, "%llu MiB",
                  static_cast<unsigned long long>(bytes >> 20));
  } else if (bytes >= 1024 && bytes % 1024 == 0) {
    std::snprintf(buf, sizeof buf, "%llu KiB",
                  static_cast<unsigned long long>(bytes >> 10));
  } else {
    std::snprintf(buf, sizeof buf, "%llu B", static_cast<unsigned long long>(bytes));
  }
  return buf;
}

}  // namespace

std::string Topology::to_string() const {
  std::string text = std::to_string(logical_count()) + " logical CPU" +
                     (logical_count() == 1 ? "" : "s") + " (" +
                     format_cpu_list(cpu_ids()) + ")";
  if (online_count > 0) text += " of " + std::to_string(online_count) + " online";
  text += ", " + std::to_string(physical_core_count()) + " physical core" +
          (physical_core_count() == 1 ? "" : "s");
  int performance = 0;
  int efficiency = 0;
  for (const LogicalCpu& cpu : cpus) {
    performance += cpu.core_class == CoreClass::kPerformance;
    efficiency += cpu.core_class == CoreClass::kEfficiency;
  }
  if (performance + efficiency > 0) {
    text += " (" + std::to_string(performance) + " P / " +
            std::to_string(efficiency) + " E logical)";
  }
  for (const CacheInfo& c : caches) {
    text += ", L" + std::to_string(c.level) + " " + bytes_text(c.size_bytes);
    // append, not " " + std::to_string(...): GCC 12 warns -Wrestrict on that.
    if (c.ways > 0) text.append(" ").append(std::to_string(c.ways)).append("-way");
    if (c.shared_by_logical > 1) {
      text += " shared by " + std::to_string(c.shared_by_logical);
    }
  }
  if (cpu_quota) {
    char buf[64];
    std::snprintf(buf, sizeof buf, ", quota %.2f CPUs", *cpu_quota);
    text += buf;
    if (!quota_source.empty()) text += " (" + quota_source + ")";
  }
  if (!from_os) text += ", not read from the OS";
  return text;
}

std::string Topology::to_json() const {
  JsonWriter json;
  json.begin_object();
  json.key("logical_cpus").value(logical_count());
  json.key("cpu_list").value(format_cpu_list(cpu_ids()));
  json.key("online_cpus").value(online_count);
  json.key("physical_cores").value(physical_core_count());
  json.key("usable_width").value(usable_width());
  json.key("cpus").begin_array();
  for (const LogicalCpu& cpu : cpus) {
    json.begin_object();
    json.key("id").value(cpu.id);
    json.key("core").value(cpu.core);
    json.key("package").value(cpu.package);
    json.key("class").value(core_class_name(cpu.core_class));
    json.end_object();
  }
  json.end_array();
  json.key("caches").begin_array();
  for (const CacheInfo& c : caches) {
    json.begin_object();
    json.key("level").value(c.level);
    json.key("size_bytes").value(c.size_bytes);
    json.key("shared_by_logical").value(c.shared_by_logical);
    json.key("ways").value(c.ways);
    json.end_object();
  }
  json.end_array();
  json.key("cpu_quota");
  if (cpu_quota) {
    json.value(*cpu_quota);
  } else {
    json.null();
  }
  json.key("quota_source").value(quota_source);
  json.key("from_os").value(from_os);
  json.key("notes").begin_array();
  for (const std::string& n : notes) json.value(n);
  json.end_array();
  json.end_object();
  return json.str();
}

Topology make_synthetic_topology(int cores, int smt, std::uint64_t l2_bytes,
                                 std::uint64_t l3_bytes) {
  Topology t;
  for (int thread = 0; thread < smt; ++thread) {
    for (int core = 0; core < cores; ++core) {
      t.cpus.push_back({thread * cores + core, core, 0, CoreClass::kUnknown});
    }
  }
  std::sort(t.cpus.begin(), t.cpus.end(),
            [](const LogicalCpu& a, const LogicalCpu& b) { return a.id < b.id; });
  t.online_count = cores * smt;
  t.caches.push_back({1, 48 * 1024, smt});
  if (l2_bytes != 0) t.caches.push_back({2, l2_bytes, smt});
  if (l3_bytes != 0) t.caches.push_back({3, l3_bytes, cores * smt});
  t.from_os = false;
  t.notes.push_back("synthetic topology");
  return t;
}

bool parse_cpu_list(std::string_view text, std::vector<int>* out) {
  constexpr long kMaxId = 1 << 20;
  std::vector<int> ids;
  std::size_t i = 0;
  auto skip_space = [&] {
    while (i < text.size() &&
           (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r')) {
      ++i;
    }
  };
  auto number = [&](long* value) {
    if (i >= text.size() || text[i] < '0' || text[i] > '9') return false;
    long v = 0;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9') {
      v = v * 10 + (text[i] - '0');
      if (v > kMaxId) return false;
      ++i;
    }
    *value = v;
    return true;
  };
  skip_space();
  if (i == text.size()) {
    out->clear();
    return true;
  }
  while (true) {
    skip_space();
    long first = 0;
    if (!number(&first)) return false;
    long last = first;
    skip_space();
    if (i < text.size() && text[i] == '-') {
      ++i;
      skip_space();
      if (!number(&last) || last < first) return false;
      skip_space();
    }
    for (long id = first; id <= last; ++id) ids.push_back(static_cast<int>(id));
    if (i == text.size()) break;
    if (text[i] != ',') return false;
    ++i;
  }
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  *out = std::move(ids);
  return true;
}

std::string format_cpu_list(std::vector<int> ids) {
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  std::string text;
  for (std::size_t i = 0; i < ids.size();) {
    std::size_t j = i;
    while (j + 1 < ids.size() && ids[j + 1] == ids[j] + 1) ++j;
    if (!text.empty()) text += ',';
    text += std::to_string(ids[i]);
    if (j > i) text += '-' + std::to_string(ids[j]);
    i = j + 1;
  }
  return text;
}

}  // namespace tessera::platform
