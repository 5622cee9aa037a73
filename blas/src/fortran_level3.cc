// The Fortran level-3 routines beyond ?GEMM (fortran_gemm.cc,
// complex_level3_entries.cc): ?SYMM/?HEMM, ?SYRK/?HERK, ?SYR2K/?HER2K
// (level3.cc), ?TRSM and ?TRMM (trsm.cc), in every type the reference has
// them. Arguments by reference, gfortran's hidden lengths for the option
// characters, checked in the reference's order and numbers.
#include <complex>
#include <cstddef>

#include "blas/src/blas_args.hpp"
#include "blas/src/level3.hpp"
#include "blas/src/scalar.hpp"
#include "blas/src/trsm.hpp"

// Named, not anonymous: the unity builds merge every libtessera_blas
// source into one translation unit.
namespace tessera::blas::fortran3 {

template <class T>
void symm(const char* routine, bool hermitian, const char* side, const char* uplo, const int* m,
          const int* n, const T* alpha, const T* a, const int* lda, const T* b, const int* ldb,
          const T* beta, T* c, const int* ldc) {
  const int info = symm_argument_error(*side, *uplo, *m, *n, *lda, *ldb, *ldc);
  if (info != 0) {
    report_bad_argument(routine, info);
    return;
  }
  symm_colmajor(routine, hermitian, option(*side, "LR"), option(*uplo, "UL"), *m, *n, *alpha, a,
                *lda, b, *ldb, *beta, c, *ldc);
}

// alpha and beta by value: herk's are real.
template <class T>
void syrk(const char* routine, bool hermitian, const char* uplo, const char* trans, const int* n,
          const int* k, T alpha, const T* a, const int* lda, T beta, T* c, const int* ldc) {
  const char* transes = rank_k_transes<T>(hermitian);
  const int info = syrk_argument_error(*uplo, *trans, *n, *k, *lda, *ldc, transes);
  if (info != 0) {
    report_bad_argument(routine, info);
    return;
  }
  syrk_colmajor(routine, hermitian, option(*uplo, "UL"), option(*trans, transes), *n, *k, alpha,
                a, *lda, beta, c, *ldc);
}

template <class T>
void syr2k(const char* routine, bool hermitian, const char* uplo, const char* trans,
           const int* n, const int* k, const T* alpha, const T* a, const int* lda, const T* b,
           const int* ldb, T beta, T* c, const int* ldc) {
  const char* transes = rank_k_transes<T>(hermitian);
  const int info = syr2k_argument_error(*uplo, *trans, *n, *k, *lda, *ldb, *ldc, transes);
  if (info != 0) {
    report_bad_argument(routine, info);
    return;
  }
  syr2k_colmajor(routine, hermitian, option(*uplo, "UL"), option(*trans, transes), *n, *k,
                 *alpha, a, *lda, b, *ldb, beta, c, *ldc);
}

// TRSM (multiply false) or TRMM.
template <class T>
void trsm(const char* routine, bool multiply, const char* side, const char* uplo,
          const char* transa, const char* diag, const int* m, const int* n, const T* alpha,
          const T* a, const int* lda, T* b, const int* ldb) {
  const int info = trsm_argument_error(*side, *uplo, *transa, *diag, *m, *n, *lda, *ldb);
  if (info != 0) {
    report_bad_argument(routine, info);
    return;
  }
  const auto run = multiply ? trmm_colmajor<T> : trsm_colmajor<T>;
  run(routine, option(*side, "LR"), option(*uplo, "UL"), option(*transa, "NTC"),
      option(*diag, "NU"), *m, *n, *alpha, a, *lda, b, *ldb);
}

}  // namespace tessera::blas::fortran3

using tessera::blas::c32;
using tessera::blas::c64;

extern "C" {
TESSERA_BLAS_API void ssymm_(const char* side, const char* uplo, const int* m, const int* n,
                             const float* alpha, const float* a, const int* lda, const float* b,
                             const int* ldb, const float* beta, float* c, const int* ldc) {
  tessera::blas::fortran3::symm("SSYMM ", false, side, uplo, m, n, alpha, a, lda, b, ldb, beta, c,
                                ldc);
}

TESSERA_BLAS_API void dsymm_(const char* side, const char* uplo, const int* m, const int* n,
                             const double* alpha, const double* a, const int* lda, const double* b,
                             const int* ldb, const double* beta, double* c, const int* ldc) {
  tessera::blas::fortran3::symm("DSYMM ", false, side, uplo, m, n, alpha, a, lda, b, ldb, beta, c,
                                ldc);
}

TESSERA_BLAS_API void csymm_(const char* side, const char* uplo, const int* m, const int* n,
                             const c32* alpha, const c32* a, const int* lda, const c32* b,
                             const int* ldb, const c32* beta, c32* c, const int* ldc) {
  tessera::blas::fortran3::symm("CSYMM ", false, side, uplo, m, n, alpha, a, lda, b, ldb, beta, c,
                                ldc);
}

TESSERA_BLAS_API void chemm_(const char* side, const char* uplo, const int* m, const int* n,
                             const c32* alpha, const c32* a, const int* lda, const c32* b,
                             const int* ldb, const c32* beta, c32* c, const int* ldc) {
  tessera::blas::fortran3::symm("CHEMM ", true, side, uplo, m, n, alpha, a, lda, b, ldb, beta, c,
                                ldc);
}

TESSERA_BLAS_API void zsymm_(const char* side, const char* uplo, const int* m, const int* n,
                             const c64* alpha, const c64* a, const int* lda, const c64* b,
                             const int* ldb, const c64* beta, c64* c, const int* ldc) {
  tessera::blas::fortran3::symm("ZSYMM ", false, side, uplo, m, n, alpha, a, lda, b, ldb, beta, c,
                                ldc);
}

TESSERA_BLAS_API void zhemm_(const char* side, const char* uplo, const int* m, const int* n,
                             const c64* alpha, const c64* a, const int* lda, const c64* b,
                             const int* ldb, const c64* beta, c64* c, const int* ldc) {
  tessera::blas::fortran3::symm("ZHEMM ", true, side, uplo, m, n, alpha, a, lda, b, ldb, beta, c,
                                ldc);
}

TESSERA_BLAS_API void ssyrk_(const char* uplo, const char* trans, const int* n, const int* k,
                             const float* alpha, const float* a, const int* lda, const float* beta,
                             float* c, const int* ldc) {
  tessera::blas::fortran3::syrk("SSYRK ", false, uplo, trans, n, k, *alpha, a, lda, *beta, c, ldc);
}

TESSERA_BLAS_API void dsyrk_(const char* uplo, const char* trans, const int* n, const int* k,
                             const double* alpha, const double* a, const int* lda,
                             const double* beta, double* c, const int* ldc) {
  tessera::blas::fortran3::syrk("DSYRK ", false, uplo, trans, n, k, *alpha, a, lda, *beta, c, ldc);
}

TESSERA_BLAS_API void csyrk_(const char* uplo, const char* trans, const int* n, const int* k,
                             const c32* alpha, const c32* a, const int* lda, const c32* beta,
                             c32* c, const int* ldc) {
  tessera::blas::fortran3::syrk("CSYRK ", false, uplo, trans, n, k, *alpha, a, lda, *beta, c, ldc);
}

TESSERA_BLAS_API void cherk_(const char* uplo, const char* trans, const int* n, const int* k,
                             const float* alpha, const c32* a, const int* lda, const float* beta,
                             c32* c, const int* ldc) {
  tessera::blas::fortran3::syrk("CHERK ", true, uplo, trans, n, k, c32(*alpha), a, lda, c32(*beta),
                                c, ldc);
}

TESSERA_BLAS_API void zsyrk_(const char* uplo, const char* trans, const int* n, const int* k,
                             const c64* alpha, const c64* a, const int* lda, const c64* beta,
                             c64* c, const int* ldc) {
  tessera::blas::fortran3::syrk("ZSYRK ", false, uplo, trans, n, k, *alpha, a, lda, *beta, c, ldc);
}

TESSERA_BLAS_API void zherk_(const char* uplo, const char* trans, const int* n, const int* k,
                             const double* alpha, const c64* a, const int* lda, const double* beta,
                             c64* c, const int* ldc) {
  tessera::blas::fortran3::syrk("ZHERK ", true, uplo, trans, n, k, c64(*alpha), a, lda, c64(*beta),
                                c, ldc);
}

TESSERA_BLAS_API void ssyr2k_(const char* uplo, const char* trans, const int* n, const int* k,
                              const float* alpha, const float* a, const int* lda, const float* b,
                              const int* ldb, const float* beta, float* c, const int* ldc) {
  tessera::blas::fortran3::syr2k("SSYR2K", false, uplo, trans, n, k, alpha, a, lda, b, ldb, *beta,
                                 c, ldc);
}

TESSERA_BLAS_API void dsyr2k_(const char* uplo, const char* trans, const int* n, const int* k,
                              const double* alpha, const double* a, const int* lda, const double* b,
                              const int* ldb, const double* beta, double* c, const int* ldc) {
  tessera::blas::fortran3::syr2k("DSYR2K", false, uplo, trans, n, k, alpha, a, lda, b, ldb, *beta,
                                 c, ldc);
}

TESSERA_BLAS_API void csyr2k_(const char* uplo, const char* trans, const int* n, const int* k,
                              const c32* alpha, const c32* a, const int* lda, const c32* b,
                              const int* ldb, const c32* beta, c32* c, const int* ldc) {
  tessera::blas::fortran3::syr2k("CSYR2K", false, uplo, trans, n, k, alpha, a, lda, b, ldb, *beta,
                                 c, ldc);
}

TESSERA_BLAS_API void cher2k_(const char* uplo, const char* trans, const int* n, const int* k,
                              const c32* alpha, const c32* a, const int* lda, const c32* b,
                              const int* ldb, const float* beta, c32* c, const int* ldc) {
  tessera::blas::fortran3::syr2k("CHER2K", true, uplo, trans, n, k, alpha, a, lda, b, ldb,
                                 c32(*beta), c, ldc);
}

TESSERA_BLAS_API void zsyr2k_(const char* uplo, const char* trans, const int* n, const int* k,
                              const c64* alpha, const c64* a, const int* lda, const c64* b,
                              const int* ldb, const c64* beta, c64* c, const int* ldc) {
  tessera::blas::fortran3::syr2k("ZSYR2K", false, uplo, trans, n, k, alpha, a, lda, b, ldb, *beta,
                                 c, ldc);
}

TESSERA_BLAS_API void zher2k_(const char* uplo, const char* trans, const int* n, const int* k,
                              const c64* alpha, const c64* a, const int* lda, const c64* b,
                              const int* ldb, const double* beta, c64* c, const int* ldc) {
  tessera::blas::fortran3::syr2k("ZHER2K", true, uplo, trans, n, k, alpha, a, lda, b, ldb,
                                 c64(*beta), c, ldc);
}

TESSERA_BLAS_API void strsm_(const char* side, const char* uplo, const char* transa,
                             const char* diag, const int* m, const int* n, const float* alpha,
                             const float* a, const int* lda, float* b, const int* ldb) {
  tessera::blas::fortran3::trsm("STRSM ", false, side, uplo, transa, diag, m, n, alpha, a, lda, b,
                                ldb);
}

TESSERA_BLAS_API void dtrsm_(const char* side, const char* uplo, const char* transa,
                             const char* diag, const int* m, const int* n, const double* alpha,
                             const double* a, const int* lda, double* b, const int* ldb) {
  tessera::blas::fortran3::trsm("DTRSM ", false, side, uplo, transa, diag, m, n, alpha, a, lda, b,
                                ldb);
}

TESSERA_BLAS_API void ctrsm_(const char* side, const char* uplo, const char* transa,
                             const char* diag, const int* m, const int* n, const c32* alpha,
                             const c32* a, const int* lda, c32* b, const int* ldb) {
  tessera::blas::fortran3::trsm("CTRSM ", false, side, uplo, transa, diag, m, n, alpha, a, lda, b,
                                ldb);
}

TESSERA_BLAS_API void ztrsm_(const char* side, const char* uplo, const char* transa,
                             const char* diag, const int* m, const int* n, const c64* alpha,
                             const c64* a, const int* lda, c64* b, const int* ldb) {
  tessera::blas::fortran3::trsm("ZTRSM ", false, side, uplo, transa, diag, m, n, alpha, a, lda, b,
                                ldb);
}

TESSERA_BLAS_API void strmm_(const char* side, const char* uplo, const char* transa,
                             const char* diag, const int* m, const int* n, const float* alpha,
                             const float* a, const int* lda, float* b, const int* ldb) {
  tessera::blas::fortran3::trsm("STRMM ", true, side, uplo, transa, diag, m, n, alpha, a, lda, b,
                                ldb);
}

TESSERA_BLAS_API void dtrmm_(const char* side, const char* uplo, const char* transa,
                             const char* diag, const int* m, const int* n, const double* alpha,
                             const double* a, const int* lda, double* b, const int* ldb) {
  tessera::blas::fortran3::trsm("DTRMM ", true, side, uplo, transa, diag, m, n, alpha, a, lda, b,
                                ldb);
}

TESSERA_BLAS_API void ctrmm_(const char* side, const char* uplo, const char* transa,
                             const char* diag, const int* m, const int* n, const c32* alpha,
                             const c32* a, const int* lda, c32* b, const int* ldb) {
  tessera::blas::fortran3::trsm("CTRMM ", true, side, uplo, transa, diag, m, n, alpha, a, lda, b,
                                ldb);
}

TESSERA_BLAS_API void ztrmm_(const char* side, const char* uplo, const char* transa,
                             const char* diag, const int* m, const int* n, const c64* alpha,
                             const c64* a, const int* lda, c64* b, const int* ldb) {
  tessera::blas::fortran3::trsm("ZTRMM ", true, side, uplo, transa, diag, m, n, alpha, a, lda, b,
                                ldb);
}

}  // extern "C"
