// tessera-cli selftest: every registered kernel on every ISA level this host
// supports (up to the level the default context selects, so TESSERA_ISA
// bounds it), checked against the naive family.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <vector>

#include "arg_parser.hpp"
#include "blas1_selftest.hpp"
#include "commands.hpp"
#include "elementwise_problem.hpp"
#include "half_selftest.hpp"
#include "qgemm_selftest.hpp"
#include "reduce_selftest.hpp"
#include "tessera/tessera.hpp"

namespace tessera::cli {
namespace {

// Deterministic inputs with the IEEE special values mixed in.
std::vector<float> inputs(std::size_t n, std::uint32_t seed) {
  std::vector<float> v(n);
  std::uint32_t s = seed * 2654435761u + 1;
  const float specials[] = {NAN, -0.0f, 0.0f, INFINITY, -INFINITY, 1e-45f, -1e-40f};
  for (std::size_t i = 0; i < n; ++i) {
    s = s * 1664525u + 1013904223u;
    v[i] = (static_cast<float>(s >> 8) / 16777216.0f - 0.5f) * 8.0f;
    if (i % 97 == 3) v[i] = specials[(i / 97) % 7];
  }
  return v;
}

// Same bits; a NaN matches any NaN where the op leaves the payload open
// (arithmetic: add sub mul div sqrt).
template <class T>
bool same(T a, T b, bool exact_nan) {
  if (!exact_nan && std::isnan(a) && std::isnan(b)) return true;
  return std::memcmp(&a, &b, sizeof a) == 0;
}

// One elementwise op (binary: same shape, scalar rhs, row broadcast; or
// unary) in one dtype, on `context` and the naive family: mismatching
// elements.
template <class T>
std::size_t elementwise_mismatches(const Context& naive, const Context& context, bool binary,
                                   int op, std::size_t n) {
  const auto fa = inputs(n, 1), fb = inputs(n, 2);
  std::vector<T> a(fa.begin(), fa.end()), b(fb.begin(), fb.end());
  const bool exact_nan = binary ? (static_cast<BinaryOp>(op) == BinaryOp::kMin ||
                                   static_cast<BinaryOp>(op) == BinaryOp::kMax)
                                : static_cast<UnaryOp>(op) != UnaryOp::kSqrt;
  std::size_t bad = 0;
  const int forms = binary ? 3 : 1;
  for (int form = 0; form < forms; ++form) {
    std::vector<T> expected(n), actual(n);
    auto run = [&](const Context& c, std::vector<T>& out) {
      if (!binary) return try_unary(c, static_cast<UnaryOp>(op), a, out);
      const auto bop = static_cast<BinaryOp>(op);
      if (form == 0) return try_binary(c, bop, {1, n}, {a}, {b}, out);
      if (form == 1) {
        return try_binary(c, bop, {1, n}, {a},
                          {std::span<const T>(b).first(1), Broadcast::kScalar}, out);
      }
      // A row vector: n = rows x 17 when 17 divides n, else 1 x n.
      const std::size_t cols = n != 0 && n % 17 == 0 ? 17 : n;
      const std::size_t rows = cols == 0 ? 0 : n / cols;
      return try_binary(c, bop, {rows, cols}, {a},
                        {std::span<const T>(b).first(cols), Broadcast::kRow}, out);
    };
    if (binary && form == 1 && n == 0) continue;  // a scalar needs an element
    if (!run(naive, expected).ok() || !run(context, actual).ok()) {
      ++bad;
      continue;
    }
    if (!binary && !unary_op_is_exact(static_cast<UnaryOp>(op))) {
      // Transcendentals: within their documented ulp bound of the naive
      // family (tessera/elementwise.hpp).
      // + 1: the naive family (the C library) is itself within about 1 ulp.
      const double bound = unary_op_ulp_bound(static_cast<UnaryOp>(op), sizeof(T) == 8) + 1.0;
      for (std::size_t i = 0; i < n; ++i) {
        bad += ulp_distance(expected[i], actual[i]) <= bound ? 0 : 1;
      }
      continue;
    }
    for (std::size_t i = 0; i < n; ++i) bad += same(expected[i], actual[i], exact_nan) ? 0 : 1;
  }
  return bad;
}

// GEMM against the naive family: each element within the k-scaled rounding
// bound 2 (k + 4) eps sum_p |a_ip b_pj| (+ |beta c|), on shapes that cross
// the register tiles and the depth slices, both layouts and transposes.
// With `epilogue`, each case also adds a bias (per column, per row) and an
// activation (cycling none/relu/gelu/sigmoid) and is compared with the naive
// family's epilogue: the bound grows by the bias addition's rounding and the
// activation's few ulp.
template <class T>
std::size_t gemm_mismatches(const Context& naive, const Context& context, bool epilogue = false) {
  struct Case {
    std::int64_t m, n, k;
    Layout layout;
    Transpose ta, tb;
    T alpha, beta;
  };
  const Case cases[] = {
      {1, 1, 1, Layout::kRowMajor, Transpose::kNo, Transpose::kNo, T(1), T(0)},
      {17, 33, 9, Layout::kRowMajor, Transpose::kYes, Transpose::kNo, T(-1), T(0.5)},
      {64, 64, 64, Layout::kColMajor, Transpose::kNo, Transpose::kYes, T(1), T(1)},
      {131, 75, 300, Layout::kRowMajor, Transpose::kNo, Transpose::kNo, T(0.75), T(-2)},
      {29, 200, 513, Layout::kColMajor, Transpose::kYes, Transpose::kYes, T(2), T(0)},
  };
  std::size_t bad = 0;
  int case_index = 0;
  for (const Case& t : cases) {
    const int ci = case_index++;
    const std::int64_t size_a = t.m * t.k, size_b = t.k * t.n, size_c = t.m * t.n;
    const auto fa = inputs(static_cast<std::size_t>(size_a), 11);
    const auto fb = inputs(static_cast<std::size_t>(size_b), 12);
    const auto fc = inputs(static_cast<std::size_t>(size_c), 13);
    std::vector<T> a(size_a), b(size_b), c0(size_c);
    // Finite inputs only: the special values are the elementwise checks' job.
    for (std::int64_t i = 0; i < size_a; ++i) a[i] = std::isfinite(fa[i]) ? T(fa[i]) : T(0.5);
    for (std::int64_t i = 0; i < size_b; ++i) b[i] = std::isfinite(fb[i]) ? T(fb[i]) : T(-0.25);
    for (std::int64_t i = 0; i < size_c; ++i) c0[i] = std::isfinite(fc[i]) ? T(fc[i]) : T(1);
    const bool row = t.layout == Layout::kRowMajor;
    const std::int64_t a_rows = t.ta == Transpose::kNo ? t.m : t.k;
    const std::int64_t a_cols = t.ta == Transpose::kNo ? t.k : t.m;
    const std::int64_t b_rows = t.tb == Transpose::kNo ? t.k : t.n;
    const std::int64_t b_cols = t.tb == Transpose::kNo ? t.n : t.k;
    const std::int64_t lda = row ? a_cols : a_rows, ldb = row ? b_cols : b_rows;
    const std::int64_t ldc = row ? t.n : t.m;
    std::vector<T> expected = c0, actual = c0;
    std::vector<T> bias(static_cast<std::size_t>(std::max(t.m, t.n)));
    for (std::size_t i = 0; i < bias.size(); ++i) bias[i] = T(0.25) * T(int(i % 7) - 3);
    const GemmEpilogue<T> ep{bias.data(), ci % 2 == 0 ? BiasKind::kPerColumn : BiasKind::kPerRow,
                             static_cast<Activation>(ci % 4)};
    auto call = [&](const Context& ctx, T* out) {
      return epilogue ? try_gemm(ctx, t.layout, t.ta, t.tb, t.m, t.n, t.k, t.alpha, a.data(), lda,
                                 b.data(), ldb, t.beta, out, ldc, ep)
                      : try_gemm(ctx, t.layout, t.ta, t.tb, t.m, t.n, t.k, t.alpha, a.data(), lda,
                                 b.data(), ldb, t.beta, out, ldc);
    };
    if (!call(naive, expected.data()).ok() || !call(context, actual.data()).ok()) {
      ++bad;
      continue;
    }
    auto at = [&](std::int64_t r, std::int64_t col, std::int64_t ld) {
      return row ? r * ld + col : r + col * ld;
    };
    const double eps = std::numeric_limits<T>::epsilon();
    for (std::int64_t i = 0; i < t.m; ++i) {
      for (std::int64_t j = 0; j < t.n; ++j) {
        double magnitude = 0;
        for (std::int64_t p = 0; p < t.k; ++p) {
          const T av = t.ta == Transpose::kNo ? a[at(i, p, lda)] : a[at(p, i, lda)];
          const T bv = t.tb == Transpose::kNo ? b[at(p, j, ldb)] : b[at(j, p, ldb)];
          magnitude += std::fabs(double(av) * double(bv));
        }
        const std::int64_t x = at(i, j, ldc);
        double bound =
            2.0 * double(t.k + 4) * eps *
                (std::fabs(double(t.alpha)) * magnitude + std::fabs(double(t.beta) * double(c0[x]))) +
            double(std::numeric_limits<T>::min());
        if (epilogue) bound = 1.2 * bound + 8.0 * eps * (std::fabs(double(expected[x])) + 1.0);
        if (!(std::fabs(double(actual[x]) - double(expected[x])) <= bound)) ++bad;
      }
    }
  }
  return bad;
}
}  // namespace

int run_selftest(const Args& args) {
  // No arguments: the table is empty, so the first one is unknown.
  const ArgTable table{.command = "selftest", .unknown_options = UnknownOptions::kEveryArgument};
  if (const int code = parse_args(table, args); code != kExitOk || parse_only()) return code;
  const Context current;
  if (Status s = current.status(); !s.ok()) {
    std::fprintf(stderr, "tessera-cli: %s\n", s.to_string().c_str());
    return kExitFailure;
  }
  ContextOptions naive_options;
  naive_options.family = KernelFamily::kNaive;
  Context naive;
  if (Status s = Context::create(naive_options, &naive); !s.ok()) {
    std::fprintf(stderr, "tessera-cli: %s\n", s.to_string().c_str());
    return kExitFailure;
  }

  const std::size_t lengths[] = {0, 1, 3, 17, 64, 1000, 1003, 65537};
  int failures = 0, passes = 0;
  for (Isa isa : supported_isas()) {
    if (static_cast<int>(isa) > static_cast<int>(current.isa())) continue;
    ContextOptions options;
    options.isa = isa;
    Context context;
    if (Status s = Context::create(options, &context); !s.ok()) {
      std::fprintf(stderr, "tessera-cli: %s\n", s.to_string().c_str());
      return kExitFailure;
    }
    for (int dtype = 0; dtype < 2; ++dtype) {
      for (int k = 0; k < kBinaryOpCount + kUnaryOpCount; ++k) {
        const bool binary = k < kBinaryOpCount;
        const int op = binary ? k : k - kBinaryOpCount;
        std::size_t bad = 0;
        for (std::size_t n : lengths) {
          bad += dtype == 1 ? elementwise_mismatches<double>(naive, context, binary, op, n)
                            : elementwise_mismatches<float>(naive, context, binary, op, n);
        }
        std::printf("%s %-6s %s %-8s\n", bad == 0 ? "PASS" : "FAIL",
                    binary ? binary_op_name(static_cast<BinaryOp>(op))
                           : unary_op_name(static_cast<UnaryOp>(op)),
                    dtype == 1 ? "f64" : "f32", isa_name(isa));
        (bad == 0 ? passes : failures) += 1;
      }
    }
    for (int f64 = 0; f64 < 2; ++f64) {
      const std::size_t bad = f64 ? gemm_mismatches<double>(naive, context)
                                  : gemm_mismatches<float>(naive, context);
      std::printf("%s %-6s %s %-8s\n", bad == 0 ? "PASS" : "FAIL", "gemm", f64 ? "f64" : "f32",
                  isa_name(isa));
      (bad == 0 ? passes : failures) += 1;
    }
    for (int f64 = 0; f64 < 2; ++f64) {
      const std::size_t bad = f64 ? gemm_mismatches<double>(naive, context, true)
                                  : gemm_mismatches<float>(naive, context, true);
      std::printf("%s %-6s %s %-8s\n", bad == 0 ? "PASS" : "FAIL", "gemm_epilogue",
                  f64 ? "f64" : "f32", isa_name(isa));
      (bad == 0 ? passes : failures) += 1;
    }
    selftest_blas1(naive, context, &passes, &failures);
    selftest_reduce(naive, context, &passes, &failures);
    selftest_qgemm(naive, context, &passes, &failures);
    selftest_half(naive, context, &passes, &failures);
  }
  std::printf("selftest: %d passed, %d failed\n", passes, failures);
  return failures == 0 ? kExitOk : kExitFailure;
}

}  // namespace tessera::cli
