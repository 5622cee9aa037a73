#include "core/src/qgemm/qgemm_naive.hpp"

#include <cmath>
#include <cstring>

namespace tessera::core::naive {
namespace {

std::int64_t value(const std::uint8_t* p, IntType type) {
  return type == IntType::kS8 ? static_cast<std::int8_t>(*p) : static_cast<std::int64_t>(*p);
}

float activate(float x, Activation act) {
  const long double v = x;
  switch (act) {
    case Activation::kNone: return x;
    case Activation::kRelu: {
      // On the bits: a float compare may become f32.max under emscripten's
      // LLVM 14, which turns -0 into +0 (elementwise_naive.hpp).
      std::uint32_t b;
      std::memcpy(&b, &x, 4);
      const bool negative = (b >> 31) != 0 && (b & 0x7FFFFFFFu) != 0 && (b & 0x7FFFFFFFu) <= 0x7F800000u;
      return negative ? 0.0f : x;
    }
    case Activation::kGelu: {
      if (std::isinf(v) && v < 0) return -0.0f;
      const long double u = 0.797884560802865355879892119868763737L * (v + 0.044715L * v * v * v);
      return static_cast<float>(v / (1.0L + std::exp(-2.0L * u)));
    }
    case Activation::kSigmoid: {
      const long double e = std::exp(-std::fabs(v));
      return static_cast<float>((std::signbit(x) ? e : 1.0L) / (1.0L + e));
    }
  }
  return x;
}

}  // namespace

void qgemm(const QGemmProblem& pr) {
  const QGemmOutputStage& o = pr.output;
  for (std::int64_t i = 0; i < pr.m; ++i) {
    for (std::int64_t j = 0; j < pr.n; ++j) {
      std::int64_t sum = 0;
      for (std::int64_t p = 0; p < pr.k; ++p) {
        const std::int64_t a = value(pr.a + i * pr.rs_a + p * pr.cs_a, pr.a_type) - pr.za;
        const std::int64_t b = value(pr.b + p * pr.rs_b + j * pr.cs_b, pr.b_type) - pr.zb.at(j);
        sum += a * b;  // |a b| < 2^17, k < 2^46: no overflow
      }
      const auto s = static_cast<std::int32_t>(static_cast<std::uint32_t>(sum));
      const std::int64_t at = i * o.rs + j * o.cs;
      switch (o.kind) {
        case QGemmOutputKind::kInt32: {
          std::int32_t* c = static_cast<std::int32_t*>(o.out) + at;
          *c = o.accumulate ? static_cast<std::int32_t>(static_cast<std::uint32_t>(*c) +
                                                        static_cast<std::uint32_t>(s))
                            : s;
          break;
        }
        case QGemmOutputKind::kRequantize: {
          const long double x = std::nearbyint(static_cast<float>(s) * o.multiplier.at(j));
          const bool s8 = o.y_type == IntType::kS8;
          const long double q = std::fmin(std::fmax(x + o.y_zero_point, s8 ? -128.0L : 0.0L),
                                          s8 ? 127.0L : 255.0L);
          static_cast<std::uint8_t*>(o.out)[at] =
              static_cast<std::uint8_t>(static_cast<std::int32_t>(q));
          break;
        }
        case QGemmOutputKind::kFloat: {
          float x = static_cast<float>(s) * o.scale.at(j);
          if (o.bias_kind == BiasKind::kPerColumn) x += o.bias[j];
          if (o.bias_kind == BiasKind::kPerRow) x += o.bias[i];
          static_cast<float*>(o.out)[at] = activate(x, o.activation);
          break;
        }
      }
    }
  }
}

}  // namespace tessera::core::naive
