#include "core/src/gemm/gemm_naive.hpp"

#include "core/src/gemm/gemm_naive_epilogue.hpp"

namespace tessera::core::naive {
namespace {

template <class T>
void gemm(const GemmProblem<T>& pr) {
  for (std::int64_t i = 0; i < pr.m; ++i) {
    for (std::int64_t j = 0; j < pr.n; ++j) {
      double sum = 0.0;
      for (std::int64_t p = 0; p < pr.k; ++p) {
        sum += static_cast<double>(pr.a[i * pr.rs_a + p * pr.cs_a]) *
               static_cast<double>(pr.b[p * pr.rs_b + j * pr.cs_b]);
      }
      T& c = pr.c[i * pr.ldc + j];
      double value = static_cast<double>(pr.alpha) * sum;
      if (pr.beta != T(0)) value += static_cast<double>(pr.beta) * static_cast<double>(c);
      c = static_cast<T>(value);
      if (pr.epilogue.active()) c = epilogue_reference(pr.epilogue, i, j, c);
    }
  }
}

}  // namespace

void gemm_f32(const GemmProblem<float>& problem) { gemm(problem); }
void gemm_f64(const GemmProblem<double>& problem) { gemm(problem); }

}  // namespace tessera::core::naive
