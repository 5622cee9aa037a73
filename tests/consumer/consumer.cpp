// A C++ user of tessera: a product on the default context checked against a
// loop of its own, a fused epilogue, an elementwise call, and a bad argument
// that must come back as an error naming it. Exits 1 on any mismatch.
#include <tessera/tessera.hpp>

#include <cmath>
#include <cstdio>
#include <vector>

namespace {

int failures = 0;

void expect(bool ok, const char* what) {
  if (!ok) {
    std::printf("FAIL: %s\n", what);
    ++failures;
  }
}

}  // namespace

int main() {
  // Small integers: every product and sum is exact in f32, so the loop and
  // tessera must agree exactly whatever the summation order.
  const int m = 37, n = 29, k = 13;
  std::vector<float> a(m * k), b(k * n), c(m * n, -1.0f), want(m * n), bias(n);
  for (int i = 0; i < m * k; ++i) a[i] = static_cast<float>(i % 7 - 3);
  for (int i = 0; i < k * n; ++i) b[i] = static_cast<float>(i % 5 - 2);
  for (int j = 0; j < n; ++j) bias[j] = static_cast<float>(j % 3 - 1);
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < n; ++j) {
      float s = 0;
      for (int p = 0; p < k; ++p) s += a[i * k + p] * b[p * n + j];
      want[i * n + j] = s;
    }
  }

  const tessera::Context context;
  expect(context.status().ok(), "default context");
  tessera::Status s = tessera::try_gemm(context, tessera::Layout::kRowMajor, tessera::Transpose::kNo,
                                        tessera::Transpose::kNo, m, n, k, 1.0f, a.data(), k,
                                        b.data(), n, 0.0f, c.data(), n);
  expect(s.ok(), "try_gemm");
  expect(c == want, "gemm equals the consumer's loop");

  // Fused bias + relu.
  tessera::GemmEpilogue<float> epilogue;
  epilogue.bias = bias.data();
  epilogue.bias_kind = tessera::BiasKind::kPerColumn;
  epilogue.activation = tessera::Activation::kRelu;
  s = tessera::try_gemm(context, tessera::Layout::kRowMajor, tessera::Transpose::kNo,
                        tessera::Transpose::kNo, m, n, k, 1.0f, a.data(), k, b.data(), n, 0.0f,
                        c.data(), n, epilogue);
  expect(s.ok(), "try_gemm with an epilogue");
  bool relu_ok = true;
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < n; ++j) {
      const float v = want[i * n + j] + bias[j];
      relu_ok = relu_ok && c[i * n + j] == (v < 0 ? 0.0f : v);
    }
  }
  expect(relu_ok, "gemm + bias + relu equals the consumer's loop");

  // Elementwise sqrt of perfect squares is exact.
  std::vector<double> x(101), y(101);
  for (int i = 0; i < 101; ++i) x[i] = static_cast<double>(i) * i;
  s = tessera::try_unary(context, tessera::UnaryOp::kSqrt, x, y);
  expect(s.ok(), "try_unary sqrt");
  bool sqrt_ok = true;
  for (int i = 0; i < 101; ++i) sqrt_ok = sqrt_ok && y[i] == i;
  expect(sqrt_ok, "sqrt of squares");

  // A bad leading dimension: an error naming lda, C untouched.
  std::vector<float> before = c;
  s = tessera::try_gemm(context, tessera::Layout::kRowMajor, tessera::Transpose::kNo,
                        tessera::Transpose::kNo, m, n, k, 1.0f, a.data(), k - 1, b.data(), n,
                        0.0f, c.data(), n);
  expect(s.code() == tessera::StatusCode::kInvalidArgument, "bad lda is invalid-argument");
  expect(s.message().find("lda") != std::string::npos, "the error names lda");
  expect(c == before, "nothing written on bad input");

  std::printf("tessera %s (%s), isa %s, %d participant(s): %s\n", TESSERA_VERSION_STRING,
              TESSERA_TARGET_NAME, tessera::isa_name(context.isa()),
              context.resolved_policy().effective_threads, failures == 0 ? "ok" : "FAILED");
  return failures == 0 ? 0 : 1;
}
