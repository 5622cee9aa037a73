// tessera-cli dot N    [--dtype f32|f64] [--incx I] [--incy I] [common]
// tessera-cli gemv M N [--dtype f32|f64] [--a-type f16|bf16] [--trans]
//                      [--col-major] [--incx I] [--incy I] [common]
// common: [--threads N] [--isa L] [--reps R] [--check] [--hash] [--seed S]
//
// Runs dot(x, y) or y = 1.5 op(A) x - 0.5 y (A m x n as stored, lda its
// line length) on seeded inputs (blas1_seeded.hpp, shared with the pinned
// hashes of tests/core/blas1_portable_bits_test.cc) and prints the median
// time and GB/s of the repetitions. --check compares with the naive family
// within the depth-scaled rounding bound (exit 1 on mismatch); --hash prints
// FNV-1a 64 of the output bits (dot: the result; gemv: y's whole buffer),
// comparable across builds (native SSE2 and WASI/Emscripten SIMD128 agree).
// --threads N asks for N workers, capped by the default context's width.
// --a-type f16|bf16 (f32 only): A is the seeded A rounded to that format
// (tessera/half.hpp) and the gemv reads it at 2 bytes an element; --check
// then also compares y bit for bit with sgemv on the widened A on the same
// level (the half gemv's contract).
#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <span>
#include <limits>
#include <string>
#include <vector>

#include "arg_parser.hpp"
#include "blas1_seeded.hpp"
#include "check_report.hpp"
#include "commands.hpp"
#include "run_options.hpp"
#include "tessera/tessera.hpp"

namespace tessera::cli {
namespace {

enum class AType { kSame, kF16, kBf16 };
constexpr Named<AType> kATypeNames[] = {{"f16", AType::kF16}, {"bf16", AType::kBf16}};

struct Blas1Options : RunOptions {
  AType a_type = AType::kSame;  // gemv: A's storage
  std::int64_t m = 0, n = 0;  // dot: n only
  Transpose trans = Transpose::kNo;
  Layout layout = Layout::kRowMajor;
  std::int64_t incx = 1, incy = 1;
};

// dot's table, or with `gemv` gemv's.
ArgTable blas1_table(bool gemv, Blas1Options* o) {
  constexpr IntegerSyntax kSigned = IntegerSyntax::kSigned;
  auto size = [](const char* name, std::int64_t* out) {
    return positional(name, integer(kSigned, 0, kInt64Max, out),
                      {.bad = "sizes must be integers >= 0 (got '{}')"});
  };
  auto stride = [](const char* name, std::int64_t* out) {
    return option(name, nonzero_integer(kSigned, -1000, 1000, out),
                  {.bad = "must be an integer in [-1000, 1000] (got '{}')",
                   .zero = "must not be 0"});
  };
  std::vector<Positional> sizes;
  if (gemv) sizes.push_back(size("M", &o->m));
  sizes.push_back(size("N", &o->n));
  ArgTable table{
      .command = gemv ? "gemv" : "dot",
      .unknown_options = UnknownOptions::kDashNotDigit,
      .positional_check = PositionalCheck::kAsTheyCome,
      .positionals = std::move(sizes),
      .count_message = gemv ? "expected M N (got {} numbers)" : "expected N (got {} numbers)",
      .options = {
          option("--dtype", dtype(&o->dtype), {.bad = "must be f32 or f64 (got '{}')"}),
          stride("--incx", &o->incx),
          stride("--incy", &o->incy),
          option("--threads", integer(kSigned, 0, 4096, &o->threads),
                 {.bad = "must be an integer in [0, 4096] (got '{}')"}),
          option("--isa", isa_level(&o->isa), {.bad = "'{}' is not a level name"}),
          option("--reps", integer(kSigned, 1, 100000, &o->reps),
                 {.bad = "must be an integer in [1, 100000] (got '{}')"}),
          option("--seed", integer(kSigned, 0, kInt64Max, &o->seed),
                 {.bad = "must be an integer in [0, 9223372036854775807] (got '{}')"}),
          flag("--check", &o->check),
          flag("--hash", &o->hash),
      }};
  if (gemv) {
    table.options.push_back(flag("--trans", &o->trans, Transpose::kYes));
    table.options.push_back(flag("--col-major", &o->layout, Layout::kColMajor));
    table.options.push_back(option("--a-type", choice<AType>(kATypeNames, &o->a_type),
                                   {.bad = "must be f16 or bf16 (got '{}')"}));
  }
  return table;
}

Status make_contexts(const Blas1Options& o, Context* context, Context* naive) {
  ContextOptions options;
  options.isa = o.isa;
  TESSERA_RETURN_IF_ERROR(Context::create(options, context));
  return make_naive_context(naive);
}

Parallelism parallelism_of(const Blas1Options& o) {
  return o.threads > 0 ? Parallelism::threads(o.threads) : Parallelism();
}

// Times `call` o.reps times; prints the median and the rate over `bytes`.
template <class F>
Status timed(const Blas1Options& o, double bytes, F call) {
  std::vector<double> seconds;
  for (int r = 0; r < o.reps; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    const Status s = call();
    seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    TESSERA_RETURN_IF_ERROR(s);
  }
  std::sort(seconds.begin(), seconds.end());
  const double median = seconds[seconds.size() / 2];
  std::printf("time: median %.6f s of %d (min %.6f, max %.6f)\n", median, o.reps,
              seconds.front(), seconds.back());
  std::printf("GB/s: %.2f (%.0f bytes read and written)\n", median > 0 ? bytes / median / 1e9 : 0.0,
              bytes);
  return {};
}

template <class T>
int run_dot_typed(const Blas1Options& o) {
  Context context, naive;
  if (Status s = make_contexts(o, &context, &naive); !s.ok()) return report_failure(s);
  const SeededDot<T> d(o.n, o.incx, o.incy, o.seed);
  T result = 0;
  std::printf("dot n=%" PRId64 " incx=%" PRId64 " incy=%" PRId64 " %s on %s\n", d.n, d.incx,
              d.incy, dtype_name(o.dtype), isa_name(context.isa()));
  if (Status s = timed(o, 2.0 * sizeof(T) * static_cast<double>(d.n),
                       [&] { return d.run(context, &result, parallelism_of(o)); });
      !s.ok()) {
    return report_failure(s);
  }
  int exit_code = kExitOk;
  if (o.check) {
    T expected = 0;
    if (Status s = d.run(naive, &expected); !s.ok()) return report_failure(s);
    // Any summation order is within (n + 2) eps sum |x y|; |x|, |y| <= 1.
    double magnitude = 0;
    for (std::int64_t i = 0; i < d.n; ++i) {
      const std::size_t ix = static_cast<std::size_t>(d.incx > 0 ? i * d.incx : (d.n - 1 - i) * -d.incx);
      const std::size_t iy = static_cast<std::size_t>(d.incy > 0 ? i * d.incy : (d.n - 1 - i) * -d.incy);
      magnitude += std::fabs(static_cast<double>(d.x[ix]) * static_cast<double>(d.y[iy]));
    }
    const double bound = 2.0 * static_cast<double>(d.n + 2) * std::numeric_limits<T>::epsilon() *
                         magnitude + std::numeric_limits<T>::min();
    const double err = std::fabs(static_cast<double>(result) - static_cast<double>(expected));
    exit_code = report_check(err <= bound, " (error %.3g, bound %.3g)", err, bound);
  }
  if (o.hash) report_hash(&result, sizeof result, o.dtype, context.isa(), "result");
  return exit_code;
}

// A rounded to the half format (its bits in `bits`), g's A replaced by the
// widened values, and the gemv that reads the bits.
struct HalfA {
  AType type = AType::kSame;
  std::vector<std::uint16_t> bits;
  Status round(const Context& c, std::vector<float>* a) {
    bits.resize(a->size());
    if (type == AType::kF16) {
      auto* h = reinterpret_cast<f16*>(bits.data());
      TESSERA_RETURN_IF_ERROR(try_convert(c, std::span<const float>(*a), std::span<f16>(h, bits.size())));
      return try_convert(c, std::span<const f16>(h, bits.size()), std::span<float>(*a));
    }
    auto* h = reinterpret_cast<bf16*>(bits.data());
    TESSERA_RETURN_IF_ERROR(try_convert(c, std::span<const float>(*a), std::span<bf16>(h, bits.size())));
    return try_convert(c, std::span<const bf16>(h, bits.size()), std::span<float>(*a));
  }
  Status run(const Context& c, const SeededGemv<float>& g, float* out, Parallelism p) const {
    if (type == AType::kF16) {
      return try_gemv(c, g.layout, g.trans, g.m, g.n, static_cast<float>(kGemvAlpha),
                      reinterpret_cast<const f16*>(bits.data()), g.lda, g.x.data(), g.incx,
                      static_cast<float>(kGemvBeta), out, g.incy, p);
    }
    return try_gemv(c, g.layout, g.trans, g.m, g.n, static_cast<float>(kGemvAlpha),
                    reinterpret_cast<const bf16*>(bits.data()), g.lda, g.x.data(), g.incx,
                    static_cast<float>(kGemvBeta), out, g.incy, p);
  }
};

template <class T>
int run_gemv_typed(const Blas1Options& o) {
  Context context, naive;
  if (Status s = make_contexts(o, &context, &naive); !s.ok()) return report_failure(s);
  SeededGemv<T> g(o.layout, o.trans, o.m, o.n, o.incx, o.incy, o.seed);
  HalfA half{o.a_type, {}};
  if constexpr (sizeof(T) == 4) {
    if (half.type != AType::kSame) {
      if (Status s = half.round(context, &g.a); !s.ok()) return report_failure(s);
    }
  } else if (half.type != AType::kSame) {
    return report_failure(Status::invalid_argument("gemv: --a-type needs --dtype f32"));
  }
  std::vector<T> y = g.y;
  std::printf("gemv %s %s m=%" PRId64 " n=%" PRId64 " lda=%" PRId64 " incx=%" PRId64
              " incy=%" PRId64 " %s on %s\n",
              layout_name(g.layout), transpose_name(g.trans), g.m, g.n, g.lda, g.incx, g.incy,
              dtype_name(o.dtype), isa_name(context.isa()));
  if (half.type != AType::kSame) std::printf("  A in %s\n", half.type == AType::kF16 ? "f16" : "bf16");
  const double a_element = half.type == AType::kSame ? sizeof(T) : 2.0;
  const double bytes = a_element * static_cast<double>(g.m) * static_cast<double>(g.n) +
                       sizeof(T) * (static_cast<double>(g.x_len()) + 2.0 * static_cast<double>(g.y_len()));
  // Every repetition starts from the seeded y, so the output is one call's.
  if (Status s = timed(o, bytes, [&] {
        std::copy(g.y.begin(), g.y.end(), y.begin());
        if constexpr (sizeof(T) == 4) {
          if (half.type != AType::kSame) return half.run(context, g, y.data(), parallelism_of(o));
        }
        return g.run(context, y.data(), parallelism_of(o));
      });
      !s.ok()) {
    return report_failure(s);
  }
  int exit_code = kExitOk;
  if (o.check) {
    std::vector<T> expected = g.y;
    if (Status s = g.run(naive, expected.data()); !s.ok()) return report_failure(s);
    // Per element: 2 (depth + 4) eps (|alpha| sum_p |a x| + |beta y|).
    const std::int64_t rows = g.y_len(), depth = g.x_len();
    const double eps = std::numeric_limits<T>::epsilon();
    auto at = [](std::int64_t i, std::int64_t len, std::int64_t inc) {
      return static_cast<std::size_t>(inc > 0 ? i * inc : (len - 1 - i) * -inc);
    };
    BoundTally tally;
    for (std::int64_t i = 0; i < rows; ++i) {
      double magnitude = 0;
      for (std::int64_t p = 0; p < depth; ++p) {
        const std::int64_t r = g.trans == Transpose::kNo ? i : p;
        const std::int64_t c = g.trans == Transpose::kNo ? p : i;
        const std::int64_t idx = g.layout == Layout::kRowMajor ? r * g.lda + c : r + c * g.lda;
        magnitude += std::fabs(static_cast<double>(g.a[static_cast<std::size_t>(idx)]) *
                               static_cast<double>(g.x[at(p, depth, g.incx)]));
      }
      const std::size_t iy = at(i, rows, g.incy);
      const double bound = 2.0 * static_cast<double>(depth + 4) * eps *
                               (std::fabs(kGemvAlpha) * magnitude +
                                std::fabs(kGemvBeta * static_cast<double>(g.y[iy]))) +
                           std::numeric_limits<T>::min();
      const double err = std::fabs(static_cast<double>(y[iy]) - static_cast<double>(expected[iy]));
      tally.add(err, bound);
    }
    exit_code = report_bounds(tally);
    if (half.type != AType::kSame && exit_code == kExitOk) {
      // The half gemv's contract: sgemv's bits on the widened A, this level.
      std::vector<T> widened = g.y;
      if (Status s = g.run(context, widened.data()); !s.ok()) return report_failure(s);
      std::size_t differ = 0;
      for (std::size_t i = 0; i < y.size(); ++i) {
        differ += std::memcmp(&y[i], &widened[i], sizeof(T)) != 0 ? 1 : 0;
      }
      std::printf("check: %s against sgemv on the widened A, this level (%zu y elements differ)\n",
                  differ == 0 ? "ok" : "MISMATCH", differ);
      exit_code = differ == 0 ? kExitOk : kExitFailure;
    }
  }
  if (o.hash) report_hash(y.data(), y.size() * sizeof(T), o.dtype, context.isa(), "y buffer");
  return exit_code;
}

}  // namespace

int run_dot(const Args& args) {
  Blas1Options o;
  return parse_and_run(blas1_table(false, &o), args, o, &run_dot_typed<float>,
                       &run_dot_typed<double>);
}

int run_gemv(const Args& args) {
  Blas1Options o;
  return parse_and_run(blas1_table(true, &o), args, o, &run_gemv_typed<float>,
                       &run_gemv_typed<double>);
}

}  // namespace tessera::cli
