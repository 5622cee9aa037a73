// SSYMM/DSYMM, SSYRK/DSYRK (level3.cc) and STRSM/DTRSM (trsm.cc) with the
// Fortran BLAS interface: arguments by reference, gfortran's hidden lengths
// for the option characters, checked in the reference's order and numbers.
#include <cstddef>

#include "blas/src/blas_args.hpp"
#include "blas/src/level3.hpp"
#include "blas/src/trsm.hpp"

namespace tessera::blas {
namespace {

template <class T>
void symm(const char* routine, const char* side, const char* uplo, const int* m, const int* n,
          const T* alpha, const T* a, const int* lda, const T* b, const int* ldb, const T* beta,
          T* c, const int* ldc) {
  const int info = symm_argument_error(*side, *uplo, *m, *n, *lda, *ldb, *ldc);
  if (info != 0) {
    report_bad_argument(routine, info);
    return;
  }
  symm_colmajor(routine, option(*side, "LR"), option(*uplo, "UL"), *m, *n, *alpha, a, *lda, b,
                *ldb, *beta, c, *ldc);
}

template <class T>
void syrk(const char* routine, const char* uplo, const char* trans, const int* n, const int* k,
          const T* alpha, const T* a, const int* lda, const T* beta, T* c, const int* ldc) {
  const int info = syrk_argument_error(*uplo, *trans, *n, *k, *lda, *ldc);
  if (info != 0) {
    report_bad_argument(routine, info);
    return;
  }
  syrk_colmajor(routine, option(*uplo, "UL"), option(*trans, "NTC"), *n, *k, *alpha, a, *lda,
                *beta, c, *ldc);
}

template <class T>
void trsm(const char* routine, const char* side, const char* uplo, const char* transa,
          const char* diag, const int* m, const int* n, const T* alpha, const T* a,
          const int* lda, T* b, const int* ldb) {
  const int info = trsm_argument_error(*side, *uplo, *transa, *diag, *m, *n, *lda, *ldb);
  if (info != 0) {
    report_bad_argument(routine, info);
    return;
  }
  trsm_colmajor(routine, option(*side, "LR"), option(*uplo, "UL"), option(*transa, "NTC"),
                option(*diag, "NU"), *m, *n, *alpha, a, *lda, b, *ldb);
}


}  // namespace
}  // namespace tessera::blas

extern "C" {

TESSERA_BLAS_API void ssymm_(const char* side, const char* uplo, const int* m, const int* n,
                             const float* alpha, const float* a, const int* lda, const float* b,
                             const int* ldb, const float* beta, float* c, const int* ldc,
                             std::size_t, std::size_t) {
  tessera::blas::symm("SSYMM ", side, uplo, m, n, alpha, a, lda, b, ldb, beta, c, ldc);
}
TESSERA_BLAS_API void dsymm_(const char* side, const char* uplo, const int* m, const int* n,
                             const double* alpha, const double* a, const int* lda,
                             const double* b, const int* ldb, const double* beta, double* c,
                             const int* ldc, std::size_t, std::size_t) {
  tessera::blas::symm("DSYMM ", side, uplo, m, n, alpha, a, lda, b, ldb, beta, c, ldc);
}

TESSERA_BLAS_API void ssyrk_(const char* uplo, const char* trans, const int* n, const int* k,
                             const float* alpha, const float* a, const int* lda,
                             const float* beta, float* c, const int* ldc, std::size_t,
                             std::size_t) {
  tessera::blas::syrk("SSYRK ", uplo, trans, n, k, alpha, a, lda, beta, c, ldc);
}
TESSERA_BLAS_API void dsyrk_(const char* uplo, const char* trans, const int* n, const int* k,
                             const double* alpha, const double* a, const int* lda,
                             const double* beta, double* c, const int* ldc, std::size_t,
                             std::size_t) {
  tessera::blas::syrk("DSYRK ", uplo, trans, n, k, alpha, a, lda, beta, c, ldc);
}

TESSERA_BLAS_API void strsm_(const char* side, const char* uplo, const char* transa,
                             const char* diag, const int* m, const int* n, const float* alpha,
                             const float* a, const int* lda, float* b, const int* ldb,
                             std::size_t, std::size_t, std::size_t, std::size_t) {
  tessera::blas::trsm("STRSM ", side, uplo, transa, diag, m, n, alpha, a, lda, b, ldb);
}
TESSERA_BLAS_API void dtrsm_(const char* side, const char* uplo, const char* transa,
                             const char* diag, const int* m, const int* n, const double* alpha,
                             const double* a, const int* lda, double* b, const int* ldb,
                             std::size_t, std::size_t, std::size_t, std::size_t) {
  tessera::blas::trsm("DTRSM ", side, uplo, transa, diag, m, n, alpha, a, lda, b, ldb);
}
}  // extern "C"
