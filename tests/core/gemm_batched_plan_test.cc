// The batch plan drives batched GEMM: try_plan_gemm_batched reports the plan
// a call resolves (core/src/parallel/batch_plan.hpp, whose rules are
// tests/core/batch_plan_test.cc's), and each of the three plans comes out of
// a real request; the bits of every one of them are checked in
// gemm_batched_repro_test.cc.
#include "tests/core/gemm_batched_test_util.hpp"

namespace tessera {
namespace {

GemmBatchedPlan plan(const Context& context, std::int64_t batch, std::int64_t mnk,
                     Parallelism parallelism) {
  GemmBatchedPlan out;
  const Status st =
      try_plan_gemm_batched(context, Dtype::kF32, batch, mnk, mnk, mnk, parallelism, &out);
  REQUIRE_MESSAGE(st.ok(), st.to_string());
  return out;
}

TEST_CASE("each batch plan is chosen by some request, and the plan says why") {
  // Width 8, serial gate at 2^16 (each 64^3 entry passes it).
  const Context context =
      test::gemm::context_with(test::gemm::best_isa(), test::gemm::wide_executor(8), 1 << 16);
  const GemmBatchedPlan serial = plan(context, 1000, 64, Parallelism::serial());
  CHECK(serial.kind == "serial");
  CHECK(serial.workers == 1);

  const GemmBatchedPlan many = plan(context, 1000, 64, Parallelism::threads(4));
  CHECK_MESSAGE(many.kind == "batch_parallel", many.to_string());
  CHECK(many.workers == 4);

  // Fewer entries than workers, each worth parallelising inside.
  const GemmBatchedPlan few = plan(context, 3, 128, Parallelism::threads(8));
  CHECK_MESSAGE(few.kind == "sequential_internal", few.to_string());
  CHECK(few.workers == 8);
  CHECK(!few.reason.empty());

  // Below the gate in total: serial.
  const GemmBatchedPlan tiny = plan(context, 2, 8, Parallelism());
  CHECK_MESSAGE(tiny.kind == "serial", tiny.to_string());
}

TEST_CASE("try_plan_gemm_batched rejects bad arguments by name") {
  const Context context = test::context_for(test::gemm::best_isa());
  GemmBatchedPlan out;
  CHECK(try_plan_gemm_batched(context, Dtype::kF32, -1, 2, 2, 2, {}, &out).message().find(
            "batch") != std::string::npos);
  CHECK(try_plan_gemm_batched(context, Dtype::kF64, 1, 2, -2, 2, {}, &out).message().find("n") !=
        std::string::npos);
  CHECK(try_plan_gemm_batched(context, static_cast<Dtype>(9), 1, 2, 2, 2, {}, &out)
            .message()
            .find("dtype") != std::string::npos);
  CHECK(!try_plan_gemm_batched(context, Dtype::kF32, 1, 2, 2, 2, {}, nullptr).ok());
}

}  // namespace
}  // namespace tessera
