#include <cstdio>
#include <cstring>

#include "commands.hpp"

namespace tessera::cli {

int usage_error(const std::string& message) {
  std::fprintf(stderr, "tessera-cli: %s\n(run 'tessera-cli help' for usage)\n",
               message.c_str());
  return kExitUsage;
}

namespace {

constexpr const char* kUsage =
    "usage: tessera-cli <command> [options]\n"
    "\n"
    "commands:\n"
    "  info [--json]     platform, CPU features, ISA levels, selected level,\n"
    "                    knobs and the kernel inventory\n"
    "  selftest          run every registered kernel on every ISA level this\n"
    "                    host supports (up to TESSERA_ISA) against the naive\n"
    "                    family; exit 1 on any mismatch\n"
    "  help              this text\n";

struct Command {
  const char* name;
  int (*run)(const Args&);
};

const Command kCommands[] = {
    {"info", &run_info},
    {"selftest", &run_selftest},
};

}  // namespace
}  // namespace tessera::cli

int main(int argc, char** argv) {
  using namespace tessera::cli;
  if (argc < 2) return usage_error("missing command");
  const std::string command = argv[1];
  if (command == "help" || command == "--help" || command == "-h") {
    std::fputs(kUsage, stdout);
    return kExitOk;
  }
  const Args args(argv + 2, argv + argc);
  for (const Command& c : kCommands) {
    if (command == c.name) return c.run(args);
  }
  return usage_error("unknown command '" + command + "'");
}
