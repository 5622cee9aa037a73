// SGEMM / DGEMM with the Fortran BLAS interface (column-major, arguments by
// reference, gfortran's hidden lengths for the option characters), checked
// in the reference BLAS's order and parameter numbers, then run by
// tessera::try_gemm on the default context.
#include <cstddef>

#include "blas/src/blas_args.hpp"
#include "blas/src/disjoint.hpp"
#include "tessera/gemm.hpp"

namespace tessera::blas {
namespace {

template <class T>
void gemm(const char* routine, const char* transa, const char* transb, const int* m,
          const int* n, const int* k, const T* alpha, const T* a, const int* lda, const T* b,
          const int* ldb, const T* beta, T* c, const int* ldc) {
  const int info = gemm_argument_error(*transa, *transb, *m, *n, *k, *lda, *ldb, *ldc);
  if (info != 0) {
    report_bad_argument(routine, info);
    return;
  }
  if (*m == 0 || *n == 0) return;
  const Transpose ta = checked_transpose(*transa), tb = checked_transpose(*transb);
  Status s = gemm_disjoint(Layout::kColMajor, ta, tb, *m, *n, *k, *alpha, a, *lda, b, *ldb,
                           *beta, c, *ldc);
  if (!s.ok()) report_failure(routine, s);
}

}  // namespace
}  // namespace tessera::blas

extern "C" {

TESSERA_BLAS_API void sgemm_(const char* transa, const char* transb, const int* m, const int* n,
                             const int* k, const float* alpha, const float* a, const int* lda,
                             const float* b, const int* ldb, const float* beta, float* c,
                             const int* ldc) {
  tessera::blas::gemm("SGEMM ", transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

TESSERA_BLAS_API void dgemm_(const char* transa, const char* transb, const int* m, const int* n,
                             const int* k, const double* alpha, const double* a, const int* lda,
                             const double* b, const int* ldb, const double* beta, double* c,
                             const int* ldc) {
  tessera::blas::gemm("DGEMM ", transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

}  // extern "C"
