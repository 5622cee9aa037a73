// The reference epilogue (naive family): bias and activation in double on a
// value already rounded to T as the plain GEMM stores it, then one rounding
// to T. Independent of the vector code (libm tanh/exp, no vmath).
#pragma once

#include <cmath>
#include <cstdint>

#include "core/src/kernels/gemm_kernel.hpp"

namespace tessera::core::naive {

inline double activate_reference(GemmAct act, double x) {
  switch (act) {
    case GemmAct::kNone: return x;
    case GemmAct::kRelu: return x < 0.0 ? 0.0 : x;  // NaN and -0 pass
    case GemmAct::kGelu:
      return 0.5 * x * (1.0 + std::tanh(0.7978845608028654 * (x + 0.044715 * x * x * x)));
    case GemmAct::kSigmoid: return 1.0 / (1.0 + std::exp(-x));
  }
  return x;
}

// The epilogue of element (i, j) of the canonical problem on value `c`.
template <class T>
T epilogue_reference(const GemmEpilogueSpec<T>& ep, std::int64_t i, std::int64_t j, T c) {
  double x = static_cast<double>(c);
  if (ep.axis == GemmBiasAxis::kColumn) x += static_cast<double>(ep.bias[j]);
  if (ep.axis == GemmBiasAxis::kRow) x += static_cast<double>(ep.bias[i]);
  return static_cast<T>(activate_reference(ep.act, x));
}

}  // namespace tessera::core::naive
