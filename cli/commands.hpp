// tessera-cli subcommands. One source for every target: built natively, for
// WASI (run it under node:wasi or wasmtime) and for aarch64.
// Exit codes: 0 success, 1 a check failed or the run failed, 2 usage error.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace tessera::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 1;
inline constexpr int kExitUsage = 2;

using Args = std::vector<std::string>;

int run_info(const Args& args);
int run_selftest(const Args& args);
int run_gemm(const Args& args);
int run_gemm_batched(const Args& args);
int run_elementwise(const Args& args);
int run_dot(const Args& args);
int run_gemv(const Args& args);
int run_reduce(const Args& args);
int run_softmax(const Args& args);
// Built with TESSERA_MPI (mpi_gemm_command.cc); otherwise it says so.
int run_mpi_gemm(const Args& args);

// Parse-only mode, for the argument-parser fuzz harness (tests/fuzz): each
// command checks its arguments as usual and then returns kExitOk instead of
// running. Off in tessera-cli.
void set_parse_only(bool on);
bool parse_only();

// A plain decimal integer (digits only, at most 18) in [low, high] into
// *out; false (and *out untouched) otherwise.
bool parse_count(const std::string& text, std::int64_t low, std::int64_t high,
                 std::int64_t* out);

// A decimal integer, optionally negative (so that a command's own checks
// get to name a negative value), that fits in int64 into *out; false (and
// *out untouched) otherwise.
bool parse_int64(const std::string& text, std::int64_t* out);

// Prints "tessera-cli: <message>" to stderr and returns kExitUsage.
int usage_error(const std::string& message);

}  // namespace tessera::cli
