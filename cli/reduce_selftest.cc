#include "reduce_selftest.hpp"

#include <cstdio>

#include "reduce_rows.hpp"

namespace tessera::cli {
namespace {

template <class T>
std::size_t mismatches(RowsOp op, const Context& naive, const Context& context) {
  const std::int64_t shapes[][2] = {{1, 1}, {3, 7}, {17, 67}, {2, 4097}, {1, 9001}};
  std::size_t bad = 0;
  for (const auto& shape : shapes) {
    const SeededRows<T> in(shape[0], shape[1], 5);
    RowsOutput<T> want = make_output(op, in), got = make_output(op, in);
    if (!run_rows(naive, op, in, &want).ok() || !run_rows(context, op, in, &got).ok()) {
      ++bad;
      continue;
    }
    bad += rows_mismatches(op, in, got, want);
  }
  return bad;
}

}  // namespace

void selftest_reduce(const Context& naive, const Context& context, int* passes, int* failures) {
  for (RowsOp op : {RowsOp::kSum, RowsOp::kMax, RowsOp::kMean, RowsOp::kArgmax,
                    RowsOp::kSoftmax, RowsOp::kLogSoftmax}) {
    for (int f64 = 0; f64 < 2; ++f64) {
      const std::size_t bad = f64 ? mismatches<double>(op, naive, context)
                                  : mismatches<float>(op, naive, context);
      std::printf("%s %-11s %s %-8s\n", bad == 0 ? "PASS" : "FAIL", rows_op_name(op),
                  f64 ? "f64" : "f32", isa_name(context.isa()));
      (bad == 0 ? *passes : *failures) += 1;
    }
  }
}

}  // namespace tessera::cli
