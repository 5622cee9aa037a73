// What every command shares, apart from main.cc (so that the argument
// parser fuzz harness, tests/fuzz/fuzz_cli_args.cc, links the commands
// without tessera-cli's main).
#include <cstdio>

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

void set_parse_only(bool on) { g_parse_only = on; }
bool parse_only() { return g_parse_only; }

}  // namespace tessera::cli
