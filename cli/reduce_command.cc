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
#include <limits>
#include <string>
#include <vector>

#include "check_report.hpp"
#include "commands.hpp"
#include "reduce_rows.hpp"
#include "tessera/tessera.hpp"

namespace tessera::cli {
namespace {

struct ReduceOptions {
  RowsOp op = RowsOp::kSum;
  std::vector<std::int64_t> dims;
  Dtype dtype = Dtype::kF32;
  int threads = 0;
  bool threads_set = false;
  bool isa_set = false;
  Isa isa = Isa::kScalar;
  int reps = 5;
  bool check = false, hash = false;
  std::uint64_t seed = 1;
};

int parse_reduce_args(const std::string& command, const Args& args, bool softmax,
                      ReduceOptions* o) {
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    const std::string v = i + 1 < args.size() ? args[i + 1] : "";
    std::int64_t n = 0;
    auto bad_value = [&](const char* what) {
      return usage_error(command + ": " + a + " " + what + " (got '" + v + "')");
    };
    if (a == "--dtype") {
      if (v != "f32" && v != "f64") return bad_value("must be f32 or f64");
      o->dtype = v == "f32" ? Dtype::kF32 : Dtype::kF64;
      ++i;
    } else if (a == "--log" && softmax) {
      o->op = RowsOp::kLogSoftmax;
    } else if (a == "--threads") {
      if (!parse_count(v, 0, 4096, &n)) return bad_value("must be an integer in [0, 4096]");
      o->threads = static_cast<int>(n);
      o->threads_set = true;
      ++i;
    } else if (a == "--isa") {
      if (!parse_isa(v, &o->isa)) return bad_value("is not a level name");
      o->isa_set = true;
      ++i;
    } else if (a == "--reps") {
      if (!parse_count(v, 1, 100000, &n)) return bad_value("must be an integer in [1, 100000]");
      o->reps = static_cast<int>(n);
      ++i;
    } else if (a == "--seed") {
      if (!parse_count(v, 0, std::numeric_limits<std::int64_t>::max(), &n)) {
        return bad_value("must be an integer >= 0");
      }
      o->seed = static_cast<std::uint64_t>(n);
      ++i;
    } else if (a == "--check") {
      o->check = true;
    } else if (a == "--hash") {
      o->hash = true;
    } else if (!softmax && o->dims.empty() && a.size() > 0 && (a[0] < '0' || a[0] > '9') &&
               a[0] != '-') {
      if (!parse_rows_op(a, &o->op)) {
        return usage_error(command + ": OP must be sum, max, mean or argmax (got '" + a + "')");
      }
      o->dims.push_back(-1);  // marks OP as given
    } else if (a.size() > 0 && a[0] == '-') {
      return usage_error(command + ": unknown option '" + a + "'");
    } else {
      if (!parse_count(a, 0, std::int64_t{1} << 40, &n)) {
        return usage_error(command + ": sizes must be integers >= 0 (got '" + a + "')");
      }
      o->dims.push_back(n);
    }
  }
  if (!softmax) {
    if (o->dims.empty() || o->dims[0] != -1) {
      return usage_error(command + ": expected OP ROWS COLS");
    }
    o->dims.erase(o->dims.begin());
  }
  if (o->dims.size() != 2) {
    return usage_error(command + ": expected ROWS COLS (got " + std::to_string(o->dims.size()) +
                       " numbers)");
  }
  return kExitOk;
}

template <class T>
int run_typed(const ReduceOptions& o) {
  ContextOptions options;
  if (o.isa_set) options.isa = o.isa;
  Context context, naive;
  if (Status s = Context::create(options, &context); !s.ok()) return report_failure(s);
  ContextOptions naive_options;
  naive_options.family = KernelFamily::kNaive;
  if (Status s = Context::create(naive_options, &naive); !s.ok()) return report_failure(s);
  const Parallelism parallelism =
      o.threads_set && o.threads > 0 ? Parallelism::threads(o.threads) : Parallelism();

  const SeededRows<T> in(o.dims[0], o.dims[1], o.seed);
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

int run_reduce_or_softmax(const std::string& command, const Args& args, bool softmax) {
  ReduceOptions o;
  if (softmax) o.op = RowsOp::kSoftmax;
  if (const int code = parse_reduce_args(command, args, softmax, &o); code != kExitOk) return code;
  if (parse_only()) return kExitOk;
  return o.dtype == Dtype::kF32 ? run_typed<float>(o) : run_typed<double>(o);
}

}  // namespace

int run_reduce(const Args& args) { return run_reduce_or_softmax("reduce", args, false); }
int run_softmax(const Args& args) { return run_reduce_or_softmax("softmax", args, true); }

}  // namespace tessera::cli
