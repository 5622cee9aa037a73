// SGEMV / DGEMV with the Fortran BLAS interface, checked in the reference
// BLAS's order and parameter numbers, run by tessera::try_gemv (which takes
// BLAS increments, negative ones included) on the default context.
#include <cstddef>

#include "blas/src/blas_args.hpp"
#include "blas/src/disjoint.hpp"
#include "tessera/blas1.hpp"

namespace tessera::blas {
namespace {

template <class T>
void gemv(const char* routine, const char* trans, const int* m, const int* n, const T* alpha,
          const T* a, const int* lda, const T* x, const int* incx, const T* beta, T* y,
          const int* incy) {
  const int info = gemv_argument_error(*trans, *m, *n, *lda, *incx, *incy);
  if (info != 0) {
    report_bad_argument(routine, info);
    return;
  }
  if (*m == 0 || *n == 0) return;
  const Transpose t = checked_transpose(*trans);
  Status s = gemv_disjoint(Layout::kColMajor, t, *m, *n, *alpha, a, *lda, x, *incx, *beta, y,
                           *incy);
  if (!s.ok()) report_failure(routine, s);
}

}  // namespace
}  // namespace tessera::blas

extern "C" {

TESSERA_BLAS_API void sgemv_(const char* trans, const int* m, const int* n, const float* alpha,
                             const float* a, const int* lda, const float* x, const int* incx,
                             const float* beta, float* y, const int* incy) {
  tessera::blas::gemv("SGEMV ", trans, m, n, alpha, a, lda, x, incx, beta, y, incy);
}

TESSERA_BLAS_API void dgemv_(const char* trans, const int* m, const int* n, const double* alpha,
                             const double* a, const int* lda, const double* x, const int* incx,
                             const double* beta, double* y, const int* incy) {
  tessera::blas::gemv("DGEMV ", trans, m, n, alpha, a, lda, x, incx, beta, y, incy);
}

}  // extern "C"
