// try_gemm_triangular: C = alpha op(A) op(B) + beta C with A triangular.
// Checked against a double-precision product of A's triangle (zeros
// elsewhere, ones on a unit diagonal) computed here, with NaN planted in
// every element of A the call must not use; bit for bit across worker
// counts, against the prepacked form, and (beta 0) against try_gemm on
// the zero-filled triangle, whose sums it must equal term for term; on
// every level and the naive family; bad arguments named before C changes.
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "tests/core/gemm_test_util.hpp"

namespace tessera {
namespace {

using test::gemm::Operands;
using test::gemm::Shape;

struct Case {
  Shape shape;  // k == m
  TriangularOperand triangular;
};

std::string describe(const Case& c) {
  return c.shape.describe() + (c.triangular.part == Triangle::kLower ? " lower" : " upper") +
         (c.triangular.unit_diagonal ? " unit" : "") + " group " +
         std::to_string(c.triangular.group);
}

// Whether stored A(i, j) is used: in the stored triangle of group x group
// blocks, and off the diagonal blocks when they are unit ones.
bool used(const TriangularOperand& t, std::int64_t i, std::int64_t j) {
  const std::int64_t g = t.group;
  if (i / g == j / g) return !t.unit_diagonal;
  return t.part == Triangle::kLower ? i / g > j / g : i / g < j / g;
}

// The operands the call gets (NaN in every unused element of A) and the
// ones the reference multiplies (zeros there, ones on a unit diagonal).
template <class T>
void make(const Case& c, std::uint64_t seed, Operands<T>* call, Operands<T>* reference) {
  const Shape& s = c.shape;
  *call = test::gemm::make_operands<T>(s, seed);
  *reference = *call;
  for (std::int64_t i = 0; i < s.m; ++i) {
    for (std::int64_t j = 0; j < s.m; ++j) {
      const auto e = static_cast<std::size_t>(test::gemm::at(s.layout, i, j, s.lda()));
      if (used(c.triangular, i, j)) continue;
      const std::int64_t g = c.triangular.group;
      call->a[e] = std::numeric_limits<T>::quiet_NaN();
      reference->a[e] = i / g == j / g && i % g == j % g ? T(1) : T(0);
    }
  }
}

template <class T>
Status run_triangular(const Context& context, const Case& c, const Operands<T>& o,
                      std::vector<T>* out, Parallelism parallelism) {
  const Shape& s = c.shape;
  *out = o.c;
  return try_gemm_triangular(context, s.layout, s.ta, s.tb, s.m, s.n, static_cast<T>(s.alpha),
                             o.a.data(), s.lda(), o.b.data(), s.ldb(), static_cast<T>(s.beta),
                             out->data(), s.ldc(), c.triangular, parallelism);
}

template <class T>
void check_case(const Context& context, const std::string& label, const Case& c,
                std::uint64_t seed, int max_workers, bool packed_form) {
  const Shape& s = c.shape;
  Operands<T> o, reference;
  make(c, seed, &o, &reference);
  const std::string where = label + (sizeof(T) == 4 ? " f32 " : " f64 ") + describe(c);
  std::vector<T> first;
  for (int w : test::kWorkerCounts) {
    if (w > max_workers) continue;
    std::vector<T> got;
    const Status st = run_triangular(context, c, o, &got, Parallelism::threads(w));
    REQUIRE_MESSAGE(st.ok(), where, ": ", st.to_string());
    if (first.empty()) {
      first = got;
      test::gemm::check_close(s, reference, got, where);
      if (s.beta == 0) {
        // The same sums as the full product on the zero-filled triangle.
        std::vector<T> full;
        REQUIRE(test::gemm::run(context, s, reference, &full, Parallelism::threads(1)).ok());
        CHECK_MESSAGE(test::gemm::same_bits(got, full), where, ": differs from try_gemm");
      }
    } else {
      CHECK_MESSAGE(test::gemm::same_bits(got, first), where, ": workers ", w,
                    " differ from one worker");
    }
  }
  if (!packed_form || s.m == 0) return;
  PackedRhs packed;
  REQUIRE(try_prepack_rhs(context, s.layout, s.tb, s.m, s.n, o.b.data(), s.ldb(), &packed).ok());
  std::vector<T> got = o.c;
  const Status st = try_gemm_triangular(context, s.layout, s.ta, s.m, static_cast<T>(s.alpha),
                                        o.a.data(), s.lda(), packed, static_cast<T>(s.beta),
                                        got.data(), s.ldc(), c.triangular,
                                        Parallelism::threads(max_workers));
  REQUIRE_MESSAGE(st.ok(), where, ": ", st.to_string());
  CHECK_MESSAGE(test::gemm::same_bits(got, first), where, ": the prepacked form differs");
}

// Orders around the register tiles and the depth slice (several slices,
// a slice boundary inside a tile), against B's widths either side of nr.
std::vector<Case> cases(const GemmPlan& plan) {
  // Slow targets (qemu, wasm: f64's long double reference is software
  // there) keep one order past a slice and the narrower B's: the test ran
  // 257 s of ctest's 300 on aarch64 under qemu with both.
  const bool slow = test::gemm::slow_target();
  std::vector<std::int64_t> orders = {1, 2, 7, plan.mr + 1, plan.nr + 3, slow ? 41 : 131,
                                      plan.kc + 3};
  if (!slow) orders.push_back(2 * plan.kc + 5);
  std::vector<std::int64_t> widths = {1, 5, plan.nr + 1};
  if (!slow) widths.push_back(37);
  const double alphas[] = {1, -0.5, 2};
  const double betas[] = {0, 0.5, 0, -2, 1};
  std::vector<Case> out;
  int index = 0;
  for (std::int64_t m : orders) {
    for (std::int64_t n : widths) {
      for (Layout layout : {Layout::kRowMajor, Layout::kColMajor}) {
        for (Transpose ta : {Transpose::kNo, Transpose::kYes}) {
          for (Triangle part : {Triangle::kLower, Triangle::kUpper}) {
            Case c;
            Shape& s = c.shape;
            // A third of the orders in blocks of 2 (1m's complex form),
            // rounded up to even.
            const std::int64_t group = (index / 8) % 3 == 1 ? 2 : 1;
            s.layout = layout;
            s.ta = ta;
            s.tb = index % 3 == 0 ? Transpose::kYes : Transpose::kNo;
            s.m = s.k = (m + group - 1) / group * group;
            s.n = n;
            s.alpha = alphas[index % 3];
            s.beta = betas[index % 5];
            s.lda_pad = index % 4 == 0 ? 3 : 0;
            s.ldc_pad = index % 7 == 0 ? 5 : 0;
            c.triangular = TriangularOperand{part, (index + index / 8) % 2 == 1, group};
            out.push_back(c);
            ++index;
          }
        }
      }
    }
  }
  return out;
}

void check_context(const Context& context, const std::string& label, int max_workers,
                   std::uint64_t seed, bool packed_form) {
  GemmPlan plan;
  REQUIRE(try_plan_gemm(context, Dtype::kF32, Layout::kRowMajor, 100, 100, 100, {}, &plan).ok());
  int index = 0;
  for (const Case& c : cases(plan)) {
    ++index;
    if (index % 2 == 0) {
      check_case<float>(context, label, c, seed + index, max_workers, packed_form);
    } else {
      check_case<double>(context, label, c, seed + index, max_workers, packed_form);
    }
  }
}

TEST_CASE("gemm triangular: against a double product of the triangle, NaN elsewhere in A, "
          "every worker count and the prepacked form (best level)") {
  const auto executor = test::gemm::wide_executor(8);
  check_context(test::gemm::context_with(test::gemm::best_isa(), executor),
                isa_name(test::gemm::best_isa()), executor->width(), 31, true);
}

TEST_CASE("gemm triangular: every level and the naive family, one and three workers") {
  const auto executor = test::gemm::wide_executor(3);
  for (Isa isa : test::host_isas()) {
    check_context(test::gemm::context_with(isa, executor), isa_name(isa), 3, 131, true);
  }
  check_context(test::naive_context(), "naive", 1, 232, false);
}

TEST_CASE("gemm triangular: a large product on the context's own pool, split many ways") {
  const Context context = test::own_pool_context_8();
  Case c;
  c.shape.layout = Layout::kColMajor;
  c.shape.m = c.shape.k = test::gemm::slow_target() ? 90 : 600;
  c.shape.n = test::gemm::slow_target() ? 70 : 500;
  c.triangular = TriangularOperand{Triangle::kUpper, false};
  check_case<double>(context, "own pool", c, 7, 8, true);
  c.shape.layout = Layout::kRowMajor;
  c.shape.ta = Transpose::kYes;
  c.shape.beta = 0.5;
  c.triangular = TriangularOperand{Triangle::kUpper, true};
  check_case<float>(context, "own pool", c, 8, 8, true);
  // The complex left TRMM's form: 1m's 2 x 2 blocks, column-major.
  c.shape.layout = Layout::kColMajor;
  c.shape.ta = Transpose::kNo;
  c.shape.beta = 0;
  c.triangular = TriangularOperand{Triangle::kLower, true, 2};
  check_case<double>(context, "own pool", c, 9, 8, true);
}

TEST_CASE("gemm triangular: bad arguments are named and C is untouched") {
  const Context context;
  std::vector<double> a(16, 1.0), b(16, 1.0), c(16, 7.0);
  const auto call = [&](TriangularOperand t, std::int64_t ldc) {
    return try_gemm_triangular(context, Layout::kColMajor, Transpose::kNo, Transpose::kNo, 4, 4,
                               1.0, a.data(), 4, b.data(), 4, 0.0, c.data(), ldc, t);
  };
  Status st = call(TriangularOperand{static_cast<Triangle>(3), false}, 4);
  CHECK(st.code() == StatusCode::kInvalidArgument);
  CHECK(st.message().find("triangular.part") != std::string::npos);
  st = call(TriangularOperand{}, 3);
  CHECK(st.code() == StatusCode::kInvalidArgument);
  CHECK(st.message().find("ldc") != std::string::npos);
  st = call(TriangularOperand{Triangle::kLower, false, 0}, 4);
  CHECK(st.code() == StatusCode::kInvalidArgument);
  CHECK(st.message().find("triangular.group") != std::string::npos);
  st = call(TriangularOperand{Triangle::kLower, false, 3}, 4);
  CHECK(st.code() == StatusCode::kInvalidArgument);
  CHECK(st.message().find("does not divide m = 4") != std::string::npos);
  st = try_gemm_triangular(context, Layout::kColMajor, Transpose::kNo, Transpose::kNo, 4, 4, 1.0,
                           a.data(), 3, b.data(), 4, 0.0, c.data(), 4, TriangularOperand{});
  CHECK(st.code() == StatusCode::kInvalidArgument);
  CHECK(st.message().find("lda") != std::string::npos);
  // A prepacked B of the wrong depth.
  PackedRhs packed;
  REQUIRE(try_prepack_rhs(context, Layout::kColMajor, Transpose::kNo, 3, 4, b.data(), 3, &packed)
              .ok());
  st = try_gemm_triangular(context, Layout::kColMajor, Transpose::kNo, 4, 1.0, a.data(), 4,
                           packed, 0.0, c.data(), 4, TriangularOperand{});
  CHECK(st.code() == StatusCode::kInvalidArgument);
  CHECK(st.message().find("deep") != std::string::npos);
  for (double v : c) CHECK(v == 7.0);
}

TEST_CASE("gemm triangular: alpha == 0 scales C and leaves NaN in A unused") {
  for (const Context& context : test::contexts_under_test()) {
    std::vector<float> a(9, std::numeric_limits<float>::quiet_NaN()), b(6, 1.0f), c(6);
    for (std::size_t e = 0; e < c.size(); ++e) c[e] = static_cast<float>(e + 1);
    REQUIRE(try_gemm_triangular(context, Layout::kRowMajor, Transpose::kNo, Transpose::kNo, 3, 2,
                                0.0f, a.data(), 3, b.data(), 2, 2.0f, c.data(), 2,
                                TriangularOperand{})
                .ok());
    for (std::size_t e = 0; e < c.size(); ++e) {
      CHECK_MESSAGE(c[e] == 2.0f * static_cast<float>(e + 1), test::level_label(context));
    }
  }
}

}  // namespace
}  // namespace tessera
