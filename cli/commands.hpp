// tessera-cli subcommands. One source for every target: built natively, for
// WASI (run it under node:wasi or wasmtime) and for aarch64.
// Exit codes: 0 success, 1 a check failed or the run failed, 2 usage error.
#pragma once

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
int run_qgemm(const Args& args);
int run_elementwise(const Args& args);
int run_convert(const Args& args);
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

// Prints "tessera-cli: <message>" and the pointer to `help` to stderr, and
// returns kExitUsage.
int usage_error(const std::string& message);

}  // namespace tessera::cli
