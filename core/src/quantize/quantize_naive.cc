#include "core/src/quantize/quantize_naive.hpp"

#include <algorithm>
#include <cmath>

namespace tessera::core::naive {

void range_reference(const float* x, std::size_t n, float* lo, float* hi, std::size_t* bad) {
  *lo = *hi = x[0];
  *bad = n;
  for (std::size_t i = 0; i < n; ++i) {
    if (!std::isfinite(x[i]) && *bad == n) *bad = i;
    *lo = std::min(*lo, x[i]);
    *hi = std::max(*hi, x[i]);
  }
}

void quantize_u8_reference(const float* x, std::size_t n, float scale, std::int32_t zero_point,
                           std::uint8_t* y) {
  for (std::size_t i = 0; i < n; ++i) {
    const double r = std::nearbyint(static_cast<double>(x[i] / scale)) + zero_point;
    y[i] = static_cast<std::uint8_t>(std::clamp(r, 0.0, 255.0));
  }
}

}  // namespace tessera::core::naive
