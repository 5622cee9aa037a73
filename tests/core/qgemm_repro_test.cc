// The integer GEMM's reproducibility (design.md §Reproducibility), stronger
// than f32's: integer sums do not depend on their order, so every level,
// target and worker count gives the same bits. Tested here for worker
// counts 1, 2, 3, 4, 7 and 8 on an executor of width 8 and on the
// context's own pool, for all three output stages, with B as stored and
// prepacked; the cross-target pins are in qgemm_portable_bits_test.cc.
#include "core/src/base/context_state.hpp"
#include "support/test_support.hpp"
#include "tests/core/gemm_test_util.hpp"
#include "tests/core/qgemm_test_util.hpp"

namespace tessera {
namespace {

using test::kWorkerCounts;
using test::qgemm::QOperands;
using test::qgemm::QShape;

std::vector<QShape> shapes() {
  const bool slow = test::gemm::slow_target();
  std::vector<QShape> out;
  test::Rng rng(77);
  for (int i = 0; i < (slow ? 12 : 40); ++i) {
    QShape s;
    s.layout = rng.uniform_int(0, 1) ? Layout::kColMajor : Layout::kRowMajor;
    s.ta = rng.uniform_int(0, 1) ? Transpose::kYes : Transpose::kNo;
    s.tb = rng.uniform_int(0, 1) ? Transpose::kYes : Transpose::kNo;
    s.m = rng.uniform_int(1, slow ? 40 : 150);
    s.n = rng.uniform_int(1, slow ? 90 : 300);
    s.k = rng.uniform_int(0, slow ? 100 : 400);
    s.a_type = rng.uniform_int(0, 1) ? IntType::kS8 : IntType::kU8;
    s.b_type = rng.uniform_int(0, 3) == 0 ? IntType::kU8 : IntType::kS8;
    s.per_column = rng.uniform_int(0, 1) == 1;
    s.beta = static_cast<std::int32_t>(rng.uniform_int(0, 1));
    out.push_back(s);
  }
  return out;
}

// The three output stages' bytes for one call.
std::vector<std::uint8_t> outputs(const Context& context, const QShape& s, const QOperands& o,
                                  const PackedIntRhs* packed, Parallelism parallelism) {
  std::vector<std::int32_t> c = o.c0;
  std::vector<std::uint8_t> y(std::max<std::size_t>(1, s.c_len()), 0);
  std::vector<float> f(std::max<std::size_t>(1, s.c_len()), 0.0f);
  const IntMatrix a = test::qgemm::a_matrix(s, o), b = test::qgemm::b_matrix(s, o);
  const QuantParams qa = test::qgemm::a_quant(o), qb = test::qgemm::b_quant(s, o);
  const QuantParams qy = QuantParams::per_tensor(3, 0.5f);
  GemmEpilogue<float> ep;
  ep.activation = Activation::kGelu;
  if (packed != nullptr) {
    REQUIRE(try_gemm_integer(context, s.layout, s.m, s.n, s.k, a, qa, *packed, qb, s.beta,
                             c.data(), s.ldc(), parallelism).ok());
    REQUIRE(try_qlinear_gemm(context, s.layout, s.m, s.n, s.k, a, qa, *packed, qb, IntType::kS8,
                             qy, y.data(), s.ldc(), parallelism).ok());
    REQUIRE(try_gemm_integer_to_f32(context, s.layout, s.m, s.n, s.k, a, qa, *packed, qb, f.data(),
                                    s.ldc(), ep, parallelism).ok());
  } else {
    REQUIRE(try_gemm_integer(context, s.layout, s.m, s.n, s.k, a, qa, b, qb, s.beta, c.data(),
                             s.ldc(), parallelism).ok());
    REQUIRE(try_qlinear_gemm(context, s.layout, s.m, s.n, s.k, a, qa, b, qb, IntType::kS8, qy,
                             y.data(), s.ldc(), parallelism).ok());
    REQUIRE(try_gemm_integer_to_f32(context, s.layout, s.m, s.n, s.k, a, qa, b, qb, f.data(),
                                    s.ldc(), ep, parallelism).ok());
  }
  std::vector<std::uint8_t> bytes(c.size() * 4 + y.size() + f.size() * 4);
  std::memcpy(bytes.data(), c.data(), c.size() * 4);
  std::memcpy(bytes.data() + c.size() * 4, y.data(), y.size());
  std::memcpy(bytes.data() + c.size() * 4 + y.size(), f.data(), f.size() * 4);
  return bytes;
}

// Every shape's outputs at each worker count equal the one-worker outputs;
// returns how many runs used more than one worker.
int check_context(const Context& context, int max_workers, bool prepacked) {
  int multi = 0, index = 0;
  for (const QShape& s : shapes()) {
    const QOperands o = test::qgemm::make_operands(s, 1000 + index++);
    PackedIntRhs packed;
    if (prepacked) {
      REQUIRE(try_prepack_integer_rhs(context, s.layout, s.k, s.n, test::qgemm::b_matrix(s, o),
                                      &packed).ok());
    }
    const PackedIntRhs* pb = prepacked ? &packed : nullptr;
    const std::vector<std::uint8_t> one = outputs(context, s, o, pb, Parallelism::threads(1));
    for (int w : kWorkerCounts) {
      if (w == 1 || w > max_workers) continue;
      IntGemmPlan plan;
      REQUIRE(try_plan_gemm_integer(context, s.m, s.n, s.k, Parallelism::threads(w), &plan).ok());
      if (plan.workers > 1) ++multi;
      CHECK_MESSAGE(outputs(context, s, o, pb, Parallelism::threads(w)) == one,
                    isa_name(context.isa()), " workers ", w, " (plan ", plan.workers, ") ",
                    prepacked ? "prepacked " : "", s.describe());
    }
  }
  return multi;
}

TEST_CASE("integer gemm: the same bits for 1, 2, 3, 4, 7 and 8 workers, every level") {
  for (Isa isa : test::host_isas()) {
    const Context context = test::gemm::context_with(isa, test::gemm::wide_executor(8));
    const int multi = check_context(context, 8, false) + check_context(context, 8, true);
    CHECK_MESSAGE(multi > 0, isa_name(isa), ": no run used more than one worker");
  }
}

TEST_CASE("integer gemm: the same bits on the context's own pool") {
  const Context context = test::own_pool_context_8();
  const int width = context.state()->executor->width();
  const int multi = check_context(context, width, false);
  MESSAGE("context pool width ", width, ": ", multi, " multi-worker runs");
  if (TESSERA_TEST_HAS_THREADS) CHECK(multi > 0);
}

TEST_CASE("integer gemm: every level gives the naive family's bits") {
  const Context naive = test::naive_context();
  int index = 0;
  for (const QShape& s : shapes()) {
    const QOperands o = test::qgemm::make_operands(s, 5000 + index++);
    const std::vector<std::uint8_t> want = outputs(naive, s, o, nullptr, Parallelism::serial());
    for (Isa isa : test::host_isas()) {
      const std::vector<std::uint8_t> got =
          outputs(test::context_for(isa), s, o, nullptr, Parallelism::serial());
      // int32 and requantized bytes equal exactly; the float stage's gelu is
      // the scalar level's vmath, the naive family's is long double libm:
      // compare only the integer stages here.
      const std::size_t int_bytes = std::max<std::size_t>(1, s.c_len()) * 5;
      CHECK_MESSAGE(std::equal(got.begin(), got.begin() + static_cast<std::ptrdiff_t>(int_bytes),
                               want.begin()),
                    isa_name(isa), " ", s.describe());
    }
  }
}

}  // namespace
}  // namespace tessera
