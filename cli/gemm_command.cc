// tessera-cli gemm M N K [--dtype f32|f64] [--trans-a] [--trans-b]
//                 [--threads N] [--isa L] [--reps R] [--check] [--hash]
//                 [--seed S] [--bias col|row] [--act none|relu|gelu|sigmoid]
//
// --bias / --act run the fused epilogue (C = act(op(A) op(B) + bias), bias
// seeded with stream 4); --check then compares against the naive family's
// epilogue, --hash hashes the epilogue's output.
//
// Runs C = op(A) op(B) (row-major, alpha 1, beta 0) on seeded inputs, prints
// the plan (workers, tier, grain, ISA, blocking) and the median GFLOP/s of
// the repetitions. --check compares against the naive family within the
// k-scaled rounding bound (exit 1 on mismatch); --hash prints FNV-1a 64 of
// the output's bits. The inputs come from an integer generator (splitmix64,
// 12-bit values / 2048, exact in f32 and f64; seeded_inputs.hpp, shared with
// the pinned-hash tests), so every target sees the same operands and `--hash`
// can be compared across builds (SSE2 natively and SIMD128 under WASI give
// the same bits).
#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "check_report.hpp"
#include "commands.hpp"
#include "seeded_inputs.hpp"
#include "tessera/tessera.hpp"

namespace tessera::cli {
namespace {

struct GemmOptions {
  std::int64_t m = 0, n = 0, k = 0;
  Dtype dtype = Dtype::kF32;
  Transpose ta = Transpose::kNo, tb = Transpose::kNo;
  int threads = 0;  // 0: automatic
  bool threads_set = false;
  const char* isa = nullptr;
  int reps = 5;
  bool check = false;
  bool hash = false;
  std::uint64_t seed = 1;
  BiasKind bias = BiasKind::kNone;
  Activation act = Activation::kNone;
  bool epilogue = false;
};

// "scalar, sse2, ...": every level of TESSERA_ISA_LEVELS (tessera/isa.hpp).
std::string level_names() {
  std::string text;
  for (int i = 0; i < kIsaCount; ++i) {
    if (i != 0) text += ", ";
    text += isa_name(static_cast<Isa>(i));
  }
  return text;
}

// Returns kExitOk, or the usage error's exit code.
int parse_gemm_args(const Args& args, GemmOptions* o) {
  std::vector<std::string> positional;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&](const char* name, std::string* out) {
      if (i + 1 >= args.size()) return false;
      *out = args[++i];
      (void)name;
      return true;
    };
    std::string v;
    std::int64_t x = 0;
    if (a == "--dtype") {
      if (!value("--dtype", &v)) return usage_error("gemm: --dtype needs f32 or f64");
      if (v == "f32") {
        o->dtype = Dtype::kF32;
      } else if (v == "f64") {
        o->dtype = Dtype::kF64;
      } else {
        return usage_error("gemm: --dtype must be f32 or f64 (got '" + v + "')");
      }
    } else if (a == "--trans-a") {
      o->ta = Transpose::kYes;
    } else if (a == "--trans-b") {
      o->tb = Transpose::kYes;
    } else if (a == "--threads") {
      if (!value("--threads", &v) || !parse_int64(v, &x) || x < 0 || x > 4096) {
        return usage_error("gemm: --threads must be an integer in [0, 4096] (got '" + v + "')");
      }
      o->threads = static_cast<int>(x);
      o->threads_set = true;
    } else if (a == "--isa") {
      if (!value("--isa", &v)) return usage_error("gemm: --isa needs a level name");
      Isa isa;
      if (!parse_isa(v, &isa)) {
        return usage_error("gemm: --isa '" + v + "' is not a level (" + level_names() + ")");
      }
      o->isa = isa_name(isa);
    } else if (a == "--reps") {
      if (!value("--reps", &v) || !parse_int64(v, &x) || x < 1 || x > 100000) {
        return usage_error("gemm: --reps must be an integer in [1, 100000] (got '" + v + "')");
      }
      o->reps = static_cast<int>(x);
    } else if (a == "--seed") {
      if (!value("--seed", &v) || !parse_int64(v, &x) || x < 0) {
        return usage_error("gemm: --seed must be a non-negative integer (got '" + v + "')");
      }
      o->seed = static_cast<std::uint64_t>(x);
    } else if (a == "--bias") {
      if (!value("--bias", &v)) return usage_error("gemm: --bias needs col or row");
      if (v == "col") {
        o->bias = BiasKind::kPerColumn;
      } else if (v == "row") {
        o->bias = BiasKind::kPerRow;
      } else {
        return usage_error("gemm: --bias must be col or row (got '" + v + "')");
      }
      o->epilogue = true;
    } else if (a == "--act") {
      if (!value("--act", &v)) return usage_error("gemm: --act needs none, relu, gelu or sigmoid");
      if (v == "none") {
        o->act = Activation::kNone;
      } else if (v == "relu") {
        o->act = Activation::kRelu;
      } else if (v == "gelu") {
        o->act = Activation::kGelu;
      } else if (v == "sigmoid") {
        o->act = Activation::kSigmoid;
      } else {
        return usage_error("gemm: --act must be none, relu, gelu or sigmoid (got '" + v + "')");
      }
      o->epilogue = true;
    } else if (a == "--check") {
      o->check = true;
    } else if (a == "--hash") {
      o->hash = true;
    } else if (a.size() > 1 && a[0] == '-' && !(a[1] >= '0' && a[1] <= '9')) {
      return usage_error("gemm: unknown option '" + a + "'");
    } else {
      positional.push_back(a);
    }
  }
  if (positional.size() != 3) {
    return usage_error("gemm: expected M N K (got " + std::to_string(positional.size()) +
                       " numbers)");
  }
  const char* names[3] = {"M", "N", "K"};
  std::int64_t* dims[3] = {&o->m, &o->n, &o->k};
  for (int d = 0; d < 3; ++d) {
    if (!parse_int64(positional[d], dims[d])) {
      return usage_error(std::string("gemm: ") + names[d] + " must be an integer (got '" +
                         positional[d] + "')");
    }
    if (*dims[d] < 0) {
      return usage_error(std::string("gemm: ") + names[d] + " must be >= 0 (got " +
                         positional[d] + ")");
    }
  }
  return kExitOk;
}

// A context at the requested level that can run `threads` participants.
// The machine's topology is kept (its caches fix the blocking, hence the
// bits); when it has fewer CPUs than asked for, extra logical CPUs are added
// to a copy of it, unpinned, so an explicit --threads N really runs N.
Status make_context(const GemmOptions& o, Context* out, std::string* note) {
  ContextOptions options;
  if (o.isa != nullptr) {
    Isa isa;
    parse_isa(o.isa, &isa);
    options.isa = isa;
  }
  if (o.threads_set && o.threads > 1) {
    Topology topology = platform::read_topology();
    const int have = topology.logical_count();
    if (have < o.threads) {
      int next_id = 0;
      for (const LogicalCpu& cpu : topology.cpus) next_id = std::max(next_id, cpu.id + 1);
      int next_core = 0;
      for (const LogicalCpu& cpu : topology.cpus) next_core = std::max(next_core, cpu.core + 1);
      for (int i = have; i < o.threads; ++i) {
        topology.cpus.push_back({next_id++, next_core++, 0, CoreClass::kUnknown});
      }
      topology.cpu_quota.reset();
      topology.notes.push_back("tessera-cli: extended for --threads");
      *note = "note: " + std::to_string(o.threads) + " participants requested on " +
              std::to_string(have) + " visible CPUs (oversubscribed, unpinned)\n";
      options.policy.affinity_policy = AffinityPolicy::kNone;
    }
    options.topology = topology;
    options.policy.num_threads = o.threads;
  }
  return Context::create(options, out);
}

template <class T>
int run_gemm_options(const GemmOptions& o) {
  Context context;
  std::string note;
  if (Status s = make_context(o, &context, &note); !s.ok()) return report_failure(s);
  const Parallelism parallelism =
      o.threads_set && o.threads > 0 ? Parallelism::threads(o.threads) : Parallelism();

  GemmPlan plan;
  if (Status s = try_plan_gemm(context, o.dtype, Layout::kRowMajor, o.m, o.n, o.k, parallelism,
                               &plan);
      !s.ok()) {
    return report_failure(s);
  }
  // Row-major storage of op(A) (m x k) and op(B) (k x n) as stored.
  const std::int64_t a_rows = o.ta == Transpose::kNo ? o.m : o.k;
  const std::int64_t a_cols = o.ta == Transpose::kNo ? o.k : o.m;
  const std::int64_t b_rows = o.tb == Transpose::kNo ? o.k : o.n;
  const std::int64_t b_cols = o.tb == Transpose::kNo ? o.n : o.k;
  const std::int64_t lda = std::max<std::int64_t>(1, a_cols);
  const std::int64_t ldb = std::max<std::int64_t>(1, b_cols);
  const std::int64_t ldc = std::max<std::int64_t>(1, o.n);
  const double bytes = sizeof(T) * (static_cast<double>(a_rows) * static_cast<double>(a_cols) +
                                    static_cast<double>(b_rows) * static_cast<double>(b_cols) +
                                    2.0 * static_cast<double>(o.m) * static_cast<double>(o.n));
  if (bytes > static_cast<double>(std::numeric_limits<std::size_t>::max() / 4)) {
    std::fprintf(stderr, "tessera-cli: gemm: the operands need %.3g bytes, more than this "
                         "target can allocate\n", bytes);
    return kExitFailure;
  }
  std::vector<T> a(static_cast<std::size_t>(a_rows * a_cols));
  std::vector<T> b(static_cast<std::size_t>(b_rows * b_cols));
  std::vector<T> c(static_cast<std::size_t>(o.m * o.n));
  fill_seeded(a.data(), a.size(), o.seed, 1);
  fill_seeded(b.data(), b.size(), o.seed, 2);
  std::vector<T> bias(static_cast<std::size_t>(std::max<std::int64_t>(
      1, o.bias == BiasKind::kPerRow ? o.m : o.n)));
  fill_seeded(bias.data(), bias.size(), o.seed, 4);
  const GemmEpilogue<T> epilogue{o.bias == BiasKind::kNone ? nullptr : bias.data(), o.bias,
                                 o.act};
  // One call, plain or with the epilogue, on `ctx` into `out`.
  auto call = [&](const Context& ctx, T* out, Parallelism par) {
    if (o.epilogue) {
      return try_gemm(ctx, Layout::kRowMajor, o.ta, o.tb, o.m, o.n, o.k, T(1), a.data(), lda,
                      b.data(), ldb, T(0), out, ldc, epilogue, par);
    }
    return try_gemm(ctx, Layout::kRowMajor, o.ta, o.tb, o.m, o.n, o.k, T(1), a.data(), lda,
                    b.data(), ldb, T(0), out, ldc, par);
  };

  std::fputs(note.c_str(), stdout);
  std::fputs(plan.to_string().c_str(), stdout);
  if (o.epilogue) {
    std::printf("  epilogue: bias %s, activation %s (fused, last depth slice)\n",
                bias_kind_name(o.bias), activation_name(o.act));
  }
  const ResolvedExecutionPolicy resolved = context.resolved_policy();
  std::printf("  context: %d participant%s (%s)\n", resolved.effective_threads,
              resolved.effective_threads == 1 ? "" : "s", resolved.threads_reason.c_str());

  std::vector<double> seconds;
  for (int r = 0; r < o.reps; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    const Status s = call(context, c.data(), parallelism);
    seconds.push_back(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    if (!s.ok()) return report_failure(s);
  }
  std::sort(seconds.begin(), seconds.end());
  const double median = seconds[seconds.size() / 2];
  const double flops = 2.0 * static_cast<double>(o.m) * static_cast<double>(o.n) *
                       static_cast<double>(o.k);
  std::printf("time: median %.6f s of %d (min %.6f, max %.6f)\n", median, o.reps,
              seconds.front(), seconds.back());
  std::printf("GFLOP/s: %.2f\n", median > 0 ? flops / median / 1e9 : 0.0);

  int exit_code = kExitOk;
  if (o.check) {
    ContextOptions naive_options;
    naive_options.family = KernelFamily::kNaive;
    Context naive;
    if (Status s = Context::create(naive_options, &naive); !s.ok()) return report_failure(s);
    std::vector<T> expected(c.size());
    if (Status s = call(naive, expected.data(), Parallelism()); !s.ok()) {
      return report_failure(s);
    }
    // Each element within 2 (k + 4) eps sum_p |a_ip b_pj| of the naive
    // (double-accumulated) result; inputs are in [-1, 1), so sum |a||b| <= k.
    const double eps = std::numeric_limits<T>::epsilon();
    BoundTally tally;
    for (std::int64_t i = 0; i < o.m; ++i) {
      for (std::int64_t j = 0; j < o.n; ++j) {
        double magnitude = 0;
        for (std::int64_t p = 0; p < o.k; ++p) {
          const T av = o.ta == Transpose::kNo ? a[i * lda + p] : a[p * lda + i];
          const T bv = o.tb == Transpose::kNo ? b[p * ldb + j] : b[j * ldb + p];
          magnitude += std::fabs(static_cast<double>(av) * static_cast<double>(bv));
        }
        double bound = 2.0 * static_cast<double>(o.k + 4) * eps * magnitude +
                       std::numeric_limits<T>::min();
        if (o.epilogue) {
          // The bias addition's rounding and the activation's few ulp
          // (slope <= 1.13 for gelu) on top of the product's bound.
          const double want = std::fabs(static_cast<double>(expected[i * ldc + j]));
          bound = 1.2 * bound + 8.0 * eps * (want + 1.0);
        }
        const double err = std::fabs(static_cast<double>(c[i * ldc + j]) -
                                     static_cast<double>(expected[i * ldc + j]));
        tally.add(err, bound);
      }
    }
    exit_code = report_bounds(tally);
  }
  if (o.hash) report_hash(c.data(), c.size() * sizeof(T), o.dtype, context.isa());
  return exit_code;
}

}  // namespace

int run_gemm(const Args& args) {
  GemmOptions o;
  if (const int code = parse_gemm_args(args, &o); code != kExitOk) return code;
  if (parse_only()) return kExitOk;
  return o.dtype == Dtype::kF32 ? run_gemm_options<float>(o) : run_gemm_options<double>(o);
}

}  // namespace tessera::cli
