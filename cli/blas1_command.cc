// tessera-cli dot N    [--dtype f32|f64] [--incx I] [--incy I] [common]
// tessera-cli gemv M N [--dtype f32|f64] [--trans] [--col-major]
//                      [--incx I] [--incy I] [common]
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
#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

#include "blas1_seeded.hpp"
#include "check_report.hpp"
#include "commands.hpp"
#include "tessera/tessera.hpp"

namespace tessera::cli {
namespace {

struct Blas1Options {
  const char* op = "gemv";
  std::vector<std::int64_t> dims;
  Dtype dtype = Dtype::kF32;
  Transpose trans = Transpose::kNo;
  Layout layout = Layout::kRowMajor;
  std::int64_t incx = 1, incy = 1;
  int threads = 0;
  bool threads_set = false;
  const char* isa = nullptr;
  int reps = 5;
  bool check = false, hash = false;
  std::uint64_t seed = 1;
};

int parse_blas1_args(const Args& args, std::size_t want_dims, Blas1Options* o) {
  const std::string op = o->op;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    std::string v;
    auto value = [&] {
      if (i + 1 >= args.size()) return false;
      v = args[++i];
      return true;
    };
    std::int64_t x = 0;
    auto int_option = [&](const char* name, std::int64_t lo, std::int64_t hi, std::int64_t* out) {
      if (!value() || !parse_int64(v, &x) || x < lo || x > hi) {
        return usage_error(op + ": " + name + " must be an integer in [" + std::to_string(lo) +
                           ", " + std::to_string(hi) + "] (got '" + v + "')");
      }
      *out = x;
      return kExitOk;
    };
    if (a == "--dtype") {
      if (!value() || (v != "f32" && v != "f64")) {
        return usage_error(op + ": --dtype must be f32 or f64 (got '" + v + "')");
      }
      o->dtype = v == "f32" ? Dtype::kF32 : Dtype::kF64;
    } else if (a == "--trans" && op == "gemv") {
      o->trans = Transpose::kYes;
    } else if (a == "--col-major" && op == "gemv") {
      o->layout = Layout::kColMajor;
    } else if (a == "--incx" || a == "--incy") {
      std::int64_t* out = a == "--incx" ? &o->incx : &o->incy;
      if (int code = int_option(a.c_str(), -1000, 1000, out); code != kExitOk) return code;
      if (*out == 0) return usage_error(op + ": " + a + " must not be 0");
    } else if (a == "--threads") {
      std::int64_t t = 0;
      if (int code = int_option("--threads", 0, 4096, &t); code != kExitOk) return code;
      o->threads = static_cast<int>(t);
      o->threads_set = true;
    } else if (a == "--isa") {
      Isa isa;
      if (!value() || !parse_isa(v, &isa)) {
        return usage_error(op + ": --isa '" + v + "' is not a level name");
      }
      o->isa = isa_name(isa);
    } else if (a == "--reps") {
      std::int64_t r = 0;
      if (int code = int_option("--reps", 1, 100000, &r); code != kExitOk) return code;
      o->reps = static_cast<int>(r);
    } else if (a == "--seed") {
      std::int64_t s = 0;
      if (int code = int_option("--seed", 0, std::numeric_limits<std::int64_t>::max(), &s);
          code != kExitOk) {
        return code;
      }
      o->seed = static_cast<std::uint64_t>(s);
    } else if (a == "--check") {
      o->check = true;
    } else if (a == "--hash") {
      o->hash = true;
    } else if (a.size() > 1 && a[0] == '-' && !(a[1] >= '0' && a[1] <= '9')) {
      return usage_error(op + ": unknown option '" + a + "'");
    } else {
      if (!parse_int64(a, &x) || x < 0) {
        return usage_error(op + ": sizes must be integers >= 0 (got '" + a + "')");
      }
      o->dims.push_back(x);
    }
  }
  if (o->dims.size() != want_dims) {
    return usage_error(op + (want_dims == 1 ? ": expected N" : ": expected M N") + " (got " +
                       std::to_string(o->dims.size()) + " numbers)");
  }
  return kExitOk;
}

Status make_contexts(const Blas1Options& o, Context* context, Context* naive) {
  ContextOptions options;
  if (o.isa != nullptr) {
    Isa isa;
    parse_isa(o.isa, &isa);
    options.isa = isa;
  }
  TESSERA_RETURN_IF_ERROR(Context::create(options, context));
  ContextOptions naive_options;
  naive_options.family = KernelFamily::kNaive;
  return Context::create(naive_options, naive);
}

Parallelism parallelism_of(const Blas1Options& o) {
  return o.threads_set && o.threads > 0 ? Parallelism::threads(o.threads) : Parallelism();
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
  const SeededDot<T> d(o.dims[0], o.incx, o.incy, o.seed);
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

template <class T>
int run_gemv_typed(const Blas1Options& o) {
  Context context, naive;
  if (Status s = make_contexts(o, &context, &naive); !s.ok()) return report_failure(s);
  const SeededGemv<T> g(o.layout, o.trans, o.dims[0], o.dims[1], o.incx, o.incy, o.seed);
  std::vector<T> y = g.y;
  std::printf("gemv %s %s m=%" PRId64 " n=%" PRId64 " lda=%" PRId64 " incx=%" PRId64
              " incy=%" PRId64 " %s on %s\n",
              layout_name(g.layout), transpose_name(g.trans), g.m, g.n, g.lda, g.incx, g.incy,
              dtype_name(o.dtype), isa_name(context.isa()));
  const double bytes = sizeof(T) * (static_cast<double>(g.m) * static_cast<double>(g.n) +
                                    static_cast<double>(g.x_len()) + 2.0 * static_cast<double>(g.y_len()));
  // Every repetition starts from the seeded y, so the output is one call's.
  if (Status s = timed(o, bytes, [&] {
        std::copy(g.y.begin(), g.y.end(), y.begin());
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
  }
  if (o.hash) report_hash(y.data(), y.size() * sizeof(T), o.dtype, context.isa(), "y buffer");
  return exit_code;
}

}  // namespace

int run_dot(const Args& args) {
  Blas1Options o;
  o.op = "dot";
  if (const int code = parse_blas1_args(args, 1, &o); code != kExitOk) return code;
  if (parse_only()) return kExitOk;
  return o.dtype == Dtype::kF32 ? run_dot_typed<float>(o) : run_dot_typed<double>(o);
}

int run_gemv(const Args& args) {
  Blas1Options o;
  o.op = "gemv";
  if (const int code = parse_blas1_args(args, 2, &o); code != kExitOk) return code;
  if (parse_only()) return kExitOk;
  return o.dtype == Dtype::kF32 ? run_gemv_typed<float>(o) : run_gemv_typed<double>(o);
}

}  // namespace tessera::cli
