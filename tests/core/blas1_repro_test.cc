// The reproducibility contract for dot and gemv (design.md §Reproducibility): the output of 2,
// 3, 4, 7 and 8 workers equals the single worker's bit for bit, on an
// executor of width 8 (real threads natively, reverse-order participants
// elsewhere), on every level the host supports. The parallel floor is set
// to 1 byte so that test-sized problems really split; the test checks that
// most runs did.
#include <atomic>
#include <memory>

#include "core/src/base/context_state.hpp"
#include "support/counting_executor.hpp"
#include "support/test_support.hpp"
#include "tests/core/blas1_test_util.hpp"
#include "tests/core/gemm_test_util.hpp"

namespace tessera {
namespace {

using test::blas1::GemvShape;

using test::kWorkerCounts;

using test::CountingExecutor;
using test::split_context;

template <class T>
void check_dot_bits(const Context& context, std::int64_t n, std::int64_t incx, std::int64_t incy) {
  const std::vector<T> x = test::blas1::random_vec<T>(test::blas1::buffer_len(n, incx), n);
  const std::vector<T> y = test::blas1::random_vec<T>(test::blas1::buffer_len(n, incy), n + 5);
  T first = 0;
  REQUIRE(try_dot(context, n, x.data(), incx, y.data(), incy, &first, Parallelism::threads(1)).ok());
  for (int w : kWorkerCounts) {
    T got = 0;
    REQUIRE(try_dot(context, n, x.data(), incx, y.data(), incy, &got, Parallelism::threads(w)).ok());
    CHECK_MESSAGE(std::memcmp(&got, &first, sizeof(T)) == 0, isa_name(context.isa()),
                  " dot n=", n, " incx=", incx, " incy=", incy, " workers ", w);
  }
  // Automatic parallelism too.
  T automatic = 0;
  REQUIRE(try_dot(context, n, x.data(), incx, y.data(), incy, &automatic).ok());
  CHECK(std::memcmp(&automatic, &first, sizeof(T)) == 0);
}

TEST_CASE("dot: bit-identical for 1, 2, 3, 4, 7 and 8 workers on every level") {
  const bool slow = test::gemm::slow_target();
  for (Isa isa : test::host_isas()) {
    auto counter = std::make_shared<CountingExecutor>(test::gemm::wide_executor(8));
    const Context context = split_context(isa, counter);
    for (std::int64_t n : {4097, 3 * 4096 + 1, 9 * 4096 - 3, slow ? 20000 : 100003}) {
      check_dot_bits<float>(context, n, 1, 1);
      check_dot_bits<double>(context, n, 1, 1);
      check_dot_bits<float>(context, n, -2, 3);
    }
    // 4 sizes x 3 calls x 5 worker counts > 1, plus automatic ones.
    CHECK_MESSAGE(counter->multi_runs() >= 60, counter->multi_runs(), " split runs");
  }
}

template <class T>
void check_gemv(const Context& context, const GemvShape& s, std::uint64_t seed) {
  const test::blas1::GemvOperands<T> o = test::blas1::make_gemv<T>(s, seed);
  std::vector<T> first;
  REQUIRE(test::blas1::run_gemv(context, s, o, &first, Parallelism::threads(1)).ok());
  for (int w : kWorkerCounts) {
    std::vector<T> y;
    REQUIRE(test::blas1::run_gemv(context, s, o, &y, Parallelism::threads(w)).ok());
    CHECK_MESSAGE(test::blas1::same_bits(first, y), isa_name(context.isa()), " workers ", w,
                  ": ", s.describe());
  }
}

TEST_CASE("gemv: bit-identical for 1, 2, 3, 4, 7 and 8 workers on every level") {
  for (Isa isa : test::host_isas()) {
    auto counter = std::make_shared<CountingExecutor>(test::gemm::wide_executor(8));
    const Context context = split_context(isa, counter);
    test::Rng rng(4000 + static_cast<int>(isa));
    for (int i = 0; i < 48; ++i) {
      GemvShape s;
      s.layout = rng.uniform_int(0, 1) ? Layout::kColMajor : Layout::kRowMajor;
      s.trans = rng.uniform_int(0, 1) ? Transpose::kYes : Transpose::kNo;
      const std::int64_t primes[] = {1, 2, 3, 5, 17, 41, 67, 97, 131, 257, 1031};
      s.m = primes[rng.uniform_int(0, 10)];
      s.n = i % 3 == 0 ? primes[rng.uniform_int(0, 10)] : rng.uniform_int(40, 300);
      s.lda_pad = rng.uniform_int(0, 2) == 0 ? rng.uniform_int(1, 9) : 0;
      s.incx = rng.uniform_int(0, 3) == 0 ? -2 : 1;
      s.incy = rng.uniform_int(0, 3) == 0 ? -3 : 1;
      s.alpha = i % 4 == 0 ? -1.25 : 1.0;
      s.beta = i % 3 == 0 ? 0.0 : 0.5;
      if (i % 2 == 0) {
        check_gemv<float>(context, s, 100 + i);
      } else {
        check_gemv<double>(context, s, 100 + i);
      }
    }
    // Most shapes have y of 40+ rows: most of their runs must really split.
    CHECK_MESSAGE(counter->multi_runs() >= 100, "only ", counter->multi_runs(), " split runs");
  }
}

}  // namespace
}  // namespace tessera

namespace tessera {
namespace {

// The bandwidth resolver drives the split (design.md §Bandwidth resolver): below the parallel
// floor a call is serial even for threads(n); above it, automatic
// parallelism splits.
TEST_CASE("dot and gemv: serial below the parallel floor, split above it") {
  auto counter = std::make_shared<CountingExecutor>(test::gemm::wide_executor(8));
  ContextOptions options;
  options.read_environment = false;
  options.executor = counter;
  options.knobs.gemv_parallel_bytes = 1 << 20;
  Context context;
  REQUIRE(Context::create(options, &context).ok());
  // 2 x 64 Ki floats = 512 KiB touched: below the 1 MiB floor.
  const std::vector<float> x = test::blas1::random_vec<float>(1 << 17, 1);
  float r = 0;
  REQUIRE(try_dot(context, 1 << 16, x.data(), 1, x.data() + (1 << 16), 1, &r,
                  Parallelism::threads(8))
              .ok());
  CHECK(counter->multi_runs() == 0);
  // 2 x 128 Ki floats = 1 MiB: at the floor, automatic splits.
  REQUIRE(try_dot(context, 1 << 17, x.data(), 1, x.data(), 1, &r).ok());
  CHECK(counter->multi_runs() == 1);
  // gemv 512 x 512 f32 = 1 MiB of A: splits; 128 x 128 does not.
  const std::vector<float> a = test::blas1::random_vec<float>(512 * 512, 2);
  std::vector<float> y(512);
  REQUIRE(try_gemv(context, Layout::kRowMajor, Transpose::kNo, 128, 128, 1.0f, a.data(), 128,
                   x.data(), 1, 0.0f, y.data(), 1)
              .ok());
  CHECK(counter->multi_runs() == 1);
  REQUIRE(try_gemv(context, Layout::kColMajor, Transpose::kNo, 512, 512, 1.0f, a.data(), 512,
                   x.data(), 1, 0.0f, y.data(), 1)
              .ok());
  CHECK(counter->multi_runs() == 2);
}

}  // namespace
}  // namespace tessera
