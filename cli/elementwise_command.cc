// tessera-cli elementwise OP N [--dtype f32|f64] [--isa L] [--reps R]
//                              [--check] [--hash] [--seed S]
//
// Runs one elementwise op (add sub mul div min max; abs neg sqrt relu) over
// N seeded elements (elementwise_problem.hpp: the operands the pinned
// cross-target test uses; sqrt gets |a| and div's divisor has no zeros, so
// no arithmetic NaN, whose bits vary by CPU, enters the output), and prints
// the median time of the repetitions. --check compares the output with the
// naive family bit for bit (every op is exactly rounded; exit 1 on a
// mismatch); --hash prints FNV-1a 64 of the output bits, the same on every
// ISA level and target.
#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "arg_parser.hpp"
#include "check_report.hpp"
#include "commands.hpp"
#include "elementwise_problem.hpp"
#include "run_options.hpp"
#include "tessera/tessera.hpp"

namespace tessera::cli {
namespace {

// No --threads: RunOptions::threads stays automatic.
struct ElementwiseOptions : RunOptions {
  bool binary = true;
  BinaryOp binary_op = BinaryOp::kAdd;
  UnaryOp unary_op = UnaryOp::kAbs;
  std::size_t n = 0;
};

std::string op_names() {
  std::string text;
  for (int i = 0; i < kBinaryOpCount; ++i) text += std::string(i ? ", " : "") + binary_op_name(static_cast<BinaryOp>(i));
  for (int i = 0; i < kUnaryOpCount; ++i) text += std::string(", ") + unary_op_name(static_cast<UnaryOp>(i));
  return text;
}

bool parse_op(const std::string& name, ElementwiseOptions* o) {
  for (int i = 0; i < kBinaryOpCount; ++i) {
    if (name == binary_op_name(static_cast<BinaryOp>(i))) {
      o->binary = true;
      o->binary_op = static_cast<BinaryOp>(i);
      return true;
    }
  }
  for (int i = 0; i < kUnaryOpCount; ++i) {
    if (name == unary_op_name(static_cast<UnaryOp>(i))) {
      o->binary = false;
      o->unary_op = static_cast<UnaryOp>(i);
      return true;
    }
  }
  return false;
}

ArgTable elementwise_table(ElementwiseOptions* o) {
  constexpr IntegerSyntax kDigits = IntegerSyntax::kDigits;
  auto op = [o](const std::string& name) {
    return parse_op(name, o) ? Verdict::kAccepted : Verdict::kBad;
  };
  return {
      .command = "elementwise",
      .unknown_options = UnknownOptions::kDashAndMore,
      .positional_check = PositionalCheck::kAfterCounting,
      .positionals =
          {
              positional("OP", op, {.bad = "unknown op '{}' (" + op_names() + ")"}),
              // 2^31 elements at most: a run of the CLI, not a memory test.
              positional("N", integer(kDigits, 0, std::int64_t{1} << 31, &o->n),
                         {.bad = "N must be an integer in [0, 2^31] (got '{}')"}),
          },
      .count_message = "expected OP N",
      .options = {
          option("--dtype", dtype(&o->dtype), {.bad = "must be f32 or f64 (got '{}')"}),
          option("--isa", isa_level(&o->isa), {.bad = "'{}' is not a level"}),
          option("--reps", integer(kDigits, 1, 100000, &o->reps),
                 {.bad = "must be an integer in [1, 100000] (got '{}')"}),
          option("--seed", integer(kDigits, 0, kInt64Max, &o->seed),
                 {.bad = "must be a non-negative integer (got '{}')"}),
          flag("--check", &o->check),
          flag("--hash", &o->hash),
      }};
}

template <class T>
Status apply(const Context& c, const ElementwiseOptions& o, const std::vector<T>& a,
             const std::vector<T>& b, std::vector<T>& out) {
  if (o.binary) return try_binary(c, o.binary_op, {1, o.n}, {a}, {b}, out);
  return try_unary(c, o.unary_op, a, out);
}

template <class T>
int run_elementwise_options(const ElementwiseOptions& o) {
  ContextOptions options;
  options.isa = o.isa;
  Context context;
  if (Status s = Context::create(options, &context); !s.ok()) return report_failure(s);
  std::vector<T> a(o.n), b(o.n), out(o.n);
  if (o.binary) {
    fill_elementwise_operands(a.data(), b.data(), o.n, o.seed);
  } else {
    if (unary_op_is_exact(o.unary_op)) {
      fill_unary_operand(a.data(), o.n, o.seed, o.unary_op == UnaryOp::kSqrt);
    } else {
      fill_transcendental_operand(a.data(), o.n, o.seed, o.unary_op == UnaryOp::kLog);
    }
  }
  const char* op = o.binary ? binary_op_name(o.binary_op) : unary_op_name(o.unary_op);
  std::printf("elementwise %s n=%zu %s isa=%s\n", op, o.n, dtype_name(o.dtype),
              isa_name(context.isa()));
  std::vector<double> seconds;
  for (int r = 0; r < o.reps; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    const Status s = apply(context, o, a, b, out);
    seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    if (!s.ok()) return report_failure(s);
  }
  std::sort(seconds.begin(), seconds.end());
  const double median = seconds[seconds.size() / 2];
  std::printf("time: median %.6f s of %d (min %.6f, max %.6f)\n", median, o.reps, seconds.front(),
              seconds.back());
  std::printf("Gelem/s: %.3f\n", median > 0 ? static_cast<double>(o.n) / median / 1e9 : 0.0);

  int exit_code = kExitOk;
  if (o.check) {
    Context naive;
    if (Status s = make_naive_context(&naive); !s.ok()) return report_failure(s);
    std::vector<T> expected(o.n);
    if (Status s = apply(naive, o, a, b, expected); !s.ok()) return report_failure(s);
    std::size_t bad = 0;
    // The transcendentals are approximations: within their documented ulp
    // bound of the naive family (the C library in long double); the rest
    // are exact and must match bit for bit.
    const bool exact = o.binary || unary_op_is_exact(o.unary_op);
    // + 1: the naive family (the C library) is itself within about 1 ulp.
    const double bound = exact ? 0.0 : unary_op_ulp_bound(o.unary_op, sizeof(T) == 8) + 1.0;
    double worst = 0;
    for (std::size_t i = 0; i < o.n; ++i) {
      if (exact) {
        bad += std::memcmp(&expected[i], &out[i], sizeof(T)) == 0 ? 0 : 1;
      } else {
        const double d = ulp_distance(expected[i], out[i]);
        worst = d > worst ? d : worst;
        bad += d <= bound ? 0 : 1;
      }
    }
    exit_code = exact ? report_check(bad == 0, " (%zu elements differ in their bits)", bad)
                      : report_check(bad == 0, " (max %.0f ulp, bound %.0f; %zu beyond)", worst,
                                     bound, bad);
  }
  if (o.hash) report_hash(out.data(), out.size() * sizeof(T), o.dtype, context.isa());
  return exit_code;
}

}  // namespace

int run_elementwise(const Args& args) {
  ElementwiseOptions o;
  return parse_and_run(elementwise_table(&o), args, o, &run_elementwise_options<float>,
                       &run_elementwise_options<double>);
}

}  // namespace tessera::cli
