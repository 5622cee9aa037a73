// Accuracy sweep of the f32 transcendentals (exp log tanh sigmoid): every
// f32 input in each function's relevant range through the public elementwise
// op on the default context (the host's best ISA, or TESSERA_ISA), against
// the C library in double (rounded to f32; any non-zero distance is
// re-measured against long double). Reports the maximum distance from the
// correctly rounded result in ulp (representable values) and where.
//   ./dev bench vmath_ulp            all inputs in range
//   bench-vmath_ulp --step K         every K-th bit pattern (quick look)
#include <cinttypes>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "tessera/tessera.hpp"

namespace {

using tessera::UnaryOp;

// Representable f32 values between a and b (0 if equal or both NaN).
double ulp_distance(float a, float b) {
  if (a != a || b != b) return (a != a && b != b) ? 0.0 : 1e300;
  std::uint32_t ua, ub;
  std::memcpy(&ua, &a, 4);
  std::memcpy(&ub, &b, 4);
  const auto key = [](std::uint32_t u) {
    return (u & 0x80000000u) ? -static_cast<std::int64_t>(u & 0x7FFFFFFFu)
                             : static_cast<std::int64_t>(u);
  };
  const std::int64_t d = key(ua) - key(ub);
  return static_cast<double>(d < 0 ? -d : d);
}

float from_bits(std::uint32_t b) {
  float x;
  std::memcpy(&x, &b, 4);
  return x;
}

long double ref_ld(UnaryOp op, long double x) {
  switch (op) {
    case UnaryOp::kExp: return std::exp(x);
    case UnaryOp::kLog: return std::log(x);
    case UnaryOp::kTanh: return std::tanh(x);
    case UnaryOp::kSigmoid: return 1.0L / (1.0L + std::exp(-x));
    default: return 0;
  }
}
double ref_d(UnaryOp op, double x) {
  switch (op) {
    case UnaryOp::kExp: return std::exp(x);
    case UnaryOp::kLog: return std::log(x);
    case UnaryOp::kTanh: return std::tanh(x);
    case UnaryOp::kSigmoid: return 1.0 / (1.0 + std::exp(-x));
    default: return 0;
  }
}
bool in_range(UnaryOp op, float x) {
  if (!std::isfinite(x)) return false;
  switch (op) {
    case UnaryOp::kExp: return x >= -104.0f && x <= 89.0f;
    case UnaryOp::kLog: return x > 0.0f;
    default: return true;
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::uint64_t step = 1;
  for (int i = 1; i + 1 < argc; ++i) {
    if (std::string(argv[i]) == "--step") step = std::strtoull(argv[i + 1], nullptr, 10);
  }
  tessera::Context context;
  if (!tessera::Context::create({}, &context).ok()) return 1;
  std::printf("vmath_ulp: f32, isa=%s, every %" PRIu64 "-th bit pattern in range\n",
              tessera::isa_name(context.isa()), step);
  std::printf("%-8s %14s %10s %16s\n", "op", "inputs", "max ulp", "at x");
  constexpr std::size_t kChunk = 1 << 20;
  std::vector<float> x(kChunk), y(kChunk);
  for (UnaryOp op : {UnaryOp::kExp, UnaryOp::kLog, UnaryOp::kTanh, UnaryOp::kSigmoid}) {
    double worst = 0;
    float worst_x = 0;
    std::uint64_t count = 0;
    std::uint64_t bits = 0;
    while (bits < (std::uint64_t(1) << 32)) {
      std::size_t n = 0;
      for (; n < kChunk && bits < (std::uint64_t(1) << 32); bits += step) {
        const float v = from_bits(static_cast<std::uint32_t>(bits));
        if (in_range(op, v)) x[n++] = v;
      }
      if (n == 0) continue;
      if (!tessera::try_unary(context, op, std::span<const float>(x.data(), n),
                              std::span<float>(y.data(), n)).ok()) {
        return 1;
      }
      count += n;
      for (std::size_t i = 0; i < n; ++i) {
        double d = ulp_distance(static_cast<float>(ref_d(op, x[i])), y[i]);
        if (d > 0) {
          d = ulp_distance(static_cast<float>(ref_ld(op, x[i])), y[i]);
        }
        if (d > worst) {
          worst = d;
          worst_x = x[i];
        }
      }
    }
    std::printf("%-8s %14" PRIu64 " %10.0f %16.9g\n", tessera::unary_op_name(op), count, worst,
                worst_x);
    std::fflush(stdout);
  }
  return 0;
}
