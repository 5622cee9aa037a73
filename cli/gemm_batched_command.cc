// tessera-cli gemm-batched B M N K [--dtype f32|f64] [--threads N] [--isa L]
//                         [--reps R] [--check] [--hash] [--seed S]
//
// Runs B independent C_i = A_i B_i (row-major, alpha 1, beta 0, entries
// packed tightly: strided batched GEMM) on seeded inputs and prints the
// batch plan's choice (try_plan_gemm_batched) and the median time and
// GFLOP/s. --check compares
// every entry with the naive family's single gemm within the k-scaled
// rounding bound (exit 1 on mismatch); --hash prints FNV-1a 64 of the whole
// C buffer (the inputs are those of tests/core/gemm_batched_portable_bits_test.cc,
// with --seed 7, so the scalar / sse2 / simd128 hashes agree across builds).
#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

#include "arg_parser.hpp"
#include "check_report.hpp"
#include "commands.hpp"
#include "run_options.hpp"
#include "seeded_inputs.hpp"
#include "tessera/tessera.hpp"

namespace tessera::cli {
namespace {

struct BatchedOptions : RunOptions {
  std::int64_t batch = 0, m = 0, n = 0, k = 0;
};

ArgTable batched_table(BatchedOptions* o) {
  constexpr IntegerSyntax kDigits = IntegerSyntax::kDigits;
  // Up to 2^20 each; the product is checked against the address space when
  // the operands are allocated.
  auto dimension = [](const char* name, std::int64_t* out) {
    return positional(name, integer(kDigits, 0, std::int64_t{1} << 20, out),
                      {.bad = "B M N K must be integers in [0, 2^20] (got '{}')"});
  };
  return {
      .command = "gemm-batched",
      .unknown_options = UnknownOptions::kLeadingDash,
      .positional_check = PositionalCheck::kAfterCounting,
      .positionals = {dimension("B", &o->batch), dimension("M", &o->m), dimension("N", &o->n),
                      dimension("K", &o->k)},
      .count_message = "expected B M N K",
      .options = {
          option("--dtype", dtype(&o->dtype), {.bad = "must be f32 or f64"}),
          option("--threads", integer(kDigits, 0, 4096, &o->threads),
                 {.bad = "must be in [0, 4096]"}),
          option("--isa", isa_level(&o->isa), {.bad = "'{}' is not a level"}),
          option("--reps", integer(kDigits, 1, 100000, &o->reps),
                 {.bad = "must be in [1, 100000]"}),
          option("--seed", integer(kDigits, 0, kInt64Max, &o->seed),
                 {.bad = "must be a non-negative integer"}),
          flag("--check", &o->check),
          flag("--hash", &o->hash),
      }};
}

template <class T>
int run_batched_options(const BatchedOptions& o) {
  ContextOptions options;
  options.isa = o.isa;
  if (o.threads > 0) options.policy.num_threads = o.threads;
  Context context;
  if (Status s = Context::create(options, &context); !s.ok()) return report_failure(s);
  const Parallelism parallelism = o.threads > 0 ? Parallelism::threads(o.threads) : Parallelism();

  GemmBatchedPlan plan;
  if (Status s = try_plan_gemm_batched(context, o.dtype, o.batch, o.m, o.n, o.k, parallelism, &plan);
      !s.ok()) {
    return report_failure(s);
  }
  const double elems = static_cast<double>(o.batch) *
                       (static_cast<double>(o.m) * static_cast<double>(o.k) +
                        static_cast<double>(o.k) * static_cast<double>(o.n) +
                        static_cast<double>(o.m) * static_cast<double>(o.n));
  if (elems * sizeof(T) > static_cast<double>(std::numeric_limits<std::size_t>::max() / 4)) {
    std::fprintf(stderr, "tessera-cli: gemm-batched: the operands need %.3g bytes, more than "
                         "this target can allocate\n", elems * sizeof(T));
    return kExitFailure;
  }
  const std::int64_t sa = o.m * o.k, sb = o.k * o.n, sc = o.m * o.n;
  std::vector<T> a(static_cast<std::size_t>(o.batch * sa)), b(static_cast<std::size_t>(o.batch * sb)),
      c(static_cast<std::size_t>(o.batch * sc));
  fill_seeded(a.data(), a.size(), o.seed, 1);
  fill_seeded(b.data(), b.size(), o.seed, 2);
  const std::int64_t lda = std::max<std::int64_t>(1, o.k), ldb = std::max<std::int64_t>(1, o.n),
                     ldc = std::max<std::int64_t>(1, o.n);

  std::vector<double> seconds;
  for (int r = 0; r < o.reps; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    const Status s = try_gemm_strided_batched(context, Layout::kRowMajor, Transpose::kNo,
                                              Transpose::kNo, o.m, o.n, o.k, T(1), a.data(), lda,
                                              sa, b.data(), ldb, sb, T(0), c.data(), ldc, sc,
                                              o.batch, parallelism);
    seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    if (!s.ok()) return report_failure(s);
  }
  std::sort(seconds.begin(), seconds.end());
  const double median = seconds[seconds.size() / 2];
  const double flops = 2.0 * static_cast<double>(o.batch) * static_cast<double>(o.m) *
                       static_cast<double>(o.n) * static_cast<double>(o.k);
  std::printf("gemm-batched %s: %" PRId64 " x %" PRId64 "x%" PRId64 "x%" PRId64 " on %s, %d participant(s)\n",
              dtype_name(o.dtype), o.batch, o.m, o.n, o.k, isa_name(context.isa()),
              context.resolved_policy().effective_threads);
  std::printf("  plan: %s\n", plan.to_string().c_str());
  std::printf("time: median %.6f s of %d (min %.6f, max %.6f)\n", median, o.reps, seconds.front(),
              seconds.back());
  std::printf("GFLOP/s: %.2f\n", median > 0 ? flops / median / 1e9 : 0.0);

  int exit_code = kExitOk;
  if (o.check) {
    Context naive;
    if (Status s = make_naive_context(&naive); !s.ok()) return report_failure(s);
    // Each element within 2 (k + 4) eps sum_p |a_ip b_pj| of the naive
    // (double-accumulated) single gemm of its entry.
    const double eps = std::numeric_limits<T>::epsilon();
    std::vector<T> expected(static_cast<std::size_t>(sc));
    BoundTally tally;
    for (std::int64_t e = 0; e < o.batch; ++e) {
      const T* ae = a.data() + e * sa;
      const T* be = b.data() + e * sb;
      const T* ce = c.data() + e * sc;
      if (Status s = try_gemm(naive, Layout::kRowMajor, Transpose::kNo, Transpose::kNo, o.m, o.n,
                              o.k, T(1), ae, lda, be, ldb, T(0), expected.data(), ldc);
          !s.ok()) {
        return report_failure(s);
      }
      for (std::int64_t i = 0; i < o.m; ++i) {
        for (std::int64_t j = 0; j < o.n; ++j) {
          double magnitude = 0;
          for (std::int64_t p = 0; p < o.k; ++p) {
            magnitude += std::fabs(static_cast<double>(ae[i * lda + p]) *
                                   static_cast<double>(be[p * ldb + j]));
          }
          const double bound = 2.0 * static_cast<double>(o.k + 4) * eps * magnitude +
                               std::numeric_limits<T>::min();
          const double err = std::fabs(static_cast<double>(ce[i * ldc + j]) -
                                       static_cast<double>(expected[static_cast<std::size_t>(i * ldc + j)]));
          tally.add(err, bound);
        }
      }
    }
    exit_code = report_bounds(tally, ", entry by entry");
  }
  if (o.hash) report_hash(c.data(), c.size() * sizeof(T), o.dtype, context.isa());
  return exit_code;
}

}  // namespace

int run_gemm_batched(const Args& args) {
  BatchedOptions o;
  return parse_and_run(batched_table(&o), args, o, &run_batched_options<float>,
                       &run_batched_options<double>);
}

}  // namespace tessera::cli
