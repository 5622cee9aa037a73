// Helpers of the last-axis reduction and softmax suites: strided row-major
// inputs and an independent reference (long double, plain loops written
// from the definitions, not from tessera's code), with rounding bounds.
#pragma once

#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "support/test_support.hpp"
#include "tests/core/gemm_test_util.hpp"
#include "tessera/tessera.hpp"

namespace tessera::test::reduce {

struct RowShape {
  std::int64_t rows = 0, cols = 0, ld_pad = 0;
  std::int64_t ld() const { return std::max<std::int64_t>(1, cols) + ld_pad; }
  std::size_t len() const { return static_cast<std::size_t>(rows * ld()); }
  std::string describe() const {
    return "rows=" + std::to_string(rows) + " cols=" + std::to_string(cols) +
           " ld=" + std::to_string(ld());
  }
};

// The edge shapes: 0, 1, primes, non-multiples of every vector width, rows
// longer than one 4096-element block (and ending inside one), large leading
// dimensions.
inline std::vector<RowShape> edge_shapes(bool slow) {
  std::vector<RowShape> shapes;
  for (std::int64_t cols : {0, 1, 2, 3, 5, 7, 13, 16, 17, 31, 64, 67, 127, 4096, 4097, 8195}) {
    for (std::int64_t rows : {0, 1, 3, 17}) {
      if (slow && cols > 4096 && rows > 3) continue;
      shapes.push_back({rows, cols, 0});
      if (rows > 1) shapes.push_back({rows, cols, cols % 2 == 0 ? 5 : 1000});
    }
  }
  if (!slow) shapes.push_back({2, 3 * 4096 + 1, 3});
  return shapes;
}

// check<float> and check<double> (context, naive, shape) for every level
// the host runs and every edge shape (fewer on slow targets).
template <class Check>
void on_levels_and_edge_shapes(Check&& check) {
  const bool slow = test::gemm::slow_target();
  const Context naive = test::naive_context();
  for (Isa isa : test::host_isas()) {
    const Context context = test::context_for(isa);
    for (const RowShape& s : edge_shapes(slow)) check(context, naive, s);
  }
}

template <class T>
std::vector<T> random_matrix(const RowShape& s, std::uint64_t seed, double scale = 1.0) {
  test::Rng rng(seed);
  std::vector<T> v(s.len());
  for (T& e : v) e = static_cast<T>(scale * rng.uniform_f64(-1.0, 1.0));
  return v;
}

template <class T>
const T* row_of(const RowShape& s, const std::vector<T>& x, std::int64_t r) {
  return x.data() + r * s.ld();
}

// Row r's sum in long double and sum of magnitudes.
template <class T>
void exact_sum(const T* row, std::int64_t cols, long double* sum, long double* magnitude) {
  *sum = 0;
  *magnitude = 0;
  for (std::int64_t j = 0; j < cols; ++j) {
    *sum += row[j];
    *magnitude += std::fabs(static_cast<long double>(row[j]));
  }
}

// NumPy's argmax: the first NaN, else the first element none exceeds.
template <class T>
std::int64_t first_max(const T* row, std::int64_t cols) {
  std::int64_t best = 0;
  for (std::int64_t j = 0; j < cols; ++j) {
    if (row[j] != row[j]) return j;
    if (row[j] > row[best]) best = j;
  }
  return best;
}

// Checks out (rows values of op) against the reference: max exactly (NaN
// for NaN), sum and mean within (cols + 4) eps sum|x|.
template <class T>
void check_reduce(ReduceOp op, const RowShape& s, const std::vector<T>& x,
                  const std::vector<T>& out, const std::string& what) {
  const long double eps = std::numeric_limits<T>::epsilon();
  int bad = 0;
  for (std::int64_t r = 0; r < s.rows; ++r) {
    const T* row = row_of(s, x, r);
    const T got = out[static_cast<std::size_t>(r)];
    if (op == ReduceOp::kMax) {
      const T want = row[first_max(row, s.cols)];
      const bool ok = want != want ? got != got : got == want;
      if (!ok && bad++ < 3) {
        FAIL_CHECK(what, " max ", s.describe(), " row ", r, ": ", got, " want ", want);
      }
      continue;
    }
    long double sum = 0, magnitude = 0;
    exact_sum(row, s.cols, &sum, &magnitude);
    long double want = sum, bound = (s.cols + 4) * eps * magnitude;
    if (op == ReduceOp::kMean) {
      if (s.cols == 0) {
        if (got == got && bad++ < 3) FAIL_CHECK(what, " mean of an empty row is ", got);
        continue;
      }
      want = sum / s.cols;
      bound = bound / s.cols + 2 * eps * std::fabs(want);
    }
    bound += std::numeric_limits<T>::denorm_min();
    // Infinities and NaN are exact results: the same class, not a distance.
    const bool ok = std::isfinite(want)
                        ? std::fabs(static_cast<long double>(got) - want) <= bound
                        : (std::isnan(want) ? std::isnan(got) : got == want);
    if (!ok && bad++ < 3) {
      FAIL_CHECK(what, " ", reduce_op_name(op), " ", s.describe(), " row ", r, ": ",
                 static_cast<double>(got), " want ", static_cast<double>(want), " +- ",
                 static_cast<double>(bound));
    }
  }
}

// softmax / log-softmax reference per element, with a bound: the sum of
// exponentials carries at most (cols + 2) eps relative error, and each exp
// and log a few ulps (16 eps covers the vector exp's documented error).
// Computed in double for f32 (its own error is 2^-29 of the bound) and in
// long double for f64. Long double is software quad on aarch64, so the
// suite computes a shape's reference once and checks every level against
// it (under qemu the reference was most of the suite's time).
template <class T>
struct SoftmaxReference {
  using Ref = std::conditional_t<sizeof(T) == 4, double, long double>;
  std::vector<Ref> want, bound;  // row-major, cols per row (no padding)
};

template <class T>
SoftmaxReference<T> softmax_reference(bool log, const RowShape& s, const std::vector<T>& x) {
  using Ref = typename SoftmaxReference<T>::Ref;
  const Ref eps = std::numeric_limits<T>::epsilon();
  SoftmaxReference<T> ref;
  ref.want.resize(static_cast<std::size_t>(s.rows * s.cols));
  ref.bound.resize(ref.want.size());
  for (std::int64_t r = 0; r < s.rows && s.cols > 0; ++r) {
    const T* row = row_of(s, x, r);
    const Ref m = row[first_max(row, s.cols)];
    Ref sum = 0;
    for (std::int64_t j = 0; j < s.cols; ++j) sum += std::exp(static_cast<Ref>(row[j]) - m);
    const Ref log_sum = std::log(sum);
    const Ref rel = static_cast<Ref>(s.cols + 2 + 16) * eps;
    for (std::int64_t j = 0; j < s.cols; ++j) {
      const auto at = static_cast<std::size_t>(r * s.cols + j);
      const Ref shifted = static_cast<Ref>(row[j]) - m;
      if (log) {
        ref.want[at] = shifted - log_sum;
        ref.bound[at] = rel + 4 * eps * (std::fabs(shifted) + std::fabs(ref.want[at])) + 4 * eps;
      } else {
        ref.want[at] = std::exp(shifted) / sum;
        ref.bound[at] =
            2 * rel * ref.want[at] + static_cast<Ref>(std::numeric_limits<T>::denorm_min()) * 4;
      }
    }
  }
  return ref;
}

template <class T>
void check_softmax(bool log, const RowShape& s, const SoftmaxReference<T>& ref,
                   const std::vector<T>& y, const std::string& what) {
  using Ref = typename SoftmaxReference<T>::Ref;
  int bad = 0;
  for (std::int64_t r = 0; r < s.rows; ++r) {
    for (std::int64_t j = 0; j < s.cols; ++j) {
      const auto at = static_cast<std::size_t>(r * s.cols + j);
      const Ref want = ref.want[at], bound = ref.bound[at];
      const Ref got = y[static_cast<std::size_t>(r * s.ld() + j)];
      const bool ok = std::isnan(want)   ? std::isnan(got)
                       : std::isinf(want) ? got == want
                                          : std::fabs(got - want) <= bound;
      if (!ok && bad++ < 3) {
        FAIL_CHECK(what, log ? " log_softmax " : " softmax ", s.describe(), " (", r, ", ", j,
                   "): ", static_cast<double>(got), " want ", static_cast<double>(want), " +- ",
                   static_cast<double>(bound));
      }
    }
  }
}

template <class T>
void check_softmax(bool log, const RowShape& s, const std::vector<T>& x, const std::vector<T>& y,
                   const std::string& what) {
  check_softmax(log, s, softmax_reference(log, s, x), y, what);
}

template <class T>
bool same_bits(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() &&
         (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

}  // namespace tessera::test::reduce
