#include "core/src/reduce/reduce_naive.hpp"

#include <cmath>
#include <limits>

namespace tessera::core::naive {
namespace {

// The row's maximum and its first index, NumPy's rule: the first NaN wins,
// else the first element no later one exceeds. cols > 0.
template <class T>
std::int64_t argmax_row(const T* row, std::int64_t cols) {
  std::int64_t best = 0;
  for (std::int64_t j = 0; j < cols; ++j) {
    if (std::isnan(row[j])) return j;
    if (row[j] > row[best]) best = j;
  }
  return best;
}

template <class T>
void reduce(ReduceOp op, std::int64_t rows, std::int64_t cols, const T* x, std::int64_t ldx,
            T* out) {
  for (std::int64_t r = 0; r < rows; ++r) {
    const T* row = x + r * ldx;
    if (op == ReduceOp::kMax) {
      // IEEE maximum: +0 is larger than -0, whichever comes first.
      T m = row[argmax_row(row, cols)];
      if (m == T(0) && std::signbit(m)) {
        for (std::int64_t j = 0; j < cols; ++j) {
          if (row[j] == T(0) && !std::signbit(row[j])) m = T(0);
        }
      }
      out[r] = m;
      continue;
    }
    long double sum = 0.0L;
    for (std::int64_t j = 0; j < cols; ++j) sum += static_cast<long double>(row[j]);
    if (op == ReduceOp::kMean) {
      out[r] = cols == 0 ? std::numeric_limits<T>::quiet_NaN()
                         : static_cast<T>(sum / static_cast<long double>(cols));
    } else {
      out[r] = static_cast<T>(sum);
    }
  }
}

template <class T>
void argmax(std::int64_t rows, std::int64_t cols, const T* x, std::int64_t ldx,
            std::int64_t* out) {
  for (std::int64_t r = 0; r < rows; ++r) out[r] = argmax_row(x + r * ldx, cols);
}

// Element j is read before y's element j is written, so y may be x.
template <class T>
void softmax(bool log, std::int64_t rows, std::int64_t cols, const T* x, std::int64_t ldx,
             T* y, std::int64_t ldy) {
  for (std::int64_t r = 0; r < rows; ++r) {
    if (cols == 0) continue;
    const T* row = x + r * ldx;
    T* out = y + r * ldy;
    const long double m = static_cast<long double>(row[argmax_row(row, cols)]);
    long double sum = 0.0L;
    for (std::int64_t j = 0; j < cols; ++j) {
      sum += std::exp(static_cast<long double>(row[j]) - m);
    }
    const long double log_sum = std::log(sum);
    for (std::int64_t j = 0; j < cols; ++j) {
      const long double shifted = static_cast<long double>(row[j]) - m;
      out[j] = static_cast<T>(log ? shifted - log_sum : std::exp(shifted) / sum);
    }
  }
}

}  // namespace

void reduce_f32(ReduceOp op, std::int64_t rows, std::int64_t cols, const float* x,
                std::int64_t ldx, float* out) {
  reduce(op, rows, cols, x, ldx, out);
}
void reduce_f64(ReduceOp op, std::int64_t rows, std::int64_t cols, const double* x,
                std::int64_t ldx, double* out) {
  reduce(op, rows, cols, x, ldx, out);
}
void argmax_f32(std::int64_t rows, std::int64_t cols, const float* x, std::int64_t ldx,
                std::int64_t* out) {
  argmax(rows, cols, x, ldx, out);
}
void argmax_f64(std::int64_t rows, std::int64_t cols, const double* x, std::int64_t ldx,
                std::int64_t* out) {
  argmax(rows, cols, x, ldx, out);
}
void softmax_f32(bool log, std::int64_t rows, std::int64_t cols, const float* x,
                 std::int64_t ldx, float* y, std::int64_t ldy) {
  softmax(log, rows, cols, x, ldx, y, ldy);
}
void softmax_f64(bool log, std::int64_t rows, std::int64_t cols, const double* x,
                 std::int64_t ldx, double* y, std::int64_t ldy) {
  softmax(log, rows, cols, x, ldx, y, ldy);
}

}  // namespace tessera::core::naive
