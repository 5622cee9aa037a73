// The C API's last-axis reductions and softmax (declared in tessera.h), one
// function per operation and dtype, generated from tessera/reduce.hpp's op
// list where the signature is shared.
#include "core/src/api/capi_support.hpp"
#include "tessera/reduce.hpp"

namespace {

using tessera::capi::context_of;
using tessera::capi::parallelism_from_c;
using tessera::capi::report;

}  // namespace

extern "C" {

#define TESSERA_C_REDUCE_(name, id, T, dtype)                                                \
  tsr_status tsr_##name##_rows_##dtype(const tsr_context* context, int64_t rows,             \
                                       int64_t cols, const T* x, int64_t ldx, T* out,         \
                                       int threads) {                                         \
    return report(tessera::try_reduce(context_of(context), tessera::ReduceOp::id, rows, cols, \
                                      x, ldx, out, parallelism_from_c(threads)));             \
  }
#define TESSERA_C_REDUCE_BOTH_(name, id) \
  TESSERA_C_REDUCE_(name, id, float, f32) TESSERA_C_REDUCE_(name, id, double, f64)
TESSERA_REDUCE_OPS(TESSERA_C_REDUCE_BOTH_)
#undef TESSERA_C_REDUCE_BOTH_
#undef TESSERA_C_REDUCE_

#define TESSERA_C_ROWS_(T, dtype)                                                            \
  tsr_status tsr_argmax_rows_##dtype(const tsr_context* context, int64_t rows, int64_t cols, \
                                     const T* x, int64_t ldx, int64_t* out, int threads) {   \
    return report(tessera::try_argmax(context_of(context), rows, cols, x, ldx, out,          \
                                      parallelism_from_c(threads)));                         \
  }                                                                                          \
  tsr_status tsr_softmax_rows_##dtype(const tsr_context* context, int64_t rows,             \
                                      int64_t cols, const T* x, int64_t ldx, T* y,           \
                                      int64_t ldy, int threads) {                            \
    return report(tessera::try_softmax(context_of(context), rows, cols, x, ldx, y, ldy,      \
                                       parallelism_from_c(threads)));                        \
  }                                                                                          \
  tsr_status tsr_log_softmax_rows_##dtype(const tsr_context* context, int64_t rows,         \
                                          int64_t cols, const T* x, int64_t ldx, T* y,       \
                                          int64_t ldy, int threads) {                        \
    return report(tessera::try_log_softmax(context_of(context), rows, cols, x, ldx, y, ldy,  \
                                           parallelism_from_c(threads)));                    \
  }
TESSERA_C_ROWS_(float, f32)
TESSERA_C_ROWS_(double, f64)
#undef TESSERA_C_ROWS_

}  // extern "C"
