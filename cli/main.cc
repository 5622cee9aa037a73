#include <cstdio>
#include <cstring>

#include "commands.hpp"

namespace tessera::cli {

namespace {

constexpr const char* kUsage =
    "usage: tessera-cli <command> [options]\n"
    "\n"
    "commands:\n"
    "  info [--json]     platform, CPU features, ISA levels, selected level,\n"
    "                    knobs, topology, the resolved execution policy (with\n"
    "                    every fallback and its reason) and the kernel inventory\n"
    "       [--threads N] [--affinity none|physical_cores|performance_cores|\n"
    "        physical_then_smt|explicit] [--cpu-set LIST] [--spin adaptive|\n"
    "        fixed_iterations|fixed_duration|park_immediately] [--spin-budget B]\n"
    "       [--idle keep_workers|release_when_idle] [--idle-release-ms MS]\n"
    "       [--max-per-kernel N] [--nested] [--counters]\n"
    "                    resolve this policy instead of the default one; a bad\n"
    "                    value (e.g. a CPU id that does not exist) exits 1\n"
    "  selftest          run every registered kernel on every ISA level this\n"
    "                    host supports (up to TESSERA_ISA) against the naive\n"
    "                    family; exit 1 on any mismatch\n"
    "  gemm M N K [--dtype f32|f64|f16|bf16] [--mode exact|fast] [--trans-a]\n"
    "       [--trans-b] [--threads N] [--isa L] [--reps R] [--check] [--hash]\n"
    "       [--seed S] [--bias col|row] [--act none|relu|gelu|sigmoid]\n"
    "                    C = op(A) op(B) on seeded inputs: prints the plan and\n"
    "                    the median GFLOP/s; --check compares with the naive\n"
    "                    family (exit 1 on mismatch); --hash prints FNV-1a 64 of\n"
    "                    the output bits (comparable across builds); f16|bf16:\n"
    "                    A and B in that format, f32 arithmetic and C\n"
    "  gemm-batched B M N K [--dtype f32|f64] [--threads N] [--isa L] [--reps R]\n"
    "       [--check] [--hash] [--seed S]\n"
    "                    B strided products C_i = A_i B_i on seeded inputs:\n"
    "                    median time and GFLOP/s; --check (per entry) and\n"
    "                    --hash as for gemm\n"
    "  qgemm M N K [--a-type u8|s8] [--b-type s8|u8] [--trans-a] [--trans-b]\n"
    "       [--per-column] [--output int32|u8|s8|f32] [--prepack] [--threads N]\n"
    "       [--isa L] [--reps R] [--check] [--hash] [--seed S]\n"
    "                    the integer GEMM on seeded 8-bit operands: int32 sums\n"
    "                    (MatMulInteger), u8 / s8 (QLinearMatMul) or f32\n"
    "                    (MatMulIntegerToFloat); prints the plan and the median\n"
    "                    GOP/s; --check compares with the naive family bit for\n"
    "                    bit; --hash is the same on every level and target\n"
    "  elementwise OP N [--dtype f32|f64] [--isa L] [--reps R] [--check]\n"
    "       [--hash] [--seed S]\n"
    "                    one elementwise op (add sub mul div min max abs neg\n"
    "                    sqrt relu) on N seeded elements (sqrt gets |a|, div\n"
    "                    a divisor without zeros): median time; --check\n"
    "                    compares with the naive family bit for bit (exit 1 on\n"
    "                    mismatch); --hash prints FNV-1a 64 of the output bits\n"
    "                    (the same on every level and target)\n"
    "  convert f16|bf16 N [--threads N] [--isa L] [--reps R] [--check] [--hash]\n"
    "       [--seed S]\n"
    "                    N seeded f32 values to the half format and back:\n"
    "                    median time and GB/s each way; --check against the\n"
    "                    naive family bit for bit, --hash of both outputs\n"
    "                    (the same on every level and target)\n"
    "  dot N [--dtype f32|f64] [--incx I] [--incy I] [--threads N] [--isa L]\n"
    "       [--reps R] [--check] [--hash] [--seed S]\n"
    "  gemv M N [--dtype f32|f64] [--a-type f16|bf16] [--trans] [--col-major]\n"
    "       [--incx I] [--incy I] [--threads N] [--isa L] [--reps R] [--check]\n"
    "       [--hash] [--seed S]\n"
    "                    dot(x, y) / y = 1.5 op(A) x - 0.5 y on seeded inputs:\n"
    "                    median time and GB/s; --check and --hash as for gemm;\n"
    "                    --a-type: A stored in f16 or bf16 (f32 only)\n"
    "  reduce OP ROWS COLS [--dtype f32|f64] [--threads N] [--isa L] [--reps R]\n"
    "       [--check] [--hash] [--seed S]\n"
    "                    OP (sum max mean argmax) of each row of a seeded\n"
    "                    ROWS x COLS row-major matrix: median time and GB/s;\n"
    "                    --check against the naive family, --hash of the output\n"
    "  softmax ROWS COLS [--log] [--dtype f32|f64] [--threads N] [--isa L]\n"
    "       [--reps R] [--check] [--hash] [--seed S]\n"
    "                    softmax (--log: log-softmax) of each row, likewise\n"
    "  mpi-gemm M N K --grid PxQ [--block B] [--dtype f32|f64] [--trans-a]\n"
    "       [--trans-b] [--threads N] [--isa L] [--reps R] [--check] [--hash]\n"
    "       [--seed S] [--policy]\n"
    "                    under mpirun with P*Q ranks: the distributed GEMM\n"
    "                    (tessera/mpi.hpp) on gemm's seeded inputs, B x B\n"
    "                    blocks (default: one block per grid row/column);\n"
    "                    median time of the slowest rank and its split;\n"
    "                    --check: bit-identical to one-process gemm; --hash as\n"
    "                    for gemm (the same hash); --policy: every rank's\n"
    "                    resolved policy (builds with TESSERA_MPI only)\n"
    "  help              this text\n";

struct Command {
  const char* name;
  int (*run)(const Args&);
};

const Command kCommands[] = {
    {"info", &run_info},
    {"selftest", &run_selftest},
    {"gemm", &run_gemm},
    {"gemm-batched", &run_gemm_batched},
    {"qgemm", &run_qgemm},
    {"elementwise", &run_elementwise},
    {"convert", &run_convert},
    {"dot", &run_dot},
    {"gemv", &run_gemv},
    {"reduce", &run_reduce},
    {"softmax", &run_softmax},
    {"mpi-gemm", &run_mpi_gemm},
};

}  // namespace

#if !defined(TESSERA_CLI_MPI)
int run_mpi_gemm(const Args&) {
  std::fputs(
      "tessera-cli: mpi-gemm: this build has no MPI (configure a native preset with an MPI "
      "library installed, or -DTESSERA_MPI=ON)\n",
      stderr);
  return kExitFailure;
}
#endif

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
