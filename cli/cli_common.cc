// What every command shares, apart from main.cc (so that the argument
// parser fuzz harness, tests/fuzz/fuzz_cli_args.cc, links the commands
// without tessera-cli's main).
#include <cstdio>
#include <limits>

#include "commands.hpp"

namespace tessera::cli {
namespace {
bool g_parse_only = false;
}  // namespace

int usage_error(const std::string& message) {
  std::fprintf(stderr, "tessera-cli: %s\n(run 'tessera-cli help' for usage)\n",
               message.c_str());
  return kExitUsage;
}

bool parse_int64(const std::string& text, std::int64_t* out) {
  if (text.empty()) return false;
  const bool negative = text[0] == '-';
  std::size_t i = negative ? 1 : 0;
  if (i == text.size()) return false;
  std::int64_t value = 0;
  for (; i < text.size(); ++i) {
    if (text[i] < '0' || text[i] > '9') return false;
    const int digit = text[i] - '0';
    if (value > (std::numeric_limits<std::int64_t>::max() - digit) / 10) return false;
    value = value * 10 + digit;
  }
  *out = negative ? -value : value;
  return true;
}

bool parse_count(const std::string& text, std::int64_t low, std::int64_t high,
                 std::int64_t* out) {
  // Digits only (no sign), at most 18 of them.
  if (text.empty() || text.size() > 18 || text[0] == '-') return false;
  std::int64_t value = 0;
  if (!parse_int64(text, &value) || value < low || value > high) return false;
  *out = value;
  return true;
}

void set_parse_only(bool on) { g_parse_only = on; }
bool parse_only() { return g_parse_only; }

}  // namespace tessera::cli
