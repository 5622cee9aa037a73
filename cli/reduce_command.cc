// tessera-cli reduce OP ROWS COLS  [--dtype f32|f64] [common]   OP: sum max mean argmax
// tessera-cli softmax ROWS COLS    [--log] [--dtype f32|f64] [common]
// common: [--threads N] [--isa L] [--reps R] [--check] [--hash] [--seed S]
//
// Runs a last-axis reduction or (log-)softmax over a seeded rows x cols
// row-major matrix (ld = cols + 3; reduce_seeded.hpp, shared with the pinned
// hashes of tests/core/reduce_portable_bits_test.cc) and prints the median
// time and GB/s. --check compares with the naive family (max / argmax
// exactly, sums and softmax within their rounding bounds; exit 1 on
// mismatch); --hash prints FNV-1a 64 of the output bits (softmax: the whole
// y buffer, padding included), comparable across builds (native SSE2 and
// WASI/Emscripten SIMD128 agree).
#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <string>
#include <vector>

#include "arg_parser.hpp"
#include "check_report.hpp"
#include "commands.hpp"
#include "reduce_rows.hpp"
#include "run_options.hpp"
#include "tessera/tessera.hpp"

namespace tessera::cli {
namespace {

struct ReduceOptions : RunOptions {
  RowsOp op = RowsOp::kSum;
  std::int64_t rows = 0, cols = 0;
};

// reduce's table, or with `softmax` softmax's.
ArgTable reduce_table(bool softmax, ReduceOptions* o) {
  constexpr IntegerSyntax kDigits = IntegerSyntax::kDigits;
  auto size = [](const char* name, std::int64_t* out) {
    return positional(name, integer(kDigits, 0, std::int64_t{1} << 40, out),
                      {.bad = "sizes must be integers >= 0 (got '{}')"});
  };
  std::vector<Positional> positionals;
  if (!softmax) {
    positionals.push_back(word_positional(
        "OP", text(&parse_rows_op, &o->op),
        {.bad = "OP must be sum, max, mean or argmax (got '{}')",
         .missing = "expected OP ROWS COLS"}));
  }
  positionals.push_back(size("ROWS", &o->rows));
  positionals.push_back(size("COLS", &o->cols));
  ArgTable table{
      .command = softmax ? "softmax" : "reduce",
      .unknown_options = UnknownOptions::kLeadingDash,
      .positional_check = PositionalCheck::kAsTheyCome,
      .positionals = std::move(positionals),
      .count_message = "expected ROWS COLS (got {} numbers)",
      .options = {
          option("--dtype", dtype(&o->dtype), {.bad = "must be f32 or f64 (got '{}')"}),
          option("--threads", integer(kDigits, 0, 4096, &o->threads),
                 {.bad = "must be an integer in [0, 4096] (got '{}')"}),
          option("--isa", isa_level(&o->isa), {.bad = "is not a level name (got '{}')"}),
          option("--reps", integer(kDigits, 1, 100000, &o->reps),
                 {.bad = "must be an integer in [1, 100000] (got '{}')"}),
          option("--seed", integer(kDigits, 0, kInt64Max, &o->seed),
                 {.bad = "must be an integer >= 0 (got '{}')"}),
          flag("--check", &o->check),
          flag("--hash", &o->hash),
      }};
  if (softmax) table.options.push_back(flag("--log", &o->op, RowsOp::kLogSoftmax));
  return table;
}

template <class T>
int run_typed(const ReduceOptions& o) {
  ContextOptions options;
  options.isa = o.isa;
  Context context, naive;
  if (Status s = Context::create(options, &context); !s.ok()) return report_failure(s);
  if (Status s = make_naive_context(&naive); !s.ok()) return report_failure(s);
  const Parallelism parallelism = o.threads > 0 ? Parallelism::threads(o.threads) : Parallelism();

  const SeededRows<T> in(o.rows, o.cols, o.seed);
  RowsOutput<T> out = make_output(o.op, in);
  std::printf("%s rows=%" PRId64 " cols=%" PRId64 " ld=%" PRId64 " %s on %s\n",
              rows_op_name(o.op), in.rows, in.cols, in.ld, dtype_name(o.dtype),
              isa_name(context.isa()));
  std::vector<double> seconds;
  for (int r = 0; r < o.reps; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    const Status s = run_rows(context, o.op, in, &out, parallelism);
    seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    if (!s.ok()) return report_failure(s);
  }
  std::sort(seconds.begin(), seconds.end());
  const double median = seconds[seconds.size() / 2];
  const bool writes_rows = o.op == RowsOp::kSoftmax || o.op == RowsOp::kLogSoftmax;
  const double elements = static_cast<double>(in.rows) * static_cast<double>(in.cols);
  const double bytes = sizeof(T) * elements * (writes_rows ? 2.0 : 1.0);
  std::printf("time: median %.6f s of %d (min %.6f, max %.6f)\n", median, o.reps,
              seconds.front(), seconds.back());
  std::printf("GB/s: %.2f (%.0f bytes read and written)\n",
              median > 0 ? bytes / median / 1e9 : 0.0, bytes);
  int exit_code = kExitOk;
  if (o.check) {
    RowsOutput<T> expected = make_output(o.op, in);
    if (Status s = run_rows(naive, o.op, in, &expected); !s.ok()) return report_failure(s);
    double worst = 0;
    const std::size_t bad = rows_mismatches(o.op, in, out, expected, &worst);
    exit_code = report_bounds({static_cast<std::int64_t>(bad), worst});
  }
  if (o.hash) report_hash(out.data(), out.bytes(), o.dtype, context.isa());
  return exit_code;
}

int run_reduce_or_softmax(const Args& args, bool softmax) {
  ReduceOptions o;
  if (softmax) o.op = RowsOp::kSoftmax;
  return parse_and_run(reduce_table(softmax, &o), args, o, &run_typed<float>,
                       &run_typed<double>);
}

}  // namespace

int run_reduce(const Args& args) { return run_reduce_or_softmax(args, false); }
int run_softmax(const Args& args) { return run_reduce_or_softmax(args, true); }

}  // namespace tessera::cli
