// Elementwise kernels on f32.
//
//   add:  out[i] = a[i] + b[i]        (replaces: for i < n: out[i] = a[i] + b[i])
//   mul:  out[i] = a[i] * b[i]
//   relu: out[i] = x[i] < 0 ? 0 : x[i]   (NaN and -0 pass through)
//
// All spans must have the same length. `out` may be exactly one of the inputs
// (in place); any other overlap is an error. Bad arguments are reported
// before anything is written. Work is split across the context's executor in
// blocks; each element is computed by the same arithmetic whatever the block
// or worker count, so results never depend on the number of threads.
// IEEE semantics: NaN and Inf propagate as the hardware's IEEE operations say.
#pragma once

#include <span>

#include "tessera/context.hpp"

namespace tessera {

Status try_add(const Context& context, std::span<const float> a,
               std::span<const float> b, std::span<float> out);
Status try_mul(const Context& context, std::span<const float> a,
               std::span<const float> b, std::span<float> out);
Status try_relu(const Context& context, std::span<const float> x,
                std::span<float> out);

#if TESSERA_HAS_EXCEPTIONS
inline void add(const Context& context, std::span<const float> a,
                std::span<const float> b, std::span<float> out) {
  throw_if_error(try_add(context, a, b, out));
}
inline void mul(const Context& context, std::span<const float> a,
                std::span<const float> b, std::span<float> out) {
  throw_if_error(try_mul(context, a, b, out));
}
inline void relu(const Context& context, std::span<const float> x,
                 std::span<float> out) {
  throw_if_error(try_relu(context, x, out));
}
#endif

}  // namespace tessera
