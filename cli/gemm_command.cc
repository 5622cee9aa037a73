// tessera-cli gemm M N K [--dtype f32|f64|f16|bf16] [--mode exact|fast]
//                 [--trans-a] [--trans-b]
//                 [--threads N] [--isa L] [--reps R] [--check] [--hash]
//                 [--seed S] [--bias col|row] [--act none|relu|gelu|sigmoid]
//
// --dtype f16|bf16: A and B are the seeded values rounded to that format
// and multiplied by the half GEMM (tessera/half.hpp) in --mode: exact (the
// default) or fast (bf16 only: the CPU's bf16 dot product, on the avx512
// levels of a CPU with AVX512_BF16; elsewhere an error naming the level),
// C in f32. --check compares with the naive family's exact-mode product
// within the rounding bound, and in exact mode also bit for bit against
// sgemm on the widened operands on the same level (that mode's contract).
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
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "arg_parser.hpp"
#include "check_report.hpp"
#include "context_for_threads.hpp"
#include "commands.hpp"
#include "run_options.hpp"
#include "seeded_inputs.hpp"
#include "timed_calls.hpp"
#include "tessera/half.hpp"
#include "tessera/tessera.hpp"

namespace tessera::cli {
namespace {

// --dtype's value: the f32 / f64 GEMM, or f32 arithmetic on 16-bit A and B.
enum class Element { kF32, kF64, kF16, kBf16 };
constexpr Named<Element> kElementNames[] = {{"f32", Element::kF32},
                                            {"f64", Element::kF64},
                                            {"f16", Element::kF16},
                                            {"bf16", Element::kBf16}};
constexpr Named<HalfGemmMode> kModeNames[] = {{"exact", HalfGemmMode::kExact},
                                              {"fast", HalfGemmMode::kFast}};

struct GemmOptions : RunOptions {
  std::int64_t m = 0, n = 0, k = 0;
  Element element = Element::kF32;
  HalfGemmMode mode = HalfGemmMode::kExact;
  bool mode_given = false;
  Transpose ta = Transpose::kNo, tb = Transpose::kNo;
  BiasKind bias = BiasKind::kNone;
  Activation act = Activation::kNone;
  bool epilogue = false;  // --bias or --act given (--act none too)
};

constexpr Named<BiasKind> kBiasNames[] = {{"col", BiasKind::kPerColumn},
                                          {"row", BiasKind::kPerRow}};
constexpr Named<Activation> kActivationNames[] = {{"none", Activation::kNone},
                                                  {"relu", Activation::kRelu},
                                                  {"gelu", Activation::kGelu},
                                                  {"sigmoid", Activation::kSigmoid}};

// "scalar, sse2, ...": every level of TESSERA_ISA_LEVELS (tessera/isa.hpp).
std::string level_names() {
  std::string text;
  for (int i = 0; i < kIsaCount; ++i) {
    if (i != 0) text += ", ";
    text += isa_name(static_cast<Isa>(i));
  }
  return text;
}

// --dtype into the element and the arithmetic type it runs (f32 for the
// 16-bit formats).
ValueReader element_reader(GemmOptions* o) {
  return [o](const std::string& text) {
    const Verdict verdict = choice<Element>(kElementNames, &o->element)(text);
    if (verdict == Verdict::kAccepted) {
      o->dtype = o->element == Element::kF64 ? Dtype::kF64 : Dtype::kF32;
    }
    return verdict;
  };
}

ArgTable gemm_table(GemmOptions* o) {
  constexpr IntegerSyntax kSigned = IntegerSyntax::kSigned;
  return {
      .command = "gemm",
      .unknown_options = UnknownOptions::kDashNotDigit,
      .positional_check = PositionalCheck::kAfterCounting,
      .positionals = {dimension_positional("M", &o->m), dimension_positional("N", &o->n),
                      dimension_positional("K", &o->k)},
      .count_message = "expected M N K (got {} numbers)",
      .options = {
          option("--dtype", element_reader(o),
                 {.bad = "must be f32, f64, f16 or bf16 (got '{}')",
                  .missing = "needs f32, f64, f16 or bf16"}),
          option("--mode", choice<HalfGemmMode>(kModeNames, &o->mode),
                 {.bad = "must be exact or fast (got '{}')", .missing = "needs exact or fast"},
                 &o->mode_given),
          flag("--trans-a", &o->ta, Transpose::kYes),
          flag("--trans-b", &o->tb, Transpose::kYes),
          option("--threads", integer(kSigned, 0, 4096, &o->threads),
                 {.bad = "must be an integer in [0, 4096] (got '{}')"}),
          option("--isa", isa_level(&o->isa),
                 {.bad = "'{}' is not a level (" + level_names() + ")",
                  .missing = "needs a level name"}),
          option("--reps", integer(kSigned, 1, 100000, &o->reps),
                 {.bad = "must be an integer in [1, 100000] (got '{}')"}),
          option("--seed", integer(kSigned, 0, kInt64Max, &o->seed),
                 {.bad = "must be a non-negative integer (got '{}')"}),
          option("--bias", choice<BiasKind>(kBiasNames, &o->bias),
                 {.bad = "must be col or row (got '{}')", .missing = "needs col or row"},
                 &o->epilogue),
          option("--act", choice<Activation>(kActivationNames, &o->act),
                 {.bad = "must be none, relu, gelu or sigmoid (got '{}')",
                  .missing = "needs none, relu, gelu or sigmoid"},
                 &o->epilogue),
          flag("--check", &o->check),
          flag("--hash", &o->hash),
      }};
}

// A and B rounded to the 16-bit format of --dtype f16|bf16 (their bits),
// and the half GEMM's call on them.
struct HalfOperands {
  Storage storage = Storage::kF32;
  std::vector<std::uint16_t> a, b;
  static Status round(const Context& context, Storage storage, std::vector<float>* values,
                      std::vector<std::uint16_t>* bits) {
    bits->resize(values->size());
    if (storage == Storage::kF16) {
      auto* h = reinterpret_cast<f16*>(bits->data());
      TESSERA_RETURN_IF_ERROR(try_convert(context, std::span<const float>(*values),
                                          std::span<f16>(h, bits->size())));
      return try_convert(context, std::span<const f16>(h, bits->size()), std::span<float>(*values));
    }
    auto* h = reinterpret_cast<bf16*>(bits->data());
    TESSERA_RETURN_IF_ERROR(try_convert(context, std::span<const float>(*values),
                                        std::span<bf16>(h, bits->size())));
    return try_convert(context, std::span<const bf16>(h, bits->size()), std::span<float>(*values));
  }
  GemmInput input(const std::vector<std::uint16_t>& bits, std::int64_t ld) const {
    if (storage == Storage::kF16) return {reinterpret_cast<const f16*>(bits.data()), ld};
    return {reinterpret_cast<const bf16*>(bits.data()), ld};
  }
};

template <class T>
int run_gemm_options(const GemmOptions& o) {
  Context context;
  std::string note;
  if (Status s = make_context(o.isa, o.threads, &context, &note); !s.ok()) return report_failure(s);
  HalfOperands half;
  if (o.element == Element::kF16 || o.element == Element::kBf16) {
    half.storage = o.element == Element::kF16 ? Storage::kF16 : Storage::kBf16;
  } else if (o.mode_given) {
    return report_failure(Status::invalid_argument("gemm: --mode needs --dtype f16 or bf16"));
  }
  const bool is_half = half.storage != Storage::kF32;
  const Parallelism parallelism = o.threads > 0 ? Parallelism::threads(o.threads) : Parallelism();

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
  if constexpr (sizeof(T) == 4) {
    if (is_half) {
      // The seeded values are 12-bit: exact in f16; bf16 rounds them.
      for (auto [values, bits] : {std::pair{&a, &half.a}, std::pair{&b, &half.b}}) {
        if (Status s = HalfOperands::round(context, half.storage, values, bits); !s.ok()) {
          return report_failure(s);
        }
      }
    }
  }
  std::vector<T> bias(static_cast<std::size_t>(std::max<std::int64_t>(
      1, o.bias == BiasKind::kPerRow ? o.m : o.n)));
  fill_seeded(bias.data(), bias.size(), o.seed, 4);
  const GemmEpilogue<T> epilogue{o.bias == BiasKind::kNone ? nullptr : bias.data(), o.bias,
                                 o.act};
  // One call, plain or with the epilogue, on `ctx` into `out`.
  auto plain_call = [&](const Context& ctx, T* out, Parallelism par) {
    if (o.epilogue) {
      return try_gemm(ctx, Layout::kRowMajor, o.ta, o.tb, o.m, o.n, o.k, T(1), a.data(), lda,
                      b.data(), ldb, T(0), out, ldc, epilogue, par);
    }
    return try_gemm(ctx, Layout::kRowMajor, o.ta, o.tb, o.m, o.n, o.k, T(1), a.data(), lda,
                    b.data(), ldb, T(0), out, ldc, par);
  };
  // One call (the half GEMM for --dtype f16|bf16) on `ctx` into `out`.
  auto call = [&](const Context& ctx, T* out, Parallelism par,
                  HalfGemmMode mode = HalfGemmMode::kExact) {
    if constexpr (sizeof(T) == 4) {
      if (is_half) {
        HalfGemmOptions options;
        options.mode = mode;
        if (o.epilogue) options.epilogue = epilogue;
        return try_gemm(ctx, Layout::kRowMajor, o.ta, o.tb, o.m, o.n, o.k, 1.0f,
                        half.input(half.a, lda), half.input(half.b, ldb), 0.0f,
                        GemmOutput(out, ldc), options, par);
      }
    }
    return plain_call(ctx, out, par);
  };

  std::fputs(note.c_str(), stdout);
  std::fputs(plan.to_string().c_str(), stdout);
  if (o.epilogue) {
    std::printf("  epilogue: bias %s, activation %s (fused, last depth slice)\n",
                bias_kind_name(o.bias), activation_name(o.act));
  }
  if (is_half && o.mode == HalfGemmMode::kFast) {
    std::printf("  A and B in %s, mode fast: depth pairs as 32-bit words on the CPU's bf16 dot "
                "product (slices of 2048), C in f32\n",
                storage_name(half.storage));
  } else if (is_half) {
    std::printf("  A and B in %s, mode exact: widened to f32 as they are packed (the packed "
                "path, never the direct one), C in f32\n",
                storage_name(half.storage));
  }
  print_context_line(context);

  int exit_code = kExitOk;
  if (!run_timed_calls(o.reps, o.m, o.n, o.k, "GFLOP/s",
                       [&] { return call(context, c.data(), parallelism, o.mode); },
                       &exit_code)) {
    return exit_code;
  }
  if (o.check) {
    Context naive;
    if (Status s = make_naive_context(&naive); !s.ok()) return report_failure(s);
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
    if constexpr (sizeof(T) == 4) {
      if (is_half && o.mode == HalfGemmMode::kExact && exit_code == kExitOk) {
        // The exact mode's contract: sgemm's bits on the widened operands
        // (a and b hold them), this level.
        std::vector<T> widened(c.size());
        if (Status s = plain_call(context, widened.data(), parallelism); !s.ok()) {
          return report_failure(s);
        }
        std::size_t differ = 0;
        for (std::size_t i = 0; i < c.size(); ++i) {
          differ += std::memcmp(&c[i], &widened[i], sizeof(T)) != 0 ? 1 : 0;
        }
        std::printf("check: %s against sgemm on the widened A and B, this level (%zu C elements "
                    "differ)\n",
                    differ == 0 ? "ok" : "MISMATCH", differ);
        exit_code = differ == 0 ? kExitOk : kExitFailure;
      }
    }
  }
  if (o.hash) report_hash(c.data(), c.size() * sizeof(T), o.dtype, context.isa());
  return exit_code;
}

}  // namespace

int run_gemm(const Args& args) {
  GemmOptions o;
  return parse_and_run(gemm_table(&o), args, o, &run_gemm_options<float>,
                       &run_gemm_options<double>);
}

}  // namespace tessera::cli
