// The reproducibility contract for the last-axis reductions and softmax
// (design.md §Reproducibility): the output of 2, 3, 4, 7 and 8 workers equals the single
// worker's bit for bit, on an executor of width 8 (real threads natively,
// reverse-order participants elsewhere), on every level the host supports.
// The parallel floor is 1 byte so that test-sized problems really split
// (rows across workers, and the blocks of long rows); the test checks that
// most runs did.
#include <atomic>
#include <memory>

#include "support/counting_executor.hpp"
#include "support/test_support.hpp"
#include "tests/core/gemm_test_util.hpp"
#include "tests/core/reduce_test_util.hpp"

namespace tessera {
namespace {

using test::reduce::RowShape;

using test::kWorkerCounts;

using test::CountingExecutor;
using test::split_context;

// Every output of `call(workers, out)` equals the 1-worker output bit for bit.
template <class Out, class Call>
void check_workers(const std::string& what, std::size_t len, Call call) {
  std::vector<Out> first(len);
  REQUIRE(call(Parallelism::threads(1), first.data()).ok());
  for (int w : kWorkerCounts) {
    std::vector<Out> got(len);
    REQUIRE(call(Parallelism::threads(w), got.data()).ok());
    CHECK_MESSAGE(test::reduce::same_bits(got, first), what, " workers ", w);
  }
  std::vector<Out> automatic(len);
  REQUIRE(call(Parallelism(), automatic.data()).ok());
  CHECK_MESSAGE(test::reduce::same_bits(automatic, first), what, " automatic");
}

template <class T>
void check_reductions(const Context& context, const RowShape& s) {
  const std::vector<T> x = test::reduce::random_matrix<T>(s, 3 + s.cols);
  const std::string what = std::string(isa_name(context.isa())) + " " + s.describe();
  const auto rows = static_cast<std::size_t>(s.rows);
  for (ReduceOp op : {ReduceOp::kSum, ReduceOp::kMax, ReduceOp::kMean}) {
    check_workers<T>(what + " " + reduce_op_name(op), rows, [&](Parallelism p, T* out) {
      return try_reduce(context, op, s.rows, s.cols, x.data(), s.ld(), out, p);
    });
  }
  check_workers<std::int64_t>(what + " argmax", rows, [&](Parallelism p, std::int64_t* out) {
    return try_argmax(context, s.rows, s.cols, x.data(), s.ld(), out, p);
  });
}

TEST_CASE("reduce: bit-identical for 1, 2, 3, 4, 7 and 8 workers on every level") {
  const bool slow = test::gemm::slow_target();
  for (Isa isa : test::host_isas()) {
    auto counter = std::make_shared<CountingExecutor>(test::gemm::wide_executor(8));
    const Context context = split_context(isa, counter);
    // Many short rows (rows split), few long rows (blocks split), a single
    // row of many blocks.
    const RowShape shapes[] = {{37, 129, 3}, {3, 3 * 4096 + 17, 0}, {1, slow ? 20000 : 100003, 0}};
    for (const RowShape& s : shapes) {
      check_reductions<float>(context, s);
      check_reductions<double>(context, s);
    }
    // 3 shapes x 2 dtypes x 4 calls x 5 worker counts > 1 (the 1-row
    // argmax scan is serial but its max is not).
    CHECK_MESSAGE(counter->multi_runs() >= 100, counter->multi_runs(), " split runs");
  }
}

}  // namespace
}  // namespace tessera
