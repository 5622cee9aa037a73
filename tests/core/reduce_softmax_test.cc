// softmax and log-softmax along the last axis: against the independent
// reference (tests/core/reduce_test_util.hpp) and the naive family on the
// edge shapes and every level the host supports; PyTorch's special values;
// in place; bit-identical for every worker count.
#include <limits>
#include <memory>

#include "tests/core/gemm_test_util.hpp"
#include "tests/core/reduce_test_util.hpp"

namespace tessera {
namespace {

using test::reduce::RowShape;

Status run(const Context& context, bool log, const RowShape& s, const float* x, float* y,
           Parallelism p = {}) {
  return log ? try_log_softmax(context, s.rows, s.cols, x, s.ld(), y, s.ld(), p)
             : try_softmax(context, s.rows, s.cols, x, s.ld(), y, s.ld(), p);
}
Status run(const Context& context, bool log, const RowShape& s, const double* x, double* y,
           Parallelism p = {}) {
  return log ? try_log_softmax(context, s.rows, s.cols, x, s.ld(), y, s.ld(), p)
             : try_softmax(context, s.rows, s.cols, x, s.ld(), y, s.ld(), p);
}

// Every context (each level the host runs and the naive family) against
// one reference per shape and direction.
template <class T>
void check_shape(const std::vector<Context>& contexts, const RowShape& s) {
  // Logits in [-10, 10): exponentials over ~9 orders of magnitude.
  const std::vector<T> x = test::reduce::random_matrix<T>(s, 21 + s.rows + s.cols, 10.0);
  for (bool log : {false, true}) {
    const test::reduce::SoftmaxReference<T> reference = test::reduce::softmax_reference(log, s, x);
    for (const Context& context : contexts) {
      const std::string what =
          std::string(isa_name(context.isa())) + (sizeof(T) == 4 ? " f32" : " f64");
      // Padding between rows keeps its sentinel: softmax writes only the rows.
      std::vector<T> y(x.size(), T(-123));
      const Status status = run(context, log, s, x.data(), y.data());
      REQUIRE_MESSAGE(status.ok(), status.to_string());
      test::reduce::check_softmax(log, s, reference, y, what);
      // Counted, then checked once: an assertion per element was 2 million
      // of them, a fifth of the suite's time under qemu.
      std::int64_t padding_written = 0;
      for (std::int64_t r = 0; r < s.rows; ++r) {
        for (std::int64_t j = s.cols; j < s.ld(); ++j) {
          padding_written += y[static_cast<std::size_t>(r * s.ld() + j)] != T(-123);
        }
      }
      CHECK_MESSAGE(padding_written == 0, what, " ", s.describe());
      // In place: the same bits as out of place.
      std::vector<T> inplace = x;
      REQUIRE(run(context, log, s, inplace.data(), inplace.data()).ok());
      for (std::int64_t r = 0; r < s.rows; ++r) {
        const auto at = static_cast<std::size_t>(r * s.ld());
        CHECK_MESSAGE(std::memcmp(inplace.data() + at, y.data() + at, s.cols * sizeof(T)) == 0,
                      what, " in place ", s.describe(), " row ", r);
      }
    }
  }
}

TEST_CASE("softmax: matches the reference on edge shapes, every level, in place too") {
  std::vector<Context> contexts;
  for (Isa isa : test::host_isas()) contexts.push_back(test::context_for(isa));
  contexts.push_back(test::naive_context());
  for (const RowShape& s : test::reduce::edge_shapes(test::gemm::slow_target())) {
    check_shape<float>(contexts, s);
    check_shape<double>(contexts, s);
  }
}

template <class T>
void check_specials(const Context& context) {
  const T inf = std::numeric_limits<T>::infinity();
  const T nan = std::numeric_limits<T>::quiet_NaN();
  const std::string what = isa_name(context.isa());
  for (bool log : {false, true}) {
    // Row 0 fully masked (all -Inf): NaN everywhere, as torch.softmax.
    // Row 1 partly masked: exp(-Inf) = 0 (log: -Inf) there, the rest normal.
    // Row 2 holds +Inf: NaN everywhere (Inf - Inf), as torch.softmax.
    // Row 3 holds a NaN: NaN everywhere.
    // Row 4 huge logits: stable (no overflow), one-hot-like.
    const RowShape s{5, 6, 0};
    std::vector<T> x = {-inf, -inf, -inf, -inf, -inf, -inf,  //
                        T(1), -inf, T(2), -inf, T(3), -inf,  //
                        T(1), inf,  T(2), T(0), T(3), T(4),  //
                        T(1), T(2), nan,  T(0), T(3), T(4),  //
                        T(1000), T(0), T(-1000), T(999), T(1000), T(1)};
    std::vector<T> y(x.size());
    REQUIRE(run(context, log, s, x.data(), y.data()).ok());
    test::reduce::check_softmax(log, s, x, y, what);
    for (int j = 0; j < 6; ++j) {
      CHECK(std::isnan(y[static_cast<std::size_t>(j)]));
      CHECK(std::isnan(y[static_cast<std::size_t>(12 + j)]));
      CHECK(std::isnan(y[static_cast<std::size_t>(18 + j)]));
      CHECK_FALSE(std::isnan(y[static_cast<std::size_t>(6 + j)]));
      CHECK(std::isfinite(y[static_cast<std::size_t>(24 + j)]));
    }
    CHECK(y[7] == (log ? -inf : T(0)));
  }
}

TEST_CASE("softmax: masked rows, infinities and NaN as PyTorch, every level") {
  for (Isa isa : test::host_isas()) {
    const Context context = test::context_for(isa);
    check_specials<float>(context);
    check_specials<double>(context);
  }
  check_specials<float>(test::naive_context());
  check_specials<double>(test::naive_context());
}

TEST_CASE("softmax: bit-identical for 1, 2, 3, 4, 7 and 8 workers on every level") {
  const bool slow = test::gemm::slow_target();
  for (Isa isa : test::host_isas()) {
    ContextOptions options;
    options.isa = isa;
    options.read_environment = false;
    options.executor = test::gemm::wide_executor(8);
    options.knobs.gemv_parallel_bytes = 1;
    Context context;
    REQUIRE(Context::create(options, &context).ok());
    for (const RowShape& s : {RowShape{37, 129, 3}, RowShape{5, slow ? 5000 : 9001, 0}}) {
      const std::vector<float> x = test::reduce::random_matrix<float>(s, 77, 10.0);
      for (bool log : {false, true}) {
        std::vector<float> first(x.size());
        REQUIRE(run(context, log, s, x.data(), first.data(), Parallelism::threads(1)).ok());
        for (int w : {2, 3, 4, 7, 8}) {
          std::vector<float> got(x.size());
          REQUIRE(run(context, log, s, x.data(), got.data(), Parallelism::threads(w)).ok());
          CHECK_MESSAGE(test::reduce::same_bits(got, first), isa_name(isa), " ", s.describe(),
                        log ? " log" : "", " workers ", w);
        }
      }
    }
  }
}

}  // namespace
}  // namespace tessera
