// libFuzzer harness: tessera-cli's argument parsers. Every command is
// called with fuzzed argument lists (its own flags and values, numbers of
// every size and sign, arbitrary text) in parse-only mode
// (tessera::cli::set_parse_only): it validates and returns without
// running, so sizes the parser accepts are never allocated. Properties: no
// crash or sanitizer report, and the exit code is one of the documented
// ones (0, 1, 2).
#include <fuzzer/FuzzedDataProvider.h>

#include <cstdint>
#include <string>
#include <vector>

#include "commands.hpp"
#include "tests/fuzz/fuzz_support.hpp"

namespace tessera::fuzz {
namespace {

using Run = int (*)(const cli::Args&);
constexpr Run kCommands[] = {cli::run_info,  cli::run_selftest, cli::run_gemm,
                             cli::run_gemm_batched, cli::run_elementwise, cli::run_dot,
                             cli::run_gemv,  cli::run_reduce,   cli::run_softmax};

const char* const kWords[] = {
    "--dtype", "f32", "f64", "f16", "--threads", "--isa", "scalar", "sse2", "avx2", "avx512",
    "neon", "simd128", "--reps", "--check", "--hash", "--seed", "--trans-a", "--trans-b",
    "--trans", "--col-major", "--incx", "--incy", "--log", "--json", "--cpu-set", "0,1",
    "0-3", "--affinity", "explicit", "none", "--spin", "fixed_iterations", "--spin-budget",
    "--idle", "release_when_idle", "--idle-release-ms", "--max-per-kernel", "--nested",
    "--counters", "add", "sqrt", "sum", "argmax", "max", "-", "--", "", "--bias", "col",
    "--act", "gelu", "-0",
};

std::string pick_arg(FuzzedDataProvider& in) {
  switch (in.ConsumeIntegralInRange<int>(0, 5)) {
    case 0: case 1: case 2:
      return kWords[in.ConsumeIntegralInRange<std::size_t>(0, std::size(kWords) - 1)];
    case 3: return std::to_string(in.ConsumeIntegralInRange<std::int64_t>(-3, 70));
    case 4: return std::to_string(in.ConsumeIntegral<std::int64_t>());
    default: return in.ConsumeRandomLengthString(24);
  }
}

}  // namespace
}  // namespace tessera::fuzz

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  tessera::cli::set_parse_only(true);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace tessera::fuzz;
  FuzzedDataProvider in(data, size);
  const Run command = kCommands[in.ConsumeIntegralInRange<std::size_t>(0, std::size(kCommands) - 1)];
  tessera::cli::Args args(in.ConsumeIntegralInRange<std::size_t>(0, 8));
  for (std::string& a : args) a = pick_arg(in);
  const int code = command(args);
  require(code == tessera::cli::kExitOk || code == tessera::cli::kExitFailure ||
              code == tessera::cli::kExitUsage,
          "an undocumented exit code");
  return 0;
}
