// The operations of `tessera-cli reduce|softmax` on a SeededRows input, and
// the comparison with the naive family that --check and the selftest share.
// Header-only, public API only.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "reduce_seeded.hpp"

namespace tessera::cli {

enum class RowsOp { kSum, kMax, kMean, kArgmax, kSoftmax, kLogSoftmax };

inline const char* rows_op_name(RowsOp op) {
  switch (op) {
    case RowsOp::kSum: return "sum";
    case RowsOp::kMax: return "max";
    case RowsOp::kMean: return "mean";
    case RowsOp::kArgmax: return "argmax";
    case RowsOp::kSoftmax: return "softmax";
    case RowsOp::kLogSoftmax: return "log_softmax";
  }
  return "unknown";
}

inline bool parse_rows_op(std::string_view text, RowsOp* op) {
  for (RowsOp o : {RowsOp::kSum, RowsOp::kMax, RowsOp::kMean, RowsOp::kArgmax}) {
    if (text == rows_op_name(o)) {
      *op = o;
      return true;
    }
  }
  return false;
}

// One output buffer: `values` (rows for a reduction, rows * ld for softmax,
// padding kept) or `index` (argmax).
template <class T>
struct RowsOutput {
  std::vector<T> values;
  std::vector<std::int64_t> index;
  const void* data() const {
    return index.empty() ? static_cast<const void*>(values.data()) : index.data();
  }
  std::size_t bytes() const {
    return index.empty() ? values.size() * sizeof(T) : index.size() * sizeof(std::int64_t);
  }
};

template <class T>
RowsOutput<T> make_output(RowsOp op, const SeededRows<T>& in) {
  RowsOutput<T> out;
  const auto rows = static_cast<std::size_t>(in.rows);
  if (op == RowsOp::kArgmax) {
    out.index.assign(rows, -1);
  } else if (op == RowsOp::kSoftmax || op == RowsOp::kLogSoftmax) {
    out.values.assign(in.x.size(), T(0));
  } else {
    out.values.assign(rows, T(0));
  }
  return out;
}

template <class T>
Status run_rows(const Context& context, RowsOp op, const SeededRows<T>& in, RowsOutput<T>* out,
                Parallelism parallelism = {}) {
  switch (op) {
    case RowsOp::kSum:
    case RowsOp::kMax:
    case RowsOp::kMean: {
      const ReduceOp r = op == RowsOp::kSum   ? ReduceOp::kSum
                         : op == RowsOp::kMax ? ReduceOp::kMax
                                              : ReduceOp::kMean;
      return try_reduce(context, r, in.rows, in.cols, in.x.data(), in.ld, out->values.data(),
                        parallelism);
    }
    case RowsOp::kArgmax:
      return try_argmax(context, in.rows, in.cols, in.x.data(), in.ld, out->index.data(),
                        parallelism);
    case RowsOp::kSoftmax:
      return try_softmax(context, in.rows, in.cols, in.x.data(), in.ld, out->values.data(),
                         in.ld, parallelism);
    case RowsOp::kLogSoftmax:
      return try_log_softmax(context, in.rows, in.cols, in.x.data(), in.ld,
                             out->values.data(), in.ld, parallelism);
  }
  return Status::invalid_argument("unknown rows op");
}

// Elements of `got` outside the rounding bound around `want` (the naive
// family's long-double result): max and argmax exactly; sum and mean within
// (cols + 4) eps sum |x|; softmax within a relative (cols + 18) eps (the sum
// of positive terms, plus a few ulps of exp and the division) and
// log-softmax within that absolutely plus a few ulps of its terms.
template <class T>
std::size_t rows_mismatches(RowsOp op, const SeededRows<T>& in, const RowsOutput<T>& got,
                            const RowsOutput<T>& want, double* worst = nullptr) {
  const double eps = std::numeric_limits<T>::epsilon();
  std::size_t bad = 0;
  double worst_ratio = 0;
  auto compare = [&](double g, double w, double bound) {
    const bool ok = std::isnan(w) ? std::isnan(g)
                                  : (std::isinf(w) ? g == w : std::fabs(g - w) <= bound);
    if (!ok) ++bad;
    if (bound > 0 && std::isfinite(w)) {
      worst_ratio = std::max(worst_ratio, std::fabs(g - w) / bound);
    }
  };
  for (std::int64_t r = 0; r < in.rows; ++r) {
    const T* row = in.x.data() + r * in.ld;
    const auto ri = static_cast<std::size_t>(r);
    double magnitude = 0;
    for (std::int64_t j = 0; j < in.cols; ++j) magnitude += std::fabs(static_cast<double>(row[j]));
    const double sum_bound = static_cast<double>(in.cols + 4) * eps * magnitude +
                             std::numeric_limits<T>::denorm_min();
    switch (op) {
      case RowsOp::kArgmax:
        if (got.index[ri] != want.index[ri]) ++bad;
        break;
      case RowsOp::kMax:
        compare(got.values[ri], want.values[ri], 0);
        break;
      case RowsOp::kSum:
        compare(got.values[ri], want.values[ri], sum_bound);
        break;
      case RowsOp::kMean:
        compare(got.values[ri], want.values[ri],
                sum_bound / std::max<double>(1, static_cast<double>(in.cols)) +
                    2 * eps * std::fabs(static_cast<double>(want.values[ri])));
        break;
      case RowsOp::kSoftmax:
      case RowsOp::kLogSoftmax:
        for (std::int64_t j = 0; j < in.cols; ++j) {
          const auto i = static_cast<std::size_t>(r * in.ld + j);
          const double w = want.values[i];
          const double rel = 2 * static_cast<double>(in.cols + 18) * eps;
          const double bound = op == RowsOp::kSoftmax
                                   ? rel * std::fabs(w) + 4 * std::numeric_limits<T>::denorm_min()
                                   : rel + 8 * eps * std::fabs(w) + 8 * eps;
          compare(got.values[i], w, bound);
        }
        break;
    }
  }
  if (worst != nullptr) *worst = worst_ratio;
  return bad;
}

}  // namespace tessera::cli
