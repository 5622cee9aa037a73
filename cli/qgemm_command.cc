// tessera-cli qgemm M N K [--a-type u8|s8] [--b-type s8|u8] [--trans-a]
//                  [--trans-b] [--per-column] [--output int32|u8|s8|f32]
//                  [--prepack] [--threads N] [--isa L] [--reps R] [--check]
//                  [--hash] [--seed S]
//
// The integer GEMM (tessera/quantized.hpp) on seeded 8-bit operands
// (qgemm_seeded.hpp, shared with the pinned-hash tests), row-major: A m x k
// (k x m with --trans-a), B k x n (n x k with --trans-b, a linear layer's
// weights), A's zero point and B's (--per-column: one per column). The
// output: int32 sums (MatMulInteger), or QLinearMatMul's u8 / s8 (y scale
// 0.05, zero point 128 / 0), or MatMulIntegerToFloat's f32; scales 0.0125
// for A and 0.004 + 0.0001 j for B's column j. --prepack packs B once
// first (PackedIntRhs) and times the calls on it. Prints the plan and the
// median GOP/s (2 m n k operations). --check compares with the naive
// family bit for bit (exit 1 on any difference); --hash prints FNV-1a 64 of
// the output, the same on every level and target.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "arg_parser.hpp"
#include "check_report.hpp"
#include "commands.hpp"
#include "context_for_threads.hpp"
#include "qgemm_seeded.hpp"
#include "run_options.hpp"
#include "timed_calls.hpp"
#include "tessera/tessera.hpp"

namespace tessera::cli {
namespace {

enum class QOutput { kInt32, kU8, kS8, kF32 };

struct QGemmOptions : RunOptions {
  std::int64_t m = 0, n = 0, k = 0;
  IntType a_type = IntType::kU8, b_type = IntType::kS8;
  Transpose ta = Transpose::kNo, tb = Transpose::kNo;
  bool per_column = false, prepack = false;
  QOutput output = QOutput::kInt32;
};

constexpr Named<IntType> kIntTypes[] = {{"u8", IntType::kU8}, {"s8", IntType::kS8}};
constexpr Named<QOutput> kOutputs[] = {
    {"int32", QOutput::kInt32}, {"u8", QOutput::kU8}, {"s8", QOutput::kS8}, {"f32", QOutput::kF32}};

ArgTable qgemm_table(QGemmOptions* o) {
  constexpr IntegerSyntax kSigned = IntegerSyntax::kSigned;
  return {
      .command = "qgemm",
      .unknown_options = UnknownOptions::kDashNotDigit,
      .positional_check = PositionalCheck::kAfterCounting,
      .positionals = {dimension_positional("M", &o->m), dimension_positional("N", &o->n),
                      dimension_positional("K", &o->k)},
      .count_message = "expected M N K (got {} numbers)",
      .options = {
          option("--a-type", choice<IntType>(kIntTypes, &o->a_type),
                 {.bad = "must be u8 or s8 (got '{}')", .missing = "needs u8 or s8"}),
          option("--b-type", choice<IntType>(kIntTypes, &o->b_type),
                 {.bad = "must be u8 or s8 (got '{}')", .missing = "needs u8 or s8"}),
          option("--output", choice<QOutput>(kOutputs, &o->output),
                 {.bad = "must be int32, u8, s8 or f32 (got '{}')",
                  .missing = "needs int32, u8, s8 or f32"}),
          flag("--trans-a", &o->ta, Transpose::kYes),
          flag("--trans-b", &o->tb, Transpose::kYes),
          flag("--per-column", &o->per_column),
          flag("--prepack", &o->prepack),
          option("--threads", integer(kSigned, 0, 4096, &o->threads),
                 {.bad = "must be an integer in [0, 4096] (got '{}')"}),
          option("--isa", isa_level(&o->isa), {.bad = "'{}' is not a level", .missing = "needs a level name"}),
          option("--reps", integer(kSigned, 1, 100000, &o->reps),
                 {.bad = "must be an integer in [1, 100000] (got '{}')"}),
          option("--seed", integer(kSigned, 0, kInt64Max, &o->seed),
                 {.bad = "must be a non-negative integer (got '{}')"}),
          flag("--check", &o->check),
          flag("--hash", &o->hash),
      }};
}

// The operands and the output buffer of one problem, and one call on a
// context into an output of the command's kind.
struct Problem {
  const QGemmOptions& o;
  QGemmSeeded seeded;
  std::vector<float> b_scales;
  IntMatrix a, b;
  QuantParams qa, qb;
  std::int64_t ld_out;
  std::size_t out_bytes;

  explicit Problem(const QGemmOptions& options)
      : o(options),
        seeded(make_qgemm_seeded(o.m, o.n, o.k, o.a_type == IntType::kS8,
                                 o.b_type == IntType::kS8, o.seed)) {
    for (std::int64_t j = 0; j < (o.per_column ? o.n : 1); ++j) {
      b_scales.push_back(0.004f + 0.0001f * static_cast<float>(j));
    }
    const std::int64_t a_cols = o.ta == Transpose::kNo ? o.k : o.m;
    const std::int64_t b_cols = o.tb == Transpose::kNo ? o.n : o.k;
    a = {o.a_type, seeded.a.data(), std::max<std::int64_t>(1, a_cols), o.ta};
    b = {o.b_type, seeded.b.data(), std::max<std::int64_t>(1, b_cols), o.tb};
    qa = QuantParams::per_tensor(seeded.za, 0.0125f);
    qb = o.per_column ? QuantParams::per_column(seeded.zb.data(), b_scales.data(), o.n)
                      : QuantParams::per_tensor(o.n > 0 ? seeded.zb[0] : 0, b_scales[0]);
    ld_out = std::max<std::int64_t>(1, o.n);
    const std::size_t element = o.output == QOutput::kU8 || o.output == QOutput::kS8 ? 1 : 4;
    out_bytes = static_cast<std::size_t>(o.m * o.n) * element;
  }

  const char* type_name() const {
    switch (o.output) {
      case QOutput::kInt32: return "int32";
      case QOutput::kU8: return "u8";
      case QOutput::kS8: return "s8";
      case QOutput::kF32: return "f32";
    }
    return "";
  }

  // B as stored or packed: the overloads differ only in that argument.
  template <class B>
  Status call(const Context& context, const B& rhs, void* out, Parallelism parallelism) const {
    const QuantParams qy = QuantParams::per_tensor(o.output == QOutput::kU8 ? 128 : 0, 0.05f);
    switch (o.output) {
      case QOutput::kInt32:
        return try_gemm_integer(context, Layout::kRowMajor, o.m, o.n, o.k, a, qa, rhs, qb, 0,
                                static_cast<std::int32_t*>(out), ld_out, parallelism);
      case QOutput::kU8:
      case QOutput::kS8:
        return try_qlinear_gemm(context, Layout::kRowMajor, o.m, o.n, o.k, a, qa, rhs, qb,
                                o.output == QOutput::kU8 ? IntType::kU8 : IntType::kS8, qy, out,
                                ld_out, parallelism);
      case QOutput::kF32:
        return try_gemm_integer_to_f32(context, Layout::kRowMajor, o.m, o.n, o.k, a, qa, rhs, qb,
                                       static_cast<float*>(out), ld_out, GemmEpilogue<float>{},
                                       parallelism);
    }
    return Status::internal("qgemm: unknown output");
  }
};

int run_qgemm_options(const QGemmOptions& o) {
  Context context;
  std::string note;
  if (Status s = make_context(o.isa, o.threads, &context, &note); !s.ok()) return report_failure(s);
  const Parallelism parallelism = o.threads > 0 ? Parallelism::threads(o.threads) : Parallelism();
  IntGemmPlan plan;
  if (Status s = try_plan_gemm_integer(context, o.m, o.n, o.k, parallelism, &plan); !s.ok()) {
    return report_failure(s);
  }
  const double bytes = static_cast<double>(o.m) * static_cast<double>(o.k) +
                       static_cast<double>(o.k) * static_cast<double>(o.n) +
                       4.0 * static_cast<double>(o.m) * static_cast<double>(o.n);
  if (bytes > static_cast<double>(std::numeric_limits<std::size_t>::max() / 4)) {
    std::fprintf(stderr, "tessera-cli: qgemm: the operands need %.3g bytes, more than this "
                         "target can allocate\n", bytes);
    return kExitFailure;
  }
  const Problem problem(o);
  std::vector<std::uint8_t> out(std::max<std::size_t>(1, problem.out_bytes));
  PackedIntRhs packed;
  if (o.prepack) {
    if (Status s = try_prepack_integer_rhs(context, Layout::kRowMajor, o.k, o.n, problem.b, &packed);
        !s.ok()) {
      return report_failure(s);
    }
  }
  auto call = [&](const Context& ctx, void* into, Parallelism par) {
    return o.prepack ? problem.call(ctx, packed, into, par) : problem.call(ctx, problem.b, into, par);
  };

  std::fputs(note.c_str(), stdout);
  std::fputs(plan.to_string().c_str(), stdout);
  std::printf("  operands: A %s%s, B %s%s, zero points %s, output %s%s\n",
              int_type_name(o.a_type), o.ta == Transpose::kYes ? " (transposed)" : "",
              int_type_name(o.b_type), o.tb == Transpose::kYes ? " (transposed)" : "",
              o.per_column ? "per column" : "per tensor", problem.type_name(),
              o.prepack ? ", B prepacked" : "");
  print_context_line(context);

  int exit_code = kExitOk;
  if (!run_timed_calls(o.reps, o.m, o.n, o.k, "GOP/s",
                       [&] { return call(context, out.data(), parallelism); }, &exit_code)) {
    return exit_code;
  }
  if (o.check) {
    Context naive;
    if (Status s = make_naive_context(&naive); !s.ok()) return report_failure(s);
    std::vector<std::uint8_t> expected(out.size());
    if (Status s = problem.call(naive, problem.b, expected.data(), Parallelism()); !s.ok()) {
      return report_failure(s);
    }
    std::size_t differ = 0;
    for (std::size_t i = 0; i < problem.out_bytes; ++i) differ += out[i] != expected[i];
    exit_code = report_check(differ == 0, " (bit for bit: %zu of %zu bytes differ)", differ,
                             problem.out_bytes);
  }
  if (o.hash) report_hash(out.data(), problem.out_bytes, problem.type_name(), context.isa());
  return exit_code;
}

}  // namespace

int run_qgemm(const Args& args) {
  QGemmOptions o;
  if (const int code = parse_args(qgemm_table(&o), args); code != kExitOk || parse_only()) {
    return code;
  }
  return run_qgemm_options(o);
}

}  // namespace tessera::cli
