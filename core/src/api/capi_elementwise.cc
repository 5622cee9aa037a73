// The C API's elementwise functions, generated from the op lists of
// tessera/elementwise.hpp (declared one by one in tessera.h).
#include <cstddef>

#include "core/src/api/capi_support.hpp"
#include "tessera/elementwise.hpp"

namespace {

using tessera::capi::context_of;
using tessera::capi::report;

// Sizes implied by a broadcast shape; an unknown shape gets size 0 here and
// is rejected (named) by the C++ driver.
std::size_t operand_count(tsr_broadcast shape, std::size_t rows, std::size_t cols) {
  switch (shape) {
    case TSR_BROADCAST_FULL: return rows * cols;
    case TSR_BROADCAST_ROW: return cols;
    case TSR_BROADCAST_COLUMN: return rows;
    case TSR_BROADCAST_SCALAR: return 1;
    default: return 0;
  }
}

template <class T>
tsr_status broadcast_c(const tsr_context* context, tessera::BinaryOp op, std::size_t rows,
                       std::size_t cols, const T* a, tsr_broadcast a_shape, const T* b,
                       tsr_broadcast b_shape, T* out) {
  // rows * cols overflowing is reported by the driver before any use.
  const tessera::Extent extent{rows, cols};
  const bool overflow = cols != 0 && rows > static_cast<std::size_t>(-1) / sizeof(T) / cols;
  const std::size_t n = overflow ? 0 : rows * cols;
  return report(tessera::try_binary(
      context_of(context), op, extent,
      tessera::Operand<T>{{a, overflow ? 0 : operand_count(a_shape, rows, cols)},
                          static_cast<tessera::Broadcast>(a_shape)},
      tessera::Operand<T>{{b, overflow ? 0 : operand_count(b_shape, rows, cols)},
                          static_cast<tessera::Broadcast>(b_shape)},
      {out, n}));
}

}  // namespace

extern "C" {

#define TESSERA_C_BINARY_(name, id, T, dtype)                                                 \
  tsr_status tsr_##name##_##dtype(const tsr_context* context, const T* a, const T* b, T* out, \
                                  size_t n) {                                                 \
    return report(tessera::try_##name(context_of(context), std::span<const T>(a, n),         \
                                      std::span<const T>(b, n), std::span<T>(out, n)));       \
  }                                                                                           \
  tsr_status tsr_##name##_broadcast_##dtype(const tsr_context* context, size_t rows,         \
                                            size_t cols, const T* a, tsr_broadcast a_shape,   \
                                            const T* b, tsr_broadcast b_shape, T* out) {      \
    return broadcast_c<T>(context, tessera::BinaryOp::id, rows, cols, a, a_shape, b, b_shape, \
                          out);                                                               \
  }
#define TESSERA_C_BINARY_BOTH_(name, id) \
  TESSERA_C_BINARY_(name, id, float, f32) TESSERA_C_BINARY_(name, id, double, f64)
TESSERA_ELEMENTWISE_BINARY_OPS(TESSERA_C_BINARY_BOTH_)
#undef TESSERA_C_BINARY_BOTH_
#undef TESSERA_C_BINARY_

#define TESSERA_C_UNARY_(name, id, T, dtype)                                             \
  tsr_status tsr_##name##_##dtype(const tsr_context* context, const T* x, T* out,       \
                                  size_t n) {                                            \
    return report(tessera::try_##name(context_of(context), std::span<const T>(x, n),    \
                                      std::span<T>(out, n)));                            \
  }
#define TESSERA_C_UNARY_BOTH_(name, id) \
  TESSERA_C_UNARY_(name, id, float, f32) TESSERA_C_UNARY_(name, id, double, f64)
TESSERA_ELEMENTWISE_UNARY_OPS(TESSERA_C_UNARY_BOTH_)
#undef TESSERA_C_UNARY_BOTH_
#undef TESSERA_C_UNARY_

}  // extern "C"
