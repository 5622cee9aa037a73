// The GEMM API surface: every bad argument is an invalid_argument naming it,
// with nothing written (design.md §Bad input); prepack_rhs reuse and its
// explicit errors (wrong ISA level, dtype, layout, empty operand, naive
// family); plans; the throwing forms; inventory rows.
#include <algorithm>
#include <limits>

#include "tests/core/gemm_test_util.hpp"

namespace tessera {
namespace {

constexpr float kSentinel = 42.0f;

struct Buffers {
  std::vector<float> a = std::vector<float>(64, 1.0f);
  std::vector<float> b = std::vector<float>(64, 2.0f);
  std::vector<float> c = std::vector<float>(64, kSentinel);
  bool c_untouched() const {
    return std::all_of(c.begin(), c.end(), [](float x) { return x == kSentinel; });
  }
};

// Expects an invalid_argument whose message contains `needle`, and C intact.
void expect_error(const Status& status, const Buffers& buf, const std::string& needle) {
  CHECK(status.code() == StatusCode::kInvalidArgument);
  CHECK_MESSAGE(status.message().find(needle) != std::string::npos, "message: ", status.message(),
                " (expected to mention '", needle, "')");
  CHECK(buf.c_untouched());
}

TEST_CASE("bad dimensions, strides and pointers are errors naming the argument") {
  const Context context = test::context_for(test::gemm::best_isa());
  const auto row = Layout::kRowMajor, col = Layout::kColMajor;
  const auto N = Transpose::kNo, T = Transpose::kYes;
  Buffers buf;
  float* a = buf.a.data();
  float* b = buf.b.data();
  float* c = buf.c.data();
  auto call = [&](Layout layout, Transpose ta, Transpose tb, std::int64_t m, std::int64_t n,
                  std::int64_t k, const float* pa, std::int64_t lda, const float* pb,
                  std::int64_t ldb, float* pc, std::int64_t ldc, Parallelism p = {}) {
    return try_gemm(context, layout, ta, tb, m, n, k, 1.0f, pa, lda, pb, ldb, 0.0f, pc, ldc, p);
  };
  expect_error(call(row, N, N, -1, 4, 4, a, 4, b, 4, c, 4), buf, "m must be >= 0 (got -1)");
  expect_error(call(row, N, N, 4, -5, 4, a, 4, b, 4, c, 4), buf, "n must be >= 0");
  expect_error(call(row, N, N, 4, 4, -2, a, 4, b, 4, c, 4), buf, "k must be >= 0");
  expect_error(call(row, N, N, 3'000'000, 3'000'000, 3'000'000, a, 3'000'000, b, 3'000'000, c,
                    3'000'000),
               buf, "m*n*k overflows");
  // Leading dimensions, row-major: row length; column-major: column length.
  expect_error(call(row, N, N, 4, 4, 4, a, 3, b, 4, c, 4), buf, "lda = 3");
  expect_error(call(row, T, N, 2, 4, 4, a, 1, b, 4, c, 4), buf, "lda = 1 is smaller than the row length 2");
  expect_error(call(row, N, N, 4, 4, 4, a, 4, b, 3, c, 4), buf, "ldb = 3");
  expect_error(call(row, N, N, 4, 4, 4, a, 4, b, 4, c, 3), buf, "ldc = 3");
  expect_error(call(col, N, N, 4, 2, 2, a, 3, b, 2, c, 4), buf, "lda = 3 is smaller than the column length 4");
  expect_error(call(col, N, T, 2, 4, 2, a, 2, b, 3, c, 2), buf, "ldb = 3");
  expect_error(call(col, N, N, 4, 2, 2, a, 4, b, 2, c, 2), buf, "ldc = 2");
  // Leading dimensions are checked even for empty matrices (BLAS: >= 1).
  expect_error(call(row, N, N, 0, 4, 0, a, 0, b, 4, c, 4), buf, "lda = 0");
  // Null pointers with elements.
  expect_error(call(row, N, N, 4, 4, 4, nullptr, 4, b, 4, c, 4), buf, "a is null");
  expect_error(call(row, N, N, 4, 4, 4, a, 4, nullptr, 4, c, 4), buf, "b is null");
  Buffers other;
  expect_error(call(row, N, N, 4, 4, 4, a, 4, b, 4, nullptr, 4), other, "c is null");
  // Extents beyond the address space.
  expect_error(call(row, N, N, 4, 4, 4, a, std::numeric_limits<std::int64_t>::max() / 2, b, 4, c, 4),
               buf, "spans more memory");
  // Enum values out of range.
  expect_error(call(static_cast<Layout>(7), N, N, 2, 2, 2, a, 2, b, 2, c, 2), buf, "layout");
  expect_error(call(row, static_cast<Transpose>(9), N, 2, 2, 2, a, 2, b, 2, c, 2), buf, "trans_a");
  expect_error(call(row, N, static_cast<Transpose>(9), 2, 2, 2, a, 2, b, 2, c, 2), buf, "trans_b");
  // Parallelism.
  expect_error(call(row, N, N, 2, 2, 2, a, 2, b, 2, c, 2, Parallelism::threads(-3)), buf, "parallelism");
}

TEST_CASE("C overlapping A or B is an error, disjoint neighbours are fine") {
  const Context context = test::context_for(test::gemm::best_isa());
  std::vector<float> mem(200, 1.0f);
  const auto row = Layout::kRowMajor;
  const auto N = Transpose::kNo;
  // C starts inside A's accessed range.
  Status s = try_gemm(context, row, N, N, 4, 4, 4, 1.0f, mem.data(), 4, mem.data() + 100, 4,
                      0.0f, mem.data() + 10, 4);
  CHECK(s.code() == StatusCode::kInvalidArgument);
  CHECK(s.message().find("c overlaps a") != std::string::npos);
  CHECK(mem[10] == 1.0f);
  // C ends inside B's.
  s = try_gemm(context, row, N, N, 4, 4, 4, 1.0f, mem.data(), 4, mem.data() + 100, 4, 0.0f,
               mem.data() + 90, 4);
  CHECK(s.message().find("c overlaps b") != std::string::npos);
  CHECK(mem[90] == 1.0f);
  // Exactly adjacent: allowed.
  s = try_gemm(context, row, N, N, 4, 4, 4, 1.0f, mem.data(), 4, mem.data() + 16, 4, 0.0f,
               mem.data() + 32, 4);
  CHECK(s.ok());
  CHECK(mem[32] == 4.0f);
}

TEST_CASE("prepack_rhs: reusable, tied to its ISA level, dtype and layout") {
  const std::vector<Isa> isas = test::host_isas();
  const Context best = test::context_for(isas.back());
  test::gemm::Shape s;
  s.m = 37, s.n = 45, s.k = 70, s.alpha = 1.0, s.beta = 0.0;
  const auto o = test::gemm::make_operands<float>(s, 5);
  PackedRhs packed;
  CHECK(packed.empty());
  REQUIRE(try_prepack_rhs(best, s.layout, s.tb, s.k, s.n, o.b.data(), s.ldb(), &packed).ok());
  CHECK_FALSE(packed.empty());
  CHECK(packed.isa() == isas.back());
  CHECK(packed.dtype() == Dtype::kF32);
  CHECK(packed.k() == 70);
  CHECK(packed.n() == 45);
  CHECK(packed.bytes() >= 70u * 45u * 4u);
  std::vector<float> expected, c(o.c.size());
  REQUIRE(test::gemm::run(best, s, o, &expected).ok());
  for (int rep = 0; rep < 3; ++rep) {
    std::fill(c.begin(), c.end(), -1.0f);
    REQUIRE(try_gemm(best, s.layout, s.ta, s.m, 1.0f, o.a.data(), s.lda(), packed, 0.0f,
                     c.data(), s.ldc())
                .ok());
    CHECK(test::gemm::same_bits(expected, c));
  }
  // Moving keeps it usable; the moved-from one is empty and rejected.
  PackedRhs moved = std::move(packed);
  CHECK_FALSE(moved.empty());
  Status st = try_gemm(best, s.layout, s.ta, s.m, 1.0f, o.a.data(), s.lda(), packed, 0.0f,
                       c.data(), s.ldc());
  CHECK(st.code() == StatusCode::kInvalidArgument);
  CHECK(st.message().find("empty PackedRhs") != std::string::npos);
  // Another ISA level: an explicit error, never a silent repack.
  if (isas.size() > 1) {
    const Context lower = test::context_for(isas.front());
    std::fill(c.begin(), c.end(), kSentinel);
    st = try_gemm(lower, s.layout, s.ta, s.m, 1.0f, o.a.data(), s.lda(), moved, 0.0f, c.data(),
                  s.ldc());
    CHECK(st.code() == StatusCode::kInvalidArgument);
    CHECK(st.message().find(std::string("packed for ISA level ") + isa_name(isas.back())) !=
          std::string::npos);
    CHECK(std::all_of(c.begin(), c.end(), [](float x) { return x == kSentinel; }));
  }
  // Wrong dtype and layout.
  std::vector<double> cd(o.c.size()), ad(o.a.begin(), o.a.end());
  st = try_gemm(best, s.layout, s.ta, s.m, 1.0, ad.data(), s.lda(), moved, 0.0, cd.data(), s.ldc());
  CHECK(st.message().find("packed as f32") != std::string::npos);
  st = try_gemm(best, Layout::kColMajor, s.ta, s.m, 1.0f, o.a.data(), s.m, moved, 0.0f, c.data(),
                s.m);
  CHECK(st.message().find("packed for row-major") != std::string::npos);
  // The naive family has no packed format.
  PackedRhs none;
  st = try_prepack_rhs(test::naive_context(), s.layout, s.tb, s.k, s.n, o.b.data(), s.ldb(), &none);
  CHECK(st.code() == StatusCode::kUnsupported);
  CHECK(none.empty());
  // Validation of the packing call itself.
  st = try_prepack_rhs(best, s.layout, s.tb, -1, s.n, o.b.data(), s.ldb(), &none);
  CHECK(st.message().find("k must be >= 0") != std::string::npos);
  st = try_prepack_rhs(best, s.layout, s.tb, s.k, s.n, o.b.data(), 3, &none);
  CHECK(st.message().find("ldb = 3") != std::string::npos);
  st = try_prepack_rhs(best, s.layout, s.tb, s.k, s.n, static_cast<const float*>(nullptr), s.ldb(), &none);
  CHECK(st.message().find("b is null") != std::string::npos);
  st = try_prepack_rhs(best, s.layout, s.tb, s.k, s.n, o.b.data(), s.ldb(), nullptr);
  CHECK(st.message().find("out is null") != std::string::npos);
  CHECK(none.empty());
}

TEST_CASE("prepack_rhs column-major and transposed: same bits as the unpacked call") {
  for (Isa isa : test::host_isas()) {
    const Context context = test::context_for(isa);
    for (Layout layout : {Layout::kRowMajor, Layout::kColMajor}) {
      for (Transpose tb : {Transpose::kNo, Transpose::kYes}) {
        test::gemm::Shape s;
        s.layout = layout, s.tb = tb, s.ta = Transpose::kYes;
        s.m = 150, s.n = 77, s.k = 300, s.alpha = -0.5, s.beta = 2.0, s.ldb_pad = 3;
        const auto o = test::gemm::make_operands<double>(s, 11);
        PackedRhs packed;
        REQUIRE(try_prepack_rhs(context, layout, tb, s.k, s.n, o.b.data(), s.ldb(), &packed).ok());
        std::vector<double> expected, c = o.c;
        REQUIRE(test::gemm::run(context, s, o, &expected).ok());
        REQUIRE(try_gemm(context, layout, s.ta, s.m, s.alpha, o.a.data(), s.lda(), packed, s.beta,
                         c.data(), s.ldc())
                    .ok());
        CHECK_MESSAGE(test::gemm::same_bits(expected, c), isa_name(isa), " ", s.describe());
        test::gemm::check_close(s, o, c, "prepacked");
      }
    }
  }
}

TEST_CASE("plans say what a call would do and why") {
  const Context context = test::context_for(test::gemm::best_isa());
  GemmPlan plan;
  REQUIRE(try_plan_gemm(context, Dtype::kF32, Layout::kRowMajor, 1000, 1000, 1000, {}, &plan).ok());
  CHECK(plan.kc > 0);
  CHECK(plan.mc % plan.mr == 0);
  CHECK(plan.nc % plan.nr == 0);
  CHECK(plan.workers >= 1);
  const std::string text = plan.to_string();
  CHECK(text.find("mr x nr") != std::string::npos);
  CHECK(text.find("kc =") != std::string::npos);
  CHECK(text.find("workers") != std::string::npos);
  REQUIRE(try_plan_gemm(context, Dtype::kF64, Layout::kColMajor, 8, 8, 8, Parallelism::threads(4), &plan).ok());
  CHECK(plan.workers == 1);
  CHECK(plan.worker_rule == "serial gate");
  CHECK(plan.direct);
  CHECK(try_plan_gemm(context, Dtype::kF32, Layout::kRowMajor, -1, 2, 2, {}, &plan).message().find("m must be") !=
        std::string::npos);
  REQUIRE(try_plan_gemm(test::naive_context(), Dtype::kF32, Layout::kRowMajor, 9, 9, 9, {}, &plan).ok());
  CHECK(plan.family == KernelFamily::kNaive);
}

TEST_CASE("a call never uses more than the policy's max_threads_per_kernel") {
  ContextOptions options;
  options.read_environment = false;
  options.executor = test::gemm::wide_executor(8);
  options.knobs.parallel_threshold = 0;
  options.policy.max_threads_per_kernel = 3;
  Context context;
  const Status created = Context::create(options, &context);
  REQUIRE_MESSAGE(created.ok(), created.to_string());
  GemmPlan plan;
  REQUIRE(try_plan_gemm(context, Dtype::kF32, Layout::kRowMajor, 500, 500, 500,
                        Parallelism::threads(8), &plan)
              .ok());
  CHECK(plan.width == 3);
  CHECK(plan.workers == 3);
  CHECK(plan.worker_reason.find("capped by width 3") != std::string::npos);
}

#if TESSERA_HAS_EXCEPTIONS
TEST_CASE("the throwing forms throw tessera::Error with the status") {
  const Context context;
  float c[4] = {0, 0, 0, 0};
  const float a[4] = {1, 2, 3, 4};
  CHECK_THROWS_AS(gemm(context, Layout::kRowMajor, Transpose::kNo, Transpose::kNo, -1, 2, 2,
                       1.0f, a, 2, a, 2, 0.0f, c, 2),
                  Error);
  try {
    gemm(context, Layout::kRowMajor, Transpose::kNo, Transpose::kNo, 2, 2, 2, 1.0f, a, 1, a, 2,
         0.0f, c, 2);
    FAIL("no throw");
  } catch (const Error& e) {
    CHECK(e.code() == StatusCode::kInvalidArgument);
    CHECK(std::string(e.what()).find("lda") != std::string::npos);
  }
  gemm(context, Layout::kRowMajor, Transpose::kNo, Transpose::kNo, 2, 2, 2, 1.0f, a, 2, a, 2,
       0.0f, c, 2);
  CHECK(c[0] == 7.0f);
  const PackedRhs packed = prepack_rhs(context, Layout::kRowMajor, Transpose::kNo, 2, 2, a, 2);
  float c2[4] = {0, 0, 0, 0};
  gemm(context, Layout::kRowMajor, Transpose::kNo, 2, 1.0f, a, 2, packed, 0.0f, c2, 2);
  CHECK(c2[3] == 22.0f);
  CHECK(plan_gemm(context, Dtype::kF32, Layout::kRowMajor, 2, 2, 2).workers == 1);
}
#endif

TEST_CASE("inventory lists gemm f32 and f64 for the naive family and every level") {
  const Context context = test::context_for(test::gemm::best_isa());
  const auto records = kernel_inventory(context);
  for (const char* dtype : {"f32", "f64"}) {
    CHECK(std::any_of(records.begin(), records.end(), [&](const KernelRecord& r) {
      return r.op == "gemm" && r.dtype == dtype && r.family == KernelFamily::kNaive;
    }));
    for (Isa isa : test::host_isas()) {
      CHECK(std::any_of(records.begin(), records.end(), [&](const KernelRecord& r) {
        return r.op == "gemm" && r.dtype == dtype && r.isa == isa &&
               r.family == KernelFamily::kOptimized && r.runnable;
      }));
    }
    CHECK(std::count_if(records.begin(), records.end(), [&](const KernelRecord& r) {
            return r.op == "gemm" && r.dtype == dtype && r.selected;
          }) == 1);
  }
}

}  // namespace
}  // namespace tessera
