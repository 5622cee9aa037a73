// The small-call paths (issue 41) run the kernel on the caller's operands
// without the drivers' general machinery; they must give the general
// path's bits. On every level (and the naive family, which the small paths
// leave to the general one), each small call is compared bit for bit with
// the same values computed through a form the small path does not take:
// a broadcast operand, a strided x, a second row, a vector past one block.
// Softmax's small path writes y in one pass per kernel, so it is checked in
// place as well.
// (The reduction kernels' own final pass over the lanes is checked by the
// reduce suites' NaN, zero and pinned-bits cases.)
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <span>
#include <vector>

#include "support/test_support.hpp"

namespace tessera {
namespace {

template <class T>
bool same_bits(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0;
}

TEST_CASE("small elementwise calls give the general path's bits") {
  for (const Context& c : test::contexts_under_test()) {
    INFO(test::level_label(c));
    for (std::size_t n : {1u, 7u, 16u, 65u, 1000u}) {
      INFO("n = " << n);
      const std::vector<float> a = test::random_f32(n, 11), b = test::random_f32(n, 12);
      std::vector<float> small(n), general(n);
      for (BinaryOp op : {BinaryOp::kAdd, BinaryOp::kMul, BinaryOp::kDiv, BinaryOp::kMax}) {
        REQUIRE(try_binary(c, op, Extent{1, n}, Operand<float>{a, Broadcast::kFull},
                           Operand<float>{b, Broadcast::kFull}, small)
                    .ok());
        // b as the row of a one-row broadcast: the general path's row walk.
        REQUIRE(try_binary(c, op, Extent{1, n}, Operand<float>{a, Broadcast::kFull},
                           Operand<float>{b, Broadcast::kRow}, general)
                    .ok());
        CHECK(same_bits(small, general));
        // The same-shape form (try_add(ctx, a, b, out) and friends).
        std::vector<float> same(n);
        REQUIRE(try_binary(c, op, std::span<const float>(a), std::span<const float>(b),
                           std::span<float>(same))
                    .ok());
        CHECK(same_bits(same, general));
      }
      // A unary op past one block (32768 elements) runs through the
      // general path; its first n elements are the small call's.
      std::vector<float> long_x(40000, 0.5f), long_y(40000);
      std::copy(a.begin(), a.end(), long_x.begin());
      for (UnaryOp op : {UnaryOp::kExp, UnaryOp::kRelu, UnaryOp::kTanh}) {
        REQUIRE(try_unary(c, op, a, small).ok());
        REQUIRE(try_unary(c, op, long_x, long_y).ok());
        CHECK(same_bits(small, std::vector<float>(long_y.begin(), long_y.begin() + n)));
      }
    }
  }
}

TEST_CASE("small reductions and gemv give the general path's bits") {
  for (const Context& c : test::contexts_under_test()) {
    INFO(test::level_label(c));
    for (std::int64_t n : {1, 5, 16, 33, 300}) {
      INFO("n = " << n);
      const auto count = static_cast<std::size_t>(n);
      std::vector<double> row(count);
      const std::vector<float> row_f32 = test::random_f32(count, 21);
      for (std::size_t i = 0; i < count; ++i) row[i] = row_f32[i] * (1.0 + 1e-9 * double(i));
      // The same row twice: two rows take the general path.
      std::vector<double> rows(row);
      rows.insert(rows.end(), row.begin(), row.end());
      for (ReduceOp op : {ReduceOp::kSum, ReduceOp::kMax, ReduceOp::kMean}) {
        double one = 0;
        double two[2] = {0, 0};
        REQUIRE(try_reduce(c, op, 1, n, row.data(), n, &one).ok());
        REQUIRE(try_reduce(c, op, 2, n, rows.data(), n, two).ok());
        CHECK(std::memcmp(&one, &two[0], sizeof one) == 0);
        CHECK(std::memcmp(&one, &two[1], sizeof one) == 0);
      }
      std::int64_t first = -1, both[2] = {-1, -1};
      REQUIRE(try_argmax(c, 1, n, row.data(), n, &first).ok());
      REQUIRE(try_argmax(c, 2, n, rows.data(), n, both).ok());
      CHECK(first == both[0]);
      CHECK(first == both[1]);
      // softmax and log-softmax, in place too.
      for (bool log : {false, true}) {
        std::vector<double> y_one(count), y_two(2 * count), in_place(row);
        auto run = [&](std::int64_t r, const double* x, double* y) {
          return log ? try_log_softmax(c, r, n, x, n, y, n) : try_softmax(c, r, n, x, n, y, n);
        };
        REQUIRE(run(1, row.data(), y_one.data()).ok());
        REQUIRE(run(2, rows.data(), y_two.data()).ok());
        REQUIRE(run(1, in_place.data(), in_place.data()).ok());
        CHECK(std::memcmp(y_one.data(), y_two.data(), count * sizeof(double)) == 0);
        CHECK(std::memcmp(y_one.data(), y_two.data() + count, count * sizeof(double)) == 0);
        CHECK(same_bits(y_one, in_place));
      }
      // gemv with x contiguous (small path) and strided (general path:
      // x packed first), both layouts and transposes.
      const std::vector<float> a = test::random_f32(count * 9, 22);
      const std::vector<float> x = test::random_f32(count, 23);
      std::vector<float> x_strided(2 * count);
      for (std::size_t i = 0; i < count; ++i) x_strided[2 * i] = x[i];
      for (Layout layout : {Layout::kRowMajor, Layout::kColMajor}) {
        for (Transpose t : {Transpose::kNo, Transpose::kYes}) {
          // op(A) is 9 x n: stored 9 x n (no transpose) or n x 9.
          const bool no_trans = t == Transpose::kNo;
          const std::int64_t m = no_trans ? 9 : n, cols = no_trans ? n : 9;
          const std::int64_t lda = layout == Layout::kRowMajor ? cols : m;
          std::vector<float> y_small(9, 1.0f), y_general(9, 1.0f);
          REQUIRE(try_gemv(c, layout, t, m, cols, 1.5f, a.data(), lda, x.data(), 1, 0.25f,
                           y_small.data(), 1)
                      .ok());
          REQUIRE(try_gemv(c, layout, t, m, cols, 1.5f, a.data(), lda, x_strided.data(), 2, 0.25f,
                           y_general.data(), 1)
                      .ok());
          CHECK(same_bits(y_small, y_general));
        }
      }
    }
  }
}

// gemv's rows form sums a row's lanes in one fixed order whatever the panel
// the row falls in (eight rows through a transpose tree on AVX-512, four,
// or one), and the small path's kernel writes y with the driver's epilogue.
// Each row of an m-row call must have the bits of the same row computed
// alone through the general path (a strided y).
template <class T>
void check_rows_alone(const Context& c, std::int64_t m, std::int64_t k, T beta) {
  const auto rows = static_cast<std::size_t>(m), depth = static_cast<std::size_t>(k);
  const std::int64_t lda = k + 3;
  std::vector<T> a(rows * static_cast<std::size_t>(lda)), x(depth), y(rows);
  const std::vector<float> ra = test::random_f32(a.size(), 31 + rows), rx = test::random_f32(depth, 32);
  const std::vector<float> ry = test::random_f32(rows, 33);
  for (std::size_t i = 0; i < a.size(); ++i) a[i] = T(ra[i]) * T(1 + 1e-7 * double(i % 13));
  for (std::size_t i = 0; i < depth; ++i) x[i] = T(rx[i]);
  // y and beta with full mantissas, so that beta * y is rounded (an
  // epilogue fused into one rounding would show).
  for (std::size_t i = 0; i < rows; ++i) y[i] = T(ry[i]) * T(1 + 1e-7 * double(i + 1));
  std::vector<T> all(y);
  REQUIRE(try_gemv(c, Layout::kRowMajor, Transpose::kNo, m, k, T(0.75), a.data(), lda, x.data(), 1,
                   beta, all.data(), 1)
              .ok());
  for (std::size_t i = 0; i < rows; ++i) {
    T alone[2] = {y[i], T(-9)};
    REQUIRE(try_gemv(c, Layout::kRowMajor, Transpose::kNo, 1, k, T(0.75),
                     a.data() + i * static_cast<std::size_t>(lda), lda, x.data(), 1, beta, alone, 2)
                .ok());
    CHECK_MESSAGE(std::memcmp(&alone[0], &all[i], sizeof(T)) == 0, "m = ", m, " k = ", k,
                  " row ", i, " beta ", double(beta), " f", 8 * sizeof(T));
  }
}

TEST_CASE("gemv: a row's bits do not depend on its panel or the rows around it") {
  for (const Context& c : test::contexts_under_test()) {
    INFO(test::level_label(c));
    for (std::int64_t m : {1, 3, 4, 5, 6, 7, 8, 9, 12, 13, 15, 16, 17, 24, 31}) {
      for (std::int64_t k : {1, 7, 8, 16, 17, 33, 70}) {
        check_rows_alone<float>(c, m, k, 0.0f);
        check_rows_alone<float>(c, m, k, -0.3f);
        check_rows_alone<double>(c, m, k, 0.0);
        check_rows_alone<double>(c, m, k, 0.3);
      }
    }
  }
}

// softmax of a row that fits one vector runs in one kernel call
// (ReduceSet::softmax_short); each row must have the bits of the three
// passes the general path (two rows) runs, in f32 and f64, for every width
// up to past the widest vector, with -inf elements, and with maxima the
// call leaves to the passes (a zero, +inf, NaN, every element -inf).
template <class T>
void check_softmax_rows(const Context& c) {
  const T inf = std::numeric_limits<T>::infinity(), nan = std::numeric_limits<T>::quiet_NaN();
  for (std::int64_t n = 1; n <= 17; ++n) {
    const auto count = static_cast<std::size_t>(n);
    const std::vector<float> r = test::random_f32(count, 40 + static_cast<std::uint64_t>(n));
    std::vector<T> plain(count);
    for (std::size_t i = 0; i < count; ++i) plain[i] = T(r[i]) * T(7) * T(1 + 1e-7 * double(i));
    auto with = [&](std::size_t i, T v) {
      std::vector<T> w = plain;
      w[i % count] = v;
      return w;
    };
    std::vector<T> zero_max(count);
    for (std::size_t i = 0; i < count; ++i) zero_max[i] = -std::abs(plain[i]);
    zero_max[count / 2] = T(0);
    const std::vector<std::vector<T>> cases = {
        plain, with(count / 2, -inf), with(0, inf), with(count - 1, nan), zero_max,
        std::vector<T>(count, -inf)};
    for (std::size_t k = 0; k < cases.size(); ++k) {
      const std::vector<T>& row = cases[k];
      std::vector<T> rows(row);
      rows.insert(rows.end(), row.begin(), row.end());
      std::vector<T> one(count), two(2 * count), in_place(row);
      REQUIRE(try_softmax(c, 1, n, row.data(), n, one.data(), n).ok());
      REQUIRE(try_softmax(c, 2, n, rows.data(), n, two.data(), n).ok());
      REQUIRE(try_softmax(c, 1, n, in_place.data(), n, in_place.data(), n).ok());
      CHECK_MESSAGE(std::memcmp(one.data(), two.data(), count * sizeof(T)) == 0, "n = ", n,
                    " case ", k, " f", 8 * sizeof(T));
      CHECK_MESSAGE(std::memcmp(one.data(), two.data() + count, count * sizeof(T)) == 0,
                    "n = ", n, " case ", k, " f", 8 * sizeof(T));
      CHECK_MESSAGE(same_bits(one, in_place), "n = ", n, " case ", k, " f", 8 * sizeof(T));
    }
  }
}

TEST_CASE("softmax: a row of one vector gives the three passes' bits") {
  for (const Context& c : test::contexts_under_test()) {
    INFO(test::level_label(c));
    check_softmax_rows<float>(c);
    check_softmax_rows<double>(c);
  }
}

}  // namespace
}  // namespace tessera
