// dot and gemv, f32 and f64, with BLAS argument conventions.
//
//   dot:  *result = sum_{i<n} x[i*incx] * y[i*incy]
//   gemv: y[i*incy] = alpha * sum_p op(A)(i, p) * x[p*incx] + beta * y[i*incy]
//         A is m x n as stored (layout, lda); op(A) = A (y has m elements,
//         x has n) or A^T (y has n, x has m).
//
// A negative increment walks the vector backwards as in BLAS: element i of
// x is x[(len-1-i)*|incx|]. Increments must not be 0.
//
// BLAS special cases, kept: gemv with m == 0 or n == 0, or with alpha == 0
// and beta == 1, leaves y untouched; alpha == 0 reads neither A nor x;
// beta == 0 does not read y (a NaN there is overwritten). dot with n == 0
// gives 0. Negative sizes, lda below the stored line length, a zero
// increment, a null pointer with a non-zero extent and y sharing memory with
// A or x are errors naming the argument, reported before anything is written.
//
// Reproducibility: the bits never depend on the worker count. dot sums fixed
// blocks of 4096 elements and adds the block sums in order; gemv gives each
// output element to one worker, which computes it by the same operation
// sequence wherever the rows were split.
#pragma once

#include <cstdint>

#include "tessera/context.hpp"
#include "tessera/gemm.hpp"
#include "tessera/parallelism.hpp"
#include "tessera/platform/build_config.h"  // TESSERA_CXX_API_BEGIN

TESSERA_CXX_API_BEGIN
namespace tessera {

Status try_dot(const Context& context, std::int64_t n, const float* x, std::int64_t incx,
               const float* y, std::int64_t incy, float* result,
               Parallelism parallelism = {});
Status try_dot(const Context& context, std::int64_t n, const double* x, std::int64_t incx,
               const double* y, std::int64_t incy, double* result,
               Parallelism parallelism = {});

Status try_gemv(const Context& context, Layout layout, Transpose trans, std::int64_t m,
                std::int64_t n, float alpha, const float* a, std::int64_t lda, const float* x,
                std::int64_t incx, float beta, float* y, std::int64_t incy,
                Parallelism parallelism = {});
Status try_gemv(const Context& context, Layout layout, Transpose trans, std::int64_t m,
                std::int64_t n, double alpha, const double* a, std::int64_t lda,
                const double* x, std::int64_t incx, double beta, double* y,
                std::int64_t incy, Parallelism parallelism = {});

#if TESSERA_HAS_EXCEPTIONS
template <class T>
inline T dot(const Context& context, std::int64_t n, const T* x, std::int64_t incx, const T* y,
             std::int64_t incy, Parallelism parallelism = {}) {
  T result{};
  throw_if_error(try_dot(context, n, x, incx, y, incy, &result, parallelism));
  return result;
}
template <class T>
inline void gemv(const Context& context, Layout layout, Transpose trans, std::int64_t m,
                 std::int64_t n, T alpha, const T* a, std::int64_t lda, const T* x,
                 std::int64_t incx, T beta, T* y, std::int64_t incy,
                 Parallelism parallelism = {}) {
  throw_if_error(try_gemv(context, layout, trans, m, n, alpha, a, lda, x, incx, beta, y, incy,
                          parallelism));
}
#endif

}  // namespace tessera
TESSERA_CXX_API_END
