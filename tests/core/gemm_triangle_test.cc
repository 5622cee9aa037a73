// try_gemm_triangle: the kept elements carry the bits try_gemm gives them
// (its own correctness is gemm_correctness_test's, against a
// double-precision reference), for every worker count and on every level
// and the naive family; nothing outside the triangle is read or written;
// bad arguments are named before C is touched.
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "tests/core/gemm_test_util.hpp"

namespace tessera {
namespace {

using test::gemm::Operands;
using test::gemm::Shape;

// Whether the caller's element (i, j) is in the triangle.
bool kept(const GemmTriangle& t, std::int64_t i, std::int64_t j) {
  return t.part == Triangle::kLower ? i / t.row_group >= j : i / t.row_group <= j;
}

std::string describe(const Shape& s, const GemmTriangle& t) {
  return s.describe() + (t.part == Triangle::kLower ? " lower" : " upper") +
         " group=" + std::to_string(t.row_group);
}

template <class T>
Status run_triangle(const Context& context, const Shape& s, const Operands<T>& o,
                    const GemmTriangle& t, std::vector<T>* c, Parallelism parallelism) {
  *c = o.c;
  return try_gemm_triangle(context, s.layout, s.ta, s.tb, s.m, s.n, s.k,
                           static_cast<T>(s.alpha), o.a.data(), s.lda(), o.b.data(), s.ldb(),
                           static_cast<T>(s.beta), c->data(), s.ldc(), t, parallelism);
}

// The triangle's call against the full product's on one context: kept
// elements bit for bit, every other stored element (the other triangle and
// the padding) as it was, for each worker count up to `max_workers`.
template <class T>
void check_against_full(const Context& context, const std::string& label, const Shape& s,
                        const GemmTriangle& t, std::uint64_t seed, int max_workers) {
  Operands<T> o = test::gemm::make_operands<T>(s, seed);
  // NaN outside the triangle: a read of it would show in a kept element
  // (beta != 0 reads C), a write would replace it.
  for (std::int64_t i = 0; i < s.m; ++i) {
    for (std::int64_t j = 0; j < s.n; ++j) {
      if (!kept(t, i, j)) {
        o.c[static_cast<std::size_t>(test::gemm::at(s.layout, i, j, s.ldc()))] =
            std::numeric_limits<T>::quiet_NaN();
      }
    }
  }
  std::vector<T> full;
  REQUIRE(test::gemm::run(context, s, o, &full, Parallelism::threads(1)).ok());
  for (int w : test::kWorkerCounts) {
    if (w > max_workers) continue;
    std::vector<T> c;
    const Status st = run_triangle(context, s, o, t, &c, Parallelism::threads(w));
    REQUIRE_MESSAGE(st.ok(), st.to_string());
    std::int64_t bad = 0;
    std::string first;
    for (std::size_t e = 0; e < c.size(); ++e) {
      std::int64_t i = -1, j = -1;  // the element of C at e, if any
      const std::int64_t line = static_cast<std::int64_t>(e) / s.ldc();
      const std::int64_t off = static_cast<std::int64_t>(e) % s.ldc();
      if (s.layout == Layout::kRowMajor && line < s.m && off < s.n) i = line, j = off;
      if (s.layout == Layout::kColMajor && line < s.n && off < s.m) i = off, j = line;
      const bool in = i >= 0 && kept(t, i, j);
      const T want = in ? full[e] : o.c[e];
      if (std::memcmp(&c[e], &want, sizeof(T)) != 0) {
        if (bad++ == 0) {
          first = "(" + std::to_string(i) + "," + std::to_string(j) + ") " +
                  (in ? "kept" : "outside");
        }
      }
    }
    CHECK_MESSAGE(bad == 0, label, (sizeof(T) == 4 ? " f32 " : " f64 "), "workers ", w, ": ",
                  describe(s, t), ": ", bad, " elements differ, first ", first);
  }
}

// Shapes around the register tiles and the depth slice: square ones (the
// SYRK family's), row-grouped ones (m = 2n, a complex triangle as reals),
// and rectangles either way.
std::vector<Shape> shapes(const GemmPlan& plan) {
  const bool slow = test::gemm::slow_target();
  const std::int64_t big = slow ? 41 : 131;
  const std::int64_t deep = plan.kc + 3;
  const std::int64_t dims[][3] = {{1, 1, 1},     {2, 1, 3},          {7, 7, 5},
                                  {plan.mr + 1, plan.mr + 1, 9},      {plan.nr, plan.nr, 2},
                                  {big, big, 17}, {big, big, deep},   {2 * big, big, 11},
                                  {big, 3 * 5, 6}, {13, big, 4},      {0, 5, 3},
                                  {5, 0, 3},     {6, 6, 0}};
  std::vector<Shape> out;
  test::gemm::for_each_layout_shape(dims, [&](Shape s) {
    out.push_back(s);
  });
  const double alphas[] = {1, -0.5, 0, 2};
  const double betas[] = {0, 1, 0.5, -2};
  for (std::size_t i = 0; i < out.size(); ++i) {
    out[i].alpha = alphas[i % 4];
    out[i].beta = betas[(i / 4) % 4];
    out[i].ldc_pad = i % 3 == 0 ? 5 : 0;
    out[i].lda_pad = i % 5 == 0 ? 3 : 0;
  }
  return out;
}

void check_context(const Context& context, const std::string& label, int max_workers,
                   std::uint64_t seed) {
  GemmPlan plan;
  REQUIRE(try_plan_gemm(context, Dtype::kF32, Layout::kRowMajor, 100, 100, 100, {}, &plan).ok());
  int index = 0;
  for (const Shape& s : shapes(plan)) {
    for (Triangle part : {Triangle::kLower, Triangle::kUpper}) {
      for (std::int64_t group : {1, 2}) {
        const GemmTriangle t{part, group};
        ++index;
        if (index % 2 == 0) {
          check_against_full<float>(context, label, s, t, seed + index, max_workers);
        } else {
          check_against_full<double>(context, label, s, t, seed + index, max_workers);
        }
      }
    }
  }
}

TEST_CASE("gemm triangle: kept elements are the full product's bits, the rest untouched, "
          "every worker count (best level)") {
  const auto executor = test::gemm::wide_executor(8);
  check_context(test::gemm::context_with(test::gemm::best_isa(), executor),
                isa_name(test::gemm::best_isa()), executor->width(), 11);
}

TEST_CASE("gemm triangle: every level and the naive family, one and three workers") {
  const auto executor = test::gemm::wide_executor(3);
  for (Isa isa : test::host_isas()) {
    check_context(test::gemm::context_with(isa, executor), isa_name(isa), 3, 101);
  }
  check_context(test::naive_context(), "naive", 1, 202);
}

TEST_CASE("gemm triangle: a large triangle on the context's own pool, split many ways") {
  // Many row blocks and column tiles, so the kept jobs really are a subset
  // and several workers share them.
  const Context context = test::own_pool_context_8();
  Shape s;
  s.layout = Layout::kColMajor;
  s.ta = Transpose::kNo, s.tb = Transpose::kYes;
  s.m = s.n = test::gemm::slow_target() ? 90 : 300;
  s.k = 70;
  s.beta = 0.5;
  check_against_full<double>(context, "own pool", s, GemmTriangle{Triangle::kLower, 1}, 5, 8);
  s.m = 2 * s.n;
  check_against_full<float>(context, "own pool", s, GemmTriangle{Triangle::kUpper, 2}, 6, 8);
}

TEST_CASE("gemm triangle: bad arguments are named and C is untouched") {
  const Context context;
  std::vector<double> a(16, 1.0), b(16, 1.0), c(16, 7.0);
  const auto call = [&](GemmTriangle t, std::int64_t ldc) {
    return try_gemm_triangle(context, Layout::kColMajor, Transpose::kNo, Transpose::kNo, 4, 4, 4,
                             1.0, a.data(), 4, b.data(), 4, 0.0, c.data(), ldc, t);
  };
  Status st = call(GemmTriangle{Triangle::kLower, 0}, 4);
  CHECK(st.code() == StatusCode::kInvalidArgument);
  CHECK(st.message().find("triangle.row_group") != std::string::npos);
  st = call(GemmTriangle{static_cast<Triangle>(5), 1}, 4);
  CHECK(st.code() == StatusCode::kInvalidArgument);
  CHECK(st.message().find("triangle.part") != std::string::npos);
  st = call(GemmTriangle{Triangle::kUpper, 1}, 3);
  CHECK(st.code() == StatusCode::kInvalidArgument);
  CHECK(st.message().find("ldc") != std::string::npos);
  for (double v : c) CHECK(v == 7.0);
}

TEST_CASE("gemm triangle: k == 0 and alpha == 0 scale the triangle only") {
  for (const Context& context : test::contexts_under_test()) {
    for (double alpha : {0.0, 1.0}) {
      const std::int64_t k = alpha == 0.0 ? 3 : 0;
      std::vector<float> a(12, 1.0f), b(12, 1.0f), c(16);
      for (std::size_t e = 0; e < c.size(); ++e) c[e] = static_cast<float>(e + 1);
      REQUIRE(try_gemm_triangle(context, Layout::kRowMajor, Transpose::kNo, Transpose::kNo, 4, 4,
                                k, static_cast<float>(alpha), a.data(), 3, b.data(), 4, 2.0f,
                                c.data(), 4, GemmTriangle{Triangle::kUpper, 1})
                  .ok());
      for (std::int64_t i = 0; i < 4; ++i) {
        for (std::int64_t j = 0; j < 4; ++j) {
          const float before = static_cast<float>(i * 4 + j + 1);
          CHECK_MESSAGE(c[static_cast<std::size_t>(i * 4 + j)] == (i <= j ? 2 * before : before),
                        test::level_label(context), " (", i, ",", j, ") alpha ", alpha);
        }
      }
    }
  }
}

}  // namespace
}  // namespace tessera
