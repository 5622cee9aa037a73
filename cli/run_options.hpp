// What every compute command (gemm, gemm-batched, elementwise, dot, gemv,
// reduce, softmax, mpi-gemm) takes besides its problem, the readers of those
// values (each command still words its own errors), and the way from the
// arguments to the run of the chosen element type.
#pragma once

#include <cstdint>
#include <optional>

#include "arg_parser.hpp"
#include "commands.hpp"
#include "tessera/tessera.hpp"

namespace tessera::cli {

struct RunOptions {
  Dtype dtype = Dtype::kF32;
  int threads = 0;  // 0: automatic
  std::optional<Isa> isa;
  int reps = 5;
  bool check = false, hash = false;
  std::uint64_t seed = 1;
};

inline constexpr Named<Dtype> kDtypeNames[] = {{"f32", Dtype::kF32}, {"f64", Dtype::kF64}};

inline ValueReader dtype(Dtype* out) { return choice<Dtype>(kDtypeNames, out); }

// A level name of tessera/isa.hpp (of any architecture: whether this
// machine runs it is the context's to say).
inline ValueReader isa_level(std::optional<Isa>* out) { return text(&parse_isa, out); }

// Parses `args` against `table`, which writes `options`; stops there in
// parse-only mode, and otherwise runs the instance for --dtype.
template <class Options>
int parse_and_run(const ArgTable& table, const Args& args, const Options& options,
                  int (*run_f32)(const Options&), int (*run_f64)(const Options&)) {
  if (const int code = parse_args(table, args); code != kExitOk || parse_only()) return code;
  return options.dtype == Dtype::kF32 ? run_f32(options) : run_f64(options);
}

}  // namespace tessera::cli
