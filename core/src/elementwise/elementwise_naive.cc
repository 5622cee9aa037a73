#include "core/src/elementwise/elementwise_naive.hpp"

#include <cstdint>
#include <cstring>

namespace tessera::core::naive {

void add_f32(const float* a, const float* b, float* y, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) y[i] = a[i] + b[i];
}

void mul_f32(const float* a, const float* b, float* y, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) y[i] = a[i] * b[i];
}

void relu_f32(const float* x, float* y, std::size_t n) {
  // Select the bits, not the float: LLVM 14 for wasm turns the float form
  // `x < 0 ? 0 : x` into f32.max, which maps -0 to +0 (seen with Debian's
  // emscripten 3.1.6). An integer select keeps the definition exact.
  for (std::size_t i = 0; i < n; ++i) {
    std::uint32_t bits;
    std::memcpy(&bits, &x[i], sizeof bits);
    const std::uint32_t kept = x[i] < 0.0f ? 0u : bits;
    std::memcpy(&y[i], &kept, sizeof kept);
  }
}

}  // namespace tessera::core::naive
